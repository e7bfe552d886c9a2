// Reading back-to-back ONDC containers from a stream (R25, R26).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <iterator>
#include <optional>
#include <vector>

#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/reader.hpp"

namespace ond {

// A byte source: reads up to `max` bytes into `dst`, returns how many (0 only at end of input).
using ReadFn = std::function<std::size_t(std::byte* dst, std::size_t max)>;

inline constexpr std::uint64_t stream_max_body_length = std::uint64_t{1} << 30;  // 1 GiB (R26)
inline constexpr std::size_t stream_read_step = std::size_t{1} << 20;           // 1 MiB (R26)

// One container (ONDC or ONDB) arriving from `read`, checked as its bytes arrive, for a pipe:
// header, then sections in arrival order as skip_next() reads them (an ONDB body is held as it
// arrives and checked whole), the CRC, then the end of the input. A fault has validate()'s code
// and offset, and the first fault met ends the reading, so memory follows the bytes that came,
// never the declared length. The difference from validate() of the same bytes: validate() can
// see the input's size first and reports a wrong size (container.truncated, .trailing-bytes)
// before a fault in the sections (R28); here the end of the input is met where it is.
Summary validate_arriving(const ReadFn& read);

class StreamReader {
public:
    explicit StreamReader(ReadFn read);
    explicit StreamReader(std::istream& in);
    // A stream already in memory; the bytes must outlive the reader.
    explicit StreamReader(Bytes input);
    // The same over bytes the reader keeps: `ond::StreamReader r(ond::load_file(path));`.
    explicit StreamReader(std::vector<std::byte>&& bytes);

    // The next container, fully checked (CRC included); nullopt at a clean end of input.
    // Throws ond::Error with offsets counted from the start of the stream. After a throw the
    // reader is finished.
    std::optional<Container> next();
    // The same into `reuse`, whose documents, columns and strings keep their capacity; false at a
    // clean end. On a throw `reuse` holds unspecified (valid) content.
    bool next(Container& reuse);
    // Same, but only checks (validate-only); false at a clean end. It checks the container in
    // arrival order: each section frame as its 5 bytes arrive, each section once its bytes have
    // arrived (held as they come, never more than has come: the string table and one other
    // section at a time), the CRC last. The first fault ends the reading, with the code and
    // offset decode() gives for it; the end of the input before any fault is stream.truncated.
    // So where next(), which holds the whole container first, says stream.truncated for a
    // stream cut after a fault, skip_next() reports that fault without waiting for the rest.
    bool skip_next();
    // The same, telling what the container held.
    struct Skipped {
        std::uint64_t tokens = 0;  // over its documents
        bool crc = false;
    };
    bool skip_next(Skipped& checked);

    // The containers as a range: `for (const ond::Container& c : reader)`, reusing one
    // container inside the reader, valid until the next step (keep one by copying it); each
    // step throws as next() does. begin() reads the first container only the first time; later
    // it starts at the container the range read last, so asking begin() == end() loses nothing.
    class iterator {
    public:
        using value_type = Container;
        using difference_type = std::ptrdiff_t;
        iterator() = default;
        explicit iterator(StreamReader* r) noexcept : r_(r) {}
        const Container& operator*() const noexcept { return r_->current_; }
        const Container* operator->() const noexcept { return &r_->current_; }
        iterator& operator++() {
            r_->range_more_ = false;  // a throw leaves the range finished
            r_->range_more_ = r_->next(r_->current_);
            return *this;
        }
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const noexcept { return !r_->range_more_; }

    private:
        StreamReader* r_ = nullptr;
    };
    iterator begin() {
        iterator it(this);
        if (!range_started_) {
            range_started_ = true;
            ++it;
        }
        return it;
    }
    std::default_sentinel_t end() const noexcept { return {}; }

    std::uint64_t containers_read() const noexcept { return count_; }
    std::uint64_t offset() const noexcept { return offset_; }  // bytes consumed so far

private:
    bool fill_container();  // reads one container's bytes into buf_; false at clean end
    void read_rest(std::uint64_t start, std::uint64_t total);  // the bytes after the header, into buf_
    ReadFn read_;
    std::vector<std::byte> buf_;
    std::vector<std::byte> table_buf_;    // skip_next: the string table's bytes
    std::vector<std::byte> section_buf_;  // skip_next: one other section's bytes
    std::uint64_t offset_ = 0;
    std::uint64_t count_ = 0;
    bool done_ = false;
    Skipped last_skipped_;  // what the last skip_next() checked
    Container current_;  // the range's container
    bool range_started_ = false;
    bool range_more_ = false;  // current_ holds the container the range read last
};

}  // namespace ond
