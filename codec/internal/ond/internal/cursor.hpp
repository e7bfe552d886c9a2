// A bounded cursor: every read of the codec goes through one, and every read checks its bounds.
// Internal header (not installed); the fuzz harnesses and tests include it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "ond/internal/check_switch.hpp"
#include "ond/internal/fault.hpp"
#include "ond/error.hpp"
#include "ond/reader.hpp"

namespace ond::detail {

// Raises ond::Error(e, offset, detail) (fault.hpp): check sites `return fail(...)`.
OND_NORETURN_IF_THROWING Bail fail(Errc e, std::uint64_t offset, std::string detail);

// A count and its noun, for messages: "1 byte", "2 bytes".
std::string count_of(std::uint64_t n, const char* one, const char* many);

// Without exceptions (fault.hpp), a read past the end raises field.truncated, moves the cursor
// to its end and returns 0 (bytes(): a pointer its caller must not read before OND_BAIL).
class Cursor {
public:
    Cursor() noexcept : Cursor(Bytes{}) {}
    // `origin` is the absolute offset of data[0] (non-zero for a container inside a stream).
    Cursor(Bytes data, std::uint64_t origin = 0) noexcept
        : base_(reinterpret_cast<const std::uint8_t*>(data.data())), pos_(0), end_(data.size()),
          origin_(origin) {}

    std::size_t remaining() const noexcept { return end_ - pos_; }
    bool empty() const noexcept { return pos_ == end_; }
    std::uint64_t offset() const noexcept { return origin_ + pos_; }  // absolute
    std::uint64_t end_offset() const noexcept { return origin_ + end_; }
    const std::uint8_t* here() const noexcept { return base_ + pos_; }
    std::uint64_t origin() const noexcept { return origin_; }

    // A child cursor over the next n bytes; the caller has checked n <= remaining().
    Cursor sub(std::size_t n) noexcept {
        Cursor c(*this);
        c.end_ = pos_ + n;
        pos_ += n;
        return c;
    }
    void skip(std::size_t n) noexcept { pos_ += n; }

    std::uint8_t u8() {
        if (!need(1)) [[unlikely]] return 0;
        return base_[pos_++];
    }
    std::uint16_t u16() {
        if (!need(2)) [[unlikely]] return 0;
        std::uint16_t v = static_cast<std::uint16_t>(base_[pos_] | (base_[pos_ + 1] << 8));
        pos_ += 2;
        return v;
    }
    std::uint32_t u32() {
        if (!need(4)) [[unlikely]] return 0;
        std::uint32_t v = load_u32(base_ + pos_);
        pos_ += 4;
        return v;
    }
    float f32() {
        std::uint32_t bits = u32();
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    const std::uint8_t* bytes(std::size_t n) {
        if (!need(n)) [[unlikely]] return base_ + pos_;
        const std::uint8_t* p = base_ + pos_;
        pos_ += n;
        return p;
    }

    // LEB128, at most 5 bytes and 32 bits (R1).
    std::uint32_t varint() {
        // The common 1- and 2-byte cases inline; everything else (and every error) out of line.
        if (end_ - pos_ >= 2) [[likely]] {
            const std::uint32_t b0 = base_[pos_];
            if (b0 < 0x80) {
                ++pos_;
                return b0;
            }
            const std::uint32_t b1 = base_[pos_ + 1];
            if (b1 < 0x80) {
                pos_ += 2;
                return (b0 & 0x7F) | (b1 << 7);
            }
        }
        return varint_slow();
    }
    // Zig-zag (R2).
    std::int32_t svarint() {
        std::uint32_t u = varint();
        return static_cast<std::int32_t>((u >> 1) ^ (~(u & 1) + 1));
    }

    static std::uint32_t load_u32(const std::uint8_t* p) noexcept {
        return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
               (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
    }

private:
    // True when n bytes remain; otherwise raises field.truncated (and, without exceptions,
    // moves to the end and returns false).
    bool need(std::size_t n) {
        if (n > end_ - pos_) [[unlikely]] {
            (void)fail(Errc::field_truncated, offset(),
                       "a " + std::to_string(n) + "-byte field needs more than the " +
                           detail::count_of(end_ - pos_, "byte", "bytes") + " left in its section");
            pos_ = end_;
            return false;
        }
        return true;
    }
    std::uint32_t varint_slow();

    const std::uint8_t* base_;
    std::size_t pos_;
    std::size_t end_;
    std::uint64_t origin_;
};

}  // namespace ond::detail
