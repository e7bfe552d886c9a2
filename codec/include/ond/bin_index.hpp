// Random and parallel access to an ONDB's records: an index of where each record lies, built in
// one pass over the bin, and the decoding of any range of records from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ond/model.hpp"
#include "ond/reader.hpp"

namespace ond {

// Where one record lies in the bin.
struct RecordSpan {
    std::uint64_t offset = 0;  // of the record's u32 length, from the start of the bin
    std::uint32_t length = 0;  // of the record's body (after those 4 bytes)
};

// The records of one ONDB, indexed. The constructor checks what DocBinReader's constructor
// checks (header, container length, string table, section 5's count), then every record's
// framing: each length fits what section 5 has left, the records fill section 5 exactly, and
// the CRC. A framing fault is reported with the code and offset the sequential readers give
// (decode(), DocBinReader). The records' contents are checked when they are decoded, with the
// errors decode() gives them. So a bin whose content and framing are both broken can be
// refused here for its framing while decode() names the earlier record's content first: the
// verdict is the same, the first error may differ.
//
// Memory: the index grows by one RecordSpan per record found, never by a declared count.
//
// Threads: once built, an index is never changed. Any number of threads may call its const
// members at once (decode(), decode_into(), record(), strings()), each decoding into a Container
// of its own; the bytes must not change meanwhile. That is the rule for parallel decoding:
// share one const index (its bytes and its string table, read-only), give each thread its own
// ranges and its own Container. (A DocBinReader, by contrast, is for one thread.)
class BinIndex {
public:
    explicit BinIndex(Bytes input);  // the bytes must outlive the index
    // The same over bytes the index keeps: `ond::BinIndex index(ond::load_file(path));`.
    explicit BinIndex(std::vector<std::byte>&& bytes);
    ~BinIndex();
    BinIndex(BinIndex&&) noexcept;
    BinIndex& operator=(BinIndex&&) noexcept;

    std::size_t size() const noexcept;  // records
    bool crc() const noexcept;
    // Record i's place; precondition: i < size().
    RecordSpan record(std::size_t i) const noexcept;
    std::span<const RecordSpan> records() const& noexcept;
    std::span<const RecordSpan> records() const&& = delete;
    // The shared string table: the ids of every decoded record index it.
    const StringStore& strings() const& noexcept;
    const StringStore& strings() const&& = delete;

    // Records [first, last) decoded into a new ONDB container (its strings a copy of strings(),
    // sharing its ids). Throws ond::Error for a record's content (code and offset as decode()),
    // std::out_of_range when first > last or last > size().
    Container decode(std::size_t first, std::size_t last) const;
    // The same into `out`, whose buffers keep their capacity; `out`'s strings are replaced by a
    // copy of strings() unless they already are one. On a throw, `out` holds no documents.
    void decode_into(std::size_t first, std::size_t last, Container& out) const;

private:
    void build(Bytes input);
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace ond
