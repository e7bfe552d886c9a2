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

// decode(), decode_into() and validate() compute the CRC-32 of a container of 4 MiB or more on
// a second, short-lived thread while they read its body; its check still comes after every
// check of the body, so the outcome is the same. false: always on the calling thread (for a
// program that already keeps every core busy). Per process, default true, thread-safe.
void set_crc_thread(bool allowed) noexcept;

// One line for people, as `ond validate` words it: "ONDC, 1 document, 412 tokens, crc".
std::string to_string(const Summary& s);

// The record a DocBinReader read last, seen through the reader's one-document buffers: a DocRef
// (ond/view.hpp), so it reads like a DocView (the same members) and goes wherever a
// `const ond::DocRef&` is taken, but it is not a DocView because it changes under you.
//
// Lifetime rules (each enforced where the compiler can):
// - It is the reader's, not yours: it cannot be copied or moved (a range-for takes it by
//   reference, `for (const ond::RecordView& doc : reader)` or `for (auto& doc : reader)`), and
//   it converts to no DocView, so it cannot be saved in a vector and found later showing the
//   last record.
// - It shows the record read last, until the next step (next(), ++ of the range); the token,
//   span and string views taken from it are valid as long. To keep a record, copy it:
//   to_doc() (ids of the reader's strings; add it to a container with Container::append), or
//   Container::append(record).
class RecordView : public DocRef {
public:
    RecordView(const RecordView&) = delete;
    RecordView& operator=(const RecordView&) = delete;

    // The record's index in the bin (a DocRef's index() is its index in its list: 0 here).
    std::size_t index() const noexcept { return record_; }
    // The same record as a DocRef, for code that takes one (valid as long as this one is; not
    // copyable, as the record is not).
    const DocRef& view() const noexcept { return *this; }

private:
    friend class DocBinReader;
    RecordView(const DocList& one, const StringStore& strings) noexcept : DocRef(one, 0, strings) {}
    std::size_t record_ = 0;
};

// Reads an ONDB's records one at a time. The constructor checks the header, the container's
// length, the string table and section 5's count; each next() decodes one record; the call that
// finds no more records checks that the records fill section 5 and then the CRC. Verdict and
// error are those of decode() on the same bytes (R27).
//
// Lifetime: the reader owns what it yields (strings(), doc() and every view taken from them);
// so its accessors cannot be called on a temporary reader. Over a temporary in a range-for the
// reader lives to the end of the loop (it keeps bytes given as a std::vector&&; bytes given as a
// span must outlive it). One reader is for one thread; two readers over the same bytes may run
// on two threads.
class DocBinReader {
public:
    explicit DocBinReader(Bytes input);  // the bytes must outlive the reader
    // The same over bytes the reader keeps, so that a temporary is safe:
    // `for (const ond::RecordView& doc : ond::DocBinReader(ond::load_file(path)))`.
    explicit DocBinReader(std::vector<std::byte>&& bytes);
    ~DocBinReader();
    DocBinReader(DocBinReader&&) noexcept;
    DocBinReader& operator=(DocBinReader&&) noexcept;

    const StringStore& strings() const& noexcept;  // the shared table
    const StringStore& strings() const&& = delete;  // would dangle with the temporary reader
    bool crc() const noexcept;
    std::uint32_t count() const noexcept;         // records declared

    // Decodes the next record into the reader's one-document buffers (reused from record to
    // record), seen through doc(); false after the last, once the end-of-section and CRC checks
    // have passed. Throws ond::Error; after a throw, every later call throws the same error.
    bool next();
    // The record next() read last (its string ids index strings()); it changes at the next
    // step. Precondition: the last call to next() returned true.
    const RecordView& doc() const& noexcept;
    const RecordView& doc() const&& = delete;
    // The same as next(), then a copy of the record into `doc`, to keep or edit (its origin is
    // strings(): add it to a container with Container::append(doc, reader.strings())).
    bool next(Doc& doc);
    // Steps past the next n records (fewer when the bin has fewer left) and returns how many it
    // passed. Only their framing is checked, as a BinIndex checks it (the contents are neither
    // read nor checked); the step past the last record makes next()'s end checks. After it,
    // doc() shows nothing until next(). Throws as next() does, and a throw ends the reader too.
    std::size_t skip(std::size_t n = 1);
    // The records as a range: `for (const ond::RecordView& doc : ond::DocBinReader(bytes))`.
    // Each record lasts until the next step. begin() starts at the record read last when there
    // is one (so asking begin() == end() first loses nothing), else reads the next record (the
    // first, or the one after those skipped); each step throws as next() does.
    class iterator {
    public:
        using value_type = RecordView;
        using difference_type = std::ptrdiff_t;
        iterator() = default;
        explicit iterator(DocBinReader* r, bool more) noexcept : r_(r), more_(more) {}
        const RecordView& operator*() const noexcept { return r_->doc(); }
        const RecordView* operator->() const noexcept { return &r_->doc(); }
        iterator& operator++() {
            more_ = r_->next();
            return *this;
        }
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const noexcept { return !more_; }

    private:
        DocBinReader* r_ = nullptr;
        bool more_ = false;
    };
    iterator begin();
    std::default_sentinel_t end() const noexcept { return {}; }

private:
    void open(Bytes input);
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace ond
