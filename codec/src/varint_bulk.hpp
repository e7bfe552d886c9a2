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
// Here the work is done 8 bytes at a time (SWAR): the high bits of a 64-bit load say which bytes
// end a varint, so a block's varints are found without the byte-after-byte dependency of LEB128.
// Loads never pass the cursor's end. Little-endian host (see header.cpp). This is the `scalar`
// level and the reference for the wider ones (varint_bulk_x86.cpp), which keep the same
// contract; tokens.cpp calls whichever varint_level.hpp chose.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "ond/internal/cursor.hpp"
#include "ond/internal/varint_level.hpp"

namespace ond::detail::varint_bulk {

inline constexpr std::uint64_t high_bits = 0x8080808080808080ull;
inline constexpr std::uint64_t low_bits = 0x7F7F7F7F7F7F7F7Full;
inline constexpr std::uint64_t ones = 0x0101010101010101ull;

inline std::uint64_t load64(const std::uint8_t* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

// One 8-byte block that starts on a varint boundary.
struct Block {
    std::uint64_t w;     // the bytes
    std::uint64_t cont;  // high bit of each byte that has its continuation bit set
    std::uint64_t term;  // high bit of each byte that ends a 1- or 2-byte varint of the block
    std::uint64_t two;   // the subset of `term` that ends a 2-byte varint

    explicit Block(std::uint64_t bytes) noexcept : w(bytes), cont(bytes & high_bits) {
        term = ~bytes & high_bits;
        // Two continuation bytes in a row: a varint of 3 or more bytes starts at the first of
        // them (the lowest such pair: the byte before it is not a continuation). Keep only the
        // varints that end before it.
        if (const std::uint64_t run = cont & (cont << 8)) {
            const unsigned start = static_cast<unsigned>(std::countr_zero(run) >> 3) - 1;
            term &= start == 0 ? 0 : ~std::uint64_t{0} >> (64 - 8 * start);
        }
        two = term & (cont << 8);
    }
    unsigned count() const noexcept { return static_cast<unsigned>(std::popcount(term)); }
    // Bytes up to and including the last varint of the block (count() > 0).
    unsigned used() const noexcept { return static_cast<unsigned>((63 - std::countl_zero(term)) >> 3) + 1; }
    // Bytes up to and including the k-th varint (1 <= k <= count()).
    unsigned used_by(unsigned k) const noexcept {
        std::uint64_t t = term;
        for (unsigned r = 1; r < k; ++r) t &= t - 1;
        return static_cast<unsigned>(std::countr_zero(t) >> 3) + 1;
    }
    // Every value <= limit? Exact for values below 128 and for 2-byte values whose high byte is
    // below limit >> 7; a value it cannot vouch for makes it answer false.
    bool all_at_most(std::uint32_t limit) const noexcept {
        const std::uint64_t lo = w & low_bits;
        if (limit < 0x7F && ((lo + (0x7F - limit) * ones) & (term & ~two))) return false;
        if (limit < 0x3FFF && two) {
            const std::uint64_t h = limit >> 7;  // a 2-byte value is below limit if its high byte is below h
            if ((lo + (0x80 - h) * ones) & two) return false;
        }
        return true;
    }
    // The values, in order, with the byte offset just past each. Returns count().
    unsigned values(std::uint32_t* value, std::uint8_t* end) const noexcept {
        unsigned n = 0;
        const std::uint64_t prev = w << 8;  // byte k - 1 moved to byte k
        for (std::uint64_t t = term; t; t &= t - 1, ++n) {
            const unsigned bit = static_cast<unsigned>(std::countr_zero(t));  // 8k + 7
            const auto lo = static_cast<std::uint32_t>((w >> (bit - 7)) & 0x7F);
            const auto hi = static_cast<std::uint32_t>((prev >> (bit - 7)) & 0x7F);
            const std::uint32_t is_two = static_cast<std::uint32_t>(two >> bit) & 1u;
            // A 2-byte varint: the byte before holds the low 7 bits, this one the high 7.
            // (Branch-free: 1- and 2-byte varints alternate unpredictably.)
            value[n] = (lo << (7 * is_two)) | (hi & (0u - is_two));
            if (end) end[n] = static_cast<std::uint8_t>((bit >> 3) + 1);
        }
        return n;
    }
};

// The varint (1 or 2 bytes) at the bottom of `w`: its value and byte count, or false when it
// has 3 or more bytes.
inline bool short_varint(std::uint64_t w, std::uint32_t& value, std::uint32_t& size) noexcept {
    const auto b0 = static_cast<std::uint32_t>(w & 0xFF);
    const auto b1 = static_cast<std::uint32_t>((w >> 8) & 0xFF);
    if (b0 & b1 & 0x80) return false;
    const std::uint32_t two = b0 >> 7;
    value = (b0 & 0x7F) | ((b1 << 7) & (0u - two));
    size = 1 + two;
    return true;
}

namespace swar {

// A block's values into v: Block::values, one at a time. `room`: how many v may take (>= the
// block's count); a wider taker (varint_bulk_x86.cpp) stores 8 when there is room for them.
struct TakeValues {
    void operator()(const Block& b, std::uint32_t* v, std::size_t /*room*/) const noexcept { b.values(v, nullptr); }
};

// String indexes: up to `count` values, each <= `limit`, into out[0..) when out is not null,
// each block's values taken by `take`.
template <class Take>
inline std::size_t indexes_with(Cursor& c, std::uint32_t* out, std::size_t count, std::uint32_t limit, Take take) noexcept {
    const std::uint8_t* const begin = c.here();
    const std::uint8_t* const end = begin + c.remaining();
    const std::uint8_t* p = begin;
    std::size_t i = 0;
    while (i < count && end - p >= 8) {
        const Block b(load64(p));
        const unsigned n = b.count();
        if (n > 0 && n <= count - i && b.all_at_most(limit)) {
            if (out) take(b, out + i, count - i);
            p += b.used();
            i += n;
            continue;
        }
        std::uint32_t v, size;  // one at a time: near the column's end, or a value to check exactly
        if (!short_varint(b.w, v, size) || v > limit) break;
        if (out) out[i] = v;
        p += size;
        ++i;
    }
    c.skip(static_cast<std::size_t>(p - begin));
    return i;
}
inline std::size_t indexes(Cursor& c, std::uint32_t* out, std::size_t count, std::uint32_t limit) noexcept {
    return indexes_with(c, out, count, limit, TakeValues{});
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
    std::uint32_t v[8];
    std::uint8_t e[8];
    while (i < count && end - p >= 8) {
        const Block b(load64(p));
        const unsigned pairs = std::min(b.values(v, e) / 2, count - i);
        unsigned k = 0;
        for (; k < pairs; ++k) {
            const std::uint32_t gap = v[2 * k], len = v[2 * k + 1];
            const std::uint64_t s = pe + gap, f = s + len;
            if (len == 0 || f > text_length) break;
            if (start) {
                start[i + k] = static_cast<std::uint32_t>(s);
                length[i + k] = len;
            }
            pe = f;
        }
        i += k;
        if (k == 0) break;
        p += e[2 * k - 1];
        if (k < pairs) break;  // stopped at a pair the simple path must see
    }
    prev_end = pe;
    c.skip(static_cast<std::size_t>(p - begin));
    return i;
}

// Heads from token `first` on: zig-zag deltas whose head i + delta lies in [0, n), each
// block's values taken by `take` (into 8 slots).
template <class Take>
inline std::uint32_t heads_with(Cursor& c, std::int32_t* out, std::uint32_t first, std::uint32_t n, Take take) noexcept {
    const std::uint8_t* const begin = c.here();
    const std::uint8_t* const end = begin + c.remaining();
    const std::uint8_t* p = begin;
    std::uint32_t i = first;
    std::uint32_t v[8];
    while (i < n && end - p >= 8) {
        const Block b(load64(p));
        take(b, v, 8);
        const unsigned m = std::min(b.count(), n - i);
        unsigned k = 0;
        for (; k < m; ++k) {
            const std::int64_t delta = static_cast<std::int32_t>((v[k] >> 1) ^ (0u - (v[k] & 1)));
            const std::int64_t head = static_cast<std::int64_t>(i + k) + delta;
            if (head < 0 || head >= static_cast<std::int64_t>(n)) break;
            if (out) out[i + k] = static_cast<std::int32_t>(head);
        }
        i += k;
        if (k == 0) break;
        p += k == b.count() ? b.used() : b.used_by(k);
        if (k < m) break;
    }
    c.skip(static_cast<std::size_t>(p - begin));
    return i;
}
inline std::uint32_t heads(Cursor& c, std::int32_t* out, std::uint32_t first, std::uint32_t n) noexcept {
    return heads_with(c, out, first, n, TakeValues{});
}

}  // namespace swar

// The fast paths of `k` (tokens.cpp). The scalar level is called directly, so that it is inlined
// as before there were levels (a null `out` of ValidateMode then folds away).
inline std::size_t indexes(const VarintKernels& k, Cursor& c, std::uint32_t* out, std::size_t count, std::uint32_t limit) noexcept {
    return k.level == VarintLevel::scalar ? swar::indexes(c, out, count, limit) : k.indexes(c, out, count, limit);
}
inline std::uint32_t spans(const VarintKernels& k, Cursor& c, std::uint32_t* start, std::uint32_t* length, std::uint32_t first,
                           std::uint32_t count, std::uint64_t& prev_end, std::uint32_t text_length) noexcept {
    return k.level == VarintLevel::scalar ? swar::spans(c, start, length, first, count, prev_end, text_length)
                                          : k.spans(c, start, length, first, count, prev_end, text_length);
}
inline std::uint32_t heads(const VarintKernels& k, Cursor& c, std::int32_t* out, std::uint32_t first, std::uint32_t n) noexcept {
    return k.level == VarintLevel::scalar ? swar::heads(c, out, first, n) : k.heads(c, out, first, n);
}

}  // namespace ond::detail::varint_bulk
