// Reading containers from a buffer: full decode, validate-only, and record by record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ond/error.hpp"
#include "ond/model.hpp"

namespace ond {

using Bytes = std::span<const std::byte>;

inline Bytes as_bytes(const void* data, std::size_t size) {
    return Bytes(static_cast<const std::byte*>(data), size);
}

// Decodes one whole container (ONDC or ONDB) that fills the buffer exactly.
// Throws ond::Error on any fault, with the offset of the fault in the buffer.
Container decode(Bytes input);

// The same, into an existing container whose buffers keep their capacity: the fast way to
// decode many containers one after another. On a throw, `out` holds no documents (its format,
// crc and strings are unspecified).
void decode_into(Bytes input, Container& out);

// What validate() saw: enough for a one-line report, nothing of the content.
struct Summary {
    Format format = Format::ondc;
    bool crc = false;
    std::uint64_t docs = 0;
    std::uint64_t tokens = 0;
    std::uint64_t strings = 0;  // entries of the string table
};

// The size a container declares in its first 12 bytes (header, body and trailer), or nothing
// when those bytes are not a header decode() accepts (decode() of them says why). For reading
// one container from a pipe: never more than this plus one byte needs to be read.
std::optional<std::uint64_t> declared_size(Bytes first_12_bytes);

// The same checks as decode(), in the same order and with the same errors, building nothing.
Summary validate(Bytes input);

// One line for people, as `ond validate` words it: "ONDC, 1 document, 412 tokens, crc".
std::string to_string(const Summary& s);

// Reads an ONDB's records one at a time. The constructor checks the header, the container's
// length, the string table and section 5's count; each next() decodes one record; the call that
// finds no more records checks that the records fill section 5 and then the CRC. Verdict and
// error are those of decode() on the same bytes (R27).
class DocBinReader {
public:
    explicit DocBinReader(Bytes input);  // the bytes must outlive the reader
    // The same over bytes the reader keeps, so that a temporary is safe:
    // `for (ond::DocView doc : ond::DocBinReader(ond::load_file(path)))`.
    explicit DocBinReader(std::vector<std::byte>&& bytes);
    ~DocBinReader();
    DocBinReader(DocBinReader&&) noexcept;
    DocBinReader& operator=(DocBinReader&&) noexcept;

    const StringStore& strings() const noexcept;  // the shared table
    bool crc() const noexcept;
    std::uint32_t count() const noexcept;         // records declared

    // Decodes the next record into the reader's one-document buffers (reused from record to
    // record), seen through doc(); false after the last, once the end-of-section and CRC checks
    // have passed. Throws ond::Error; after a throw, every later call throws the same error.
    bool next();
    // The record next() read last (its string ids index strings()); valid until the next call.
    // Precondition: the last call to next() returned true.
    DocView doc() const noexcept;
    // The same as next(), then a copy of the record into `doc`, to keep or edit.
    bool next(Doc& doc);
    // The records as a range: `for (ond::DocView doc : ond::DocBinReader(bytes))`. Each view
    // lasts until the next step. begin() reads the first record (on a reader already read
    // from, the next one); each step throws as next() does.
    class iterator {
    public:
        using value_type = DocView;
        using difference_type = std::ptrdiff_t;
        explicit iterator(DocBinReader* r) : r_(r) { ++*this; }
        DocView operator*() const noexcept { return r_->doc(); }
        iterator& operator++() {
            more_ = r_->next();
            return *this;
        }
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const noexcept { return !more_; }

    private:
        DocBinReader* r_;
        bool more_ = false;
    };
    iterator begin() { return iterator(this); }
    std::default_sentinel_t end() const noexcept { return {}; }

private:
    void open(Bytes input);
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace ond
