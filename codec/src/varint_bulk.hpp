// Fast paths for the runs of varints in the tokens section (internal header).
//
// Each function decodes only the common, valid case straight from memory: varints of one or two
// bytes, at least 8 bytes before the end of the cursor, whose values pass the caller's check.
// It stops, without consuming it, at the first varint it cannot take that way (three bytes or
// more, too near the end, or a value the check refuses), and returns how many it took. The caller
// then reads that varint through Cursor::varint() and its own checks, which raise exactly the
// error (code and offset) the simple path raises. A fast path therefore never decides a verdict:
// it only skips ahead over input the simple path would accept with the same values.
//
// Loads are 8 bytes wide and never pass the cursor's end. Little-endian host (see header.cpp).
#pragma once

#include <cstdint>
#include <cstring>

#include "cursor.hpp"

namespace ond::detail::varint_bulk {

inline constexpr std::uint64_t high_bits = 0x8080808080808080ull;

inline std::uint64_t load64(const std::uint8_t* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

// The varint (1 or 2 bytes) at the bottom of `w`: its value and byte count, or false when it
// has 3 or more bytes. Branch-free for the 1/2-byte mix of string indexes.
inline bool short_varint(std::uint64_t w, std::uint32_t& value, std::uint32_t& size) noexcept {
    const auto b0 = static_cast<std::uint32_t>(w & 0xFF);
    const auto b1 = static_cast<std::uint32_t>((w >> 8) & 0xFF);
    if (b0 & b1 & 0x80) return false;
    const std::uint32_t two = b0 >> 7;
    value = (b0 & 0x7F) | ((b1 << 7) & (0u - two));
    size = 1 + two;
    return true;
}

// String indexes: up to `count` values, each <= `limit`, into out[0..) when out is not null.
inline std::size_t indexes(Cursor& c, std::uint32_t* out, std::size_t count, std::uint32_t limit) noexcept {
    const std::uint8_t* const begin = c.here();
    const std::uint8_t* const end = begin + c.remaining();
    const std::uint8_t* p = begin;
    // Adding (0x7F - limit) to each byte of a run of 1-byte varints sets a byte's high bit exactly
    // when that byte exceeds the limit (no carries: 0x7F + 0x7F < 0x100).
    const std::uint64_t over = limit >= 0x7F ? 0 : (0x7F - limit) * 0x0101010101010101ull;
    std::size_t i = 0;
    while (i < count && end - p >= 8) {
        const std::uint64_t w = load64(p);
        if ((w & high_bits) == 0 && count - i >= 8 && ((w + over) & high_bits) == 0) {
            if (out)
                for (int k = 0; k < 8; ++k) out[i + k] = static_cast<std::uint32_t>((w >> (8 * k)) & 0xFF);
            p += 8;
            i += 8;
            continue;
        }
        std::uint32_t v, size;
        if (!short_varint(w, v, size) || v > limit) break;
        if (out) out[i] = v;
        p += size;
        ++i;
    }
    c.skip(static_cast<std::size_t>(p - begin));
    return i;
}

// Token spans from token `first` on: (gap, length) pairs, each length >= 1 and each end within
// `text_length`. `prev_end` is the previous token's end and is updated.
inline std::uint32_t spans(Cursor& c, std::uint32_t* start, std::uint32_t* length, std::uint32_t first,
                           std::uint32_t count, std::uint64_t& prev_end, std::uint32_t text_length) noexcept {
    const std::uint8_t* const begin = c.here();
    const std::uint8_t* const end = begin + c.remaining();
    const std::uint8_t* p = begin;
    std::uint64_t pe = prev_end;
    std::uint32_t i = first;
    while (i < count && end - p >= 8) {
        const std::uint64_t w = load64(p);
        std::uint32_t gap, gsize, len, lsize;
        if (!short_varint(w, gap, gsize) || !short_varint(w >> (8 * gsize), len, lsize)) break;
        const std::uint64_t s = pe + gap;
        const std::uint64_t e = s + len;
        if (len == 0 || e > text_length) break;
        if (start) {
            start[i] = static_cast<std::uint32_t>(s);
            length[i] = len;
        }
        pe = e;
        p += gsize + lsize;
        ++i;
    }
    prev_end = pe;
    c.skip(static_cast<std::size_t>(p - begin));
    return i;
}

// Heads from token `first` on: zig-zag deltas whose head i + delta lies in [0, n).
inline std::uint32_t heads(Cursor& c, std::int32_t* out, std::uint32_t first, std::uint32_t n) noexcept {
    const std::uint8_t* const begin = c.here();
    const std::uint8_t* const end = begin + c.remaining();
    const std::uint8_t* p = begin;
    std::uint32_t i = first;
    while (i < n && end - p >= 8) {
        std::uint32_t u, size;
        if (!short_varint(load64(p), u, size)) break;
        const std::int64_t delta = static_cast<std::int32_t>((u >> 1) ^ (0u - (u & 1)));
        const std::int64_t head = static_cast<std::int64_t>(i) + delta;
        if (head < 0 || head >= static_cast<std::int64_t>(n)) break;
        if (out) out[i] = static_cast<std::int32_t>(head);
        p += size;
        ++i;
    }
    c.skip(static_cast<std::size_t>(p - begin));
    return i;
}

}  // namespace ond::detail::varint_bulk
