// The tokens section's varint fast paths over 16, 32 and 64 bytes (SSE4.1, AVX2, AVX-512F+BW),
// for x86-64 only. Each level's functions carry their own target attribute, so the library needs
// no special compiler flags and runs on any x86-64: varint_level.cpp calls a level only after
// the CPU has said it supports it. The code is shared (varint_bulk_wide.inc); only the few
// primitives that read a block differ.
#if defined(__x86_64__)

#include <immintrin.h>

#include <algorithm>

#include "varint_bulk.hpp"

namespace ond::detail::varint_bulk {

// ---- 16-byte chunks to values, for the SSE4.1 and AVX2 levels ----
// A varint ending at byte k of a chunk has the value of byte k, or, when it has 2 bytes, the
// low 7 bits of byte k - 1 with byte k's bits above them (R1). Those values are made for all 16
// bytes at once in 16-bit lanes, and the lanes of the varints' last bytes are moved to the
// front ("left-packed") with a shuffle from a table indexed by 8 bits of `term`.
namespace left_pack {
struct Table {
    std::uint8_t control[256][16];  // pshufb control: the 16-bit lanes of the set bits first, in order; zeros after
};
constexpr Table make_table() {
    Table t{};
    for (unsigned m = 0; m < 256; ++m) {
        unsigned out = 0;
        for (unsigned lane = 0; lane < 8; ++lane)
            if ((m >> lane) & 1u) {
                t.control[m][2 * out] = static_cast<std::uint8_t>(2 * lane);
                t.control[m][2 * out + 1] = static_cast<std::uint8_t>(2 * lane + 1);
                ++out;
            }
        for (; out < 8; ++out) t.control[m][2 * out] = t.control[m][2 * out + 1] = 0x80;
    }
    return t;
}
alignas(64) inline constexpr Table table = make_table();

#define OND_SSE41 __attribute__((target("sse4.1,popcnt")))
// The values of the varints ending at the set bits of `term` (bits 0-15; `two`: those of 2
// bytes) in the 16 bytes at p, stored from v; byte 15 of `before` is the byte before p (read
// when bit 0 of `two` is set). Each half stores 8 lanes at v + n: writes only inside v[0..16).
OND_SSE41 inline unsigned chunk(const std::uint8_t* p, unsigned term, unsigned two, __m128i before, std::uint32_t* v) noexcept {
    const __m128i cur = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i prev = _mm_alignr_epi8(cur, before, 15);  // byte k: p[k - 1]
    const __m128i spread = _mm_shuffle_epi8(_mm_cvtsi32_si128(static_cast<int>(two)),
                                            _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1));
    const __m128i bit = _mm_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
    const __m128i is_two = _mm_cmpeq_epi8(_mm_and_si128(spread, bit), bit);  // byte k: 0xFF when bit k of two
    const __m128i low7 = _mm_set1_epi16(0x7F);
    unsigned n = 0;
    for (unsigned half = 0; half < 2; ++half) {
        const unsigned t = (term >> (8 * half)) & 0xFFu;
        if (t == 0) continue;
        const __m128i c = _mm_cvtepu8_epi16(half ? _mm_srli_si128(cur, 8) : cur);
        const __m128i b = _mm_cvtepu8_epi16(half ? _mm_srli_si128(prev, 8) : prev);
        const __m128i m = _mm_cvtepi8_epi16(half ? _mm_srli_si128(is_two, 8) : is_two);
        const __m128i val = _mm_blendv_epi8(c, _mm_or_si128(_mm_and_si128(b, low7), _mm_slli_epi16(c, 7)), m);
        const __m128i packed = _mm_shuffle_epi8(val, _mm_load_si128(reinterpret_cast<const __m128i*>(table.control[t])));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(v + n), _mm_cvtepu16_epi32(packed));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(v + n + 4), _mm_cvtepu16_epi32(_mm_srli_si128(packed, 8)));
        n += static_cast<unsigned>(std::popcount(t));
    }
    return n;
}
// The "byte before" vector of a block's first chunk: p[-1] in byte 15, read only when the block
// starts on the second byte of a 2-byte varint, which the block loops allow only past the
// cursor's start.
OND_SSE41 inline __m128i before_block(const std::uint8_t* p, std::uint64_t two) noexcept {
    return (two & 1) ? _mm_slli_si128(_mm_cvtsi32_si128(p[-1]), 15) : _mm_setzero_si128();
}
// The values of an 8-byte Block (varint_bulk.hpp) into v[0..8): the same left-pack on 8 lanes.
// A Block starts on a varint boundary, so byte 0 never needs the byte before it.
OND_SSE41 inline void block_values(const Block& b, std::uint32_t* v) noexcept {
    const __m128i cur = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(b.w)));
    const __m128i prev = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(b.w << 8)));
    // Bytes 0x80 where `two` has its bits: sign-extended, each 16-bit lane is all-high-bits there.
    const __m128i m = _mm_cvtepi8_epi16(_mm_cvtsi64_si128(static_cast<long long>(b.two)));
    const __m128i val = _mm_blendv_epi8(cur, _mm_or_si128(_mm_and_si128(prev, _mm_set1_epi16(0x7F)), _mm_slli_epi16(cur, 7)), m);
    const auto t = static_cast<unsigned>(_mm_movemask_epi8(_mm_cvtsi64_si128(static_cast<long long>(b.term))));
    const __m128i packed = _mm_shuffle_epi8(val, _mm_load_si128(reinterpret_cast<const __m128i*>(table.control[t])));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(v), _mm_cvtepu16_epi32(packed));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(v + 4), _mm_cvtepu16_epi32(_mm_srli_si128(packed, 8)));
}
#undef OND_SSE41
}  // namespace left_pack

// The 8-byte (SWAR) paths with indexes' values taken by block_values: the tail of the wider levels.
namespace narrow {
#define OND_NARROW __attribute__((target("sse4.1,popcnt")))
using swar::spans;
struct TakeByShuffle {
    OND_NARROW void operator()(const Block& b, std::uint32_t* v, std::size_t room) const noexcept {
        if (room >= 8)
            left_pack::block_values(b, v);
        else
            b.values(v, nullptr);
    }
};
OND_NARROW inline std::size_t indexes(Cursor& c, std::uint32_t* out, std::size_t count, std::uint32_t limit) noexcept {
    return swar::indexes_with(c, out, count, limit, TakeByShuffle{});
}
OND_NARROW inline std::uint32_t heads(Cursor& c, std::int32_t* out, std::uint32_t first, std::uint32_t n) noexcept {
    return swar::heads_with(c, out, first, n, TakeByShuffle{});
}
#undef OND_NARROW
}  // namespace narrow

namespace sse41 {
#define OND_WIDE __attribute__((target("sse4.1,popcnt")))
inline constexpr unsigned W = 16;
namespace tail = narrow;  // runs shorter than 16 bytes or items, and the last bytes
OND_WIDE inline __m128i load(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
OND_WIDE inline std::uint64_t high_mask(const std::uint8_t* p) noexcept {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(load(p)));
}
OND_WIDE inline std::uint64_t ge_mask(const std::uint8_t* p, std::uint8_t t) noexcept {
    const __m128i v = load(p);  // max(v, t) == v: v >= t, unsigned
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(static_cast<char>(t))), v)));
}
#define OND_WIDE_OWN_EXTRACT 1
OND_WIDE inline unsigned extract(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t* v) noexcept {
    return left_pack::chunk(p, static_cast<unsigned>(term), static_cast<unsigned>(two), left_pack::before_block(p, two), v);
}
#include "varint_bulk_wide.inc"
#undef OND_WIDE_OWN_EXTRACT
#undef OND_WIDE
}  // namespace sse41

namespace avx2 {
#define OND_WIDE __attribute__((target("avx2,bmi,bmi2,popcnt")))
inline constexpr unsigned W = 32;
#define OND_WIDE_LAST_BLOCK 1  // its tail is the 8-byte path, slow on a small document's short runs
namespace tail = narrow;  // not sse41: on runs of 16-31 items it measured slower than 8-byte blocks
OND_WIDE inline __m256i load(const std::uint8_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
OND_WIDE inline std::uint64_t high_mask(const std::uint8_t* p) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(load(p)));
}
OND_WIDE inline std::uint64_t ge_mask(const std::uint8_t* p, std::uint8_t t) noexcept {
    const __m256i v = load(p);
    return static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(static_cast<char>(t))), v)));
}
// span_sums as at avx512 (see there), with the masks widened to bytes by hand.
#define OND_WIDE_SPAN_SUMS 1
OND_WIDE inline __m256i byte_mask(std::uint32_t m) noexcept {  // byte k: 0xFF when bit k of m is set
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(m)),
                                               _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2,
                                                                2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
    return _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
}
OND_WIDE inline std::uint64_t eq_mask(__m256i v, std::uint8_t b) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(static_cast<char>(b)))));
}
OND_WIDE inline std::uint64_t sum64(__m256i v) noexcept {
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) + static_cast<std::uint64_t>(_mm_extract_epi64(s, 1));
}
OND_WIDE inline bool span_sums(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint64_t& sum) noexcept {
    const __m256i v = load(p);
    const std::uint64_t lengths = _pdep_u64(0xAAAAAAAAAAAAAAAAull, term);  // every second varint
    if (lengths & eq_mask(v, 0) & (~two | (eq_mask(v, 0x80) << 1))) return false;  // 00, or 80 00 (R1 overlong)
    const unsigned used = 64u - static_cast<unsigned>(std::countl_zero(term));  // <= 32
    const auto used_bytes = static_cast<std::uint32_t>((std::uint64_t{1} << used) - 1);
    const __m256i z = _mm256_setzero_si256();
    const __m256i low = _mm256_and_si256(_mm256_and_si256(v, _mm256_set1_epi8(0x7F)), byte_mask(used_bytes));
    const __m256i high = _mm256_and_si256(v, byte_mask(static_cast<std::uint32_t>(two & term)));
    sum = sum64(_mm256_sad_epu8(low, z)) + 127u * sum64(_mm256_sad_epu8(high, z));
    return true;
}
// Two 16-byte chunks; the second's first store is at v + n with n <= 16: inside v[0..32).
#define OND_WIDE_OWN_EXTRACT 1
OND_WIDE inline unsigned extract(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t* v) noexcept {
    unsigned n = left_pack::chunk(p, static_cast<unsigned>(term & 0xFFFFu), static_cast<unsigned>(two & 0xFFFFu),
                                  left_pack::before_block(p, two), v);
    if (term >> 16)
        n += left_pack::chunk(p + 16, static_cast<unsigned>(term >> 16), static_cast<unsigned>(two >> 16),
                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), v + n);
    return n;
}
#include "varint_bulk_wide.inc"
#undef OND_WIDE_OWN_EXTRACT
#undef OND_WIDE_SPAN_SUMS
#undef OND_WIDE_LAST_BLOCK
#undef OND_WIDE
}  // namespace avx2

// g++-12's AVX-512 intrinsics start some results from _mm512_undefined_epi32(), which its
// -Wmaybe-uninitialized reports once inlined (a false positive).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
namespace avx512 {
#define OND_WIDE __attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt")))
inline constexpr unsigned W = 64;
namespace tail = avx2;  // runs of 32 to 63 items (small documents) still get 32-byte blocks
OND_WIDE inline __m512i load(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
OND_WIDE inline std::uint64_t high_mask(const std::uint8_t* p) noexcept { return _mm512_movepi8_mask(load(p)); }
OND_WIDE inline std::uint64_t ge_mask(const std::uint8_t* p, std::uint8_t t) noexcept {
    return _mm512_cmpge_epu8_mask(load(p), _mm512_set1_epi8(static_cast<char>(t)));
}
// The lanes of one 16-byte chunk: the value of a varint ending at each byte (R1; a 2-byte
// varint's second byte holds bits 7-13, and its high bit is clear). `prev`: the previous chunk.
OND_WIDE inline __m512i chunk_values(__m512i cur, __m512i prev, __mmask16 two) noexcept {
    const __m512i low7 = _mm512_set1_epi32(0x7F);
    const __m512i before = _mm512_alignr_epi32(cur, prev, 15);  // lane k: byte k - 1
    return _mm512_mask_or_epi32(_mm512_and_si512(cur, low7), two, _mm512_slli_epi32(cur, 7), _mm512_and_si512(before, low7));
}
OND_WIDE inline __m512i chunk_bytes(const std::uint8_t* p, unsigned chunk) noexcept {
    return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * chunk)));
}
// Lane 15 of the "previous chunk" of the first: the byte before the block, read only when the
// block starts on the second byte of a 2-byte varint (bit 0 of `two`), which the block loops
// allow only past the cursor's start.
OND_WIDE inline __m512i before_block(const std::uint8_t* p, std::uint64_t two) noexcept {
    return _mm512_set1_epi32((two & 1) ? p[-1] : 0);
}

// 16 bytes at a time widened to 32-bit lanes; a compress keeps the lanes of `term`. Each store is
// 16 lanes at v + n with n <= 16 * chunk, so it stays inside v[0..64).
OND_WIDE inline unsigned extract(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t* v) noexcept {
    __m512i prev = before_block(p, two);
    unsigned n = 0;
    for (unsigned chunk = 0; chunk < 4 && (term >> (16 * chunk)) != 0; ++chunk) {
        const __m512i cur = chunk_bytes(p, chunk);
        const auto t = static_cast<__mmask16>(term >> (16 * chunk));
        const __m512i val = chunk_values(cur, prev, static_cast<__mmask16>(two >> (16 * chunk)));
        _mm512_storeu_si512(v + n, _mm512_maskz_compress_epi32(t, val));
        n += static_cast<unsigned>(std::popcount(static_cast<unsigned>(t)));
        prev = cur;
    }
    return n;
}

// heads_block of the other levels, 16 heads at a time: compress, zig-zag (R2), add the token
// index, compare unsigned with n (R19; exact as n <= max_tokens < 2^31); masked stores only.
OND_WIDE inline unsigned heads_block(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t base,
                                     std::uint32_t n, std::int32_t* out) noexcept {
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i one = _mm512_set1_epi32(1), limit = _mm512_set1_epi32(static_cast<int>(n));
    __m512i prev = before_block(p, two);
    unsigned w = 0;
    for (unsigned chunk = 0; chunk < 4 && (term >> (16 * chunk)) != 0; ++chunk) {
        const __m512i cur = chunk_bytes(p, chunk);
        const auto t = static_cast<__mmask16>(term >> (16 * chunk));
        const __m512i u = _mm512_maskz_compress_epi32(t, chunk_values(cur, prev, static_cast<__mmask16>(two >> (16 * chunk))));
        const __m512i delta = _mm512_xor_si512(_mm512_srli_epi32(u, 1), _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_and_si512(u, one)));
        const __m512i head = _mm512_add_epi32(_mm512_add_epi32(delta, iota), _mm512_set1_epi32(static_cast<int>(base + w)));
        const unsigned cnt = static_cast<unsigned>(std::popcount(static_cast<unsigned>(t)));
        const auto lanes = static_cast<__mmask16>((1u << cnt) - 1);
        const auto bad = static_cast<__mmask16>(_mm512_cmpge_epu32_mask(head, limit) & lanes);
        const auto good = static_cast<__mmask16>(bad ? lanes & ((1u << std::countr_zero(static_cast<unsigned>(bad))) - 1) : lanes);
        if (out) _mm512_mask_storeu_epi32(out + w, good, head);
        if (bad) return w + static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(bad)));
        w += cnt;
        prev = cur;
    }
    return w;
}

// For validation (also at avx2): the spans of `term` (whole pairs, from a gap) all have a length above 0 (R18),
// and `sum` is the sum of all their values, so the last end is prev_end + sum (ends only grow).
// A value is lo + 128 * hi = lo + hi + 127 * hi, so sum = the low 7 bits of every byte used plus
// 127 times each second byte.
#define OND_WIDE_SPAN_SUMS 1
OND_WIDE inline bool span_sums(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint64_t& sum) noexcept {
    const __m512i v = load(p);
    const std::uint64_t lengths = _pdep_u64(0xAAAAAAAAAAAAAAAAull, term);  // every second varint
    const std::uint64_t zero = _mm512_cmpeq_epi8_mask(v, _mm512_setzero_si512()) &
                               (~two | (_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(0x80))) << 1));
    if (lengths & zero) return false;  // 00, or 80 00 (R1 overlong)
    const unsigned used = 64u - static_cast<unsigned>(std::countl_zero(term));
    const std::uint64_t used_bytes = used == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << used) - 1;
    const __m512i z = _mm512_setzero_si512();
    const __m512i low = _mm512_sad_epu8(_mm512_maskz_mov_epi8(used_bytes, _mm512_and_si512(v, _mm512_set1_epi8(0x7F))), z);
    const __m512i high = _mm512_sad_epu8(_mm512_maskz_mov_epi8(two & term, v), z);  // not a dropped varint's
    sum = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(low)) + 127u * static_cast<std::uint64_t>(_mm512_reduce_add_epi64(high));
    return true;
}

// For decoding: the spans of `term` (whole pairs, from a gap) when all of them are valid (R18:
// no length 0, the last end within the text; ends only grow): their starts and lengths stored
// from start[0] and length[0], prev_end moved to the last end, and the number of spans returned;
// otherwise 0 (and maybe some stores, which the caller's loop then writes again). The starts are
// prev_end plus prefix sums of the values, 16 lanes at a time in log steps.
#define OND_WIDE_SPAN_DECODE 1
#define OND_WIDE_OWN_EXTRACT 1
#define OND_WIDE_OWN_HEADS 1
OND_WIDE inline unsigned span_block(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint64_t& prev_end,
                                    std::uint32_t text_length, std::uint32_t* start, std::uint32_t* length) noexcept {
    alignas(64) std::uint32_t v[64];
    alignas(64) std::uint32_t sums[64];
    const unsigned m = extract(p, term, two, v);  // even
    const __m512i z = _mm512_setzero_si512();
    __m512i carry = z;  // the sum of the chunks before, in every lane
    for (unsigned c = 0; 16 * c < m; ++c) {
        const unsigned left = m - 16 * c;
        const auto lanes = static_cast<__mmask16>(left >= 16 ? 0xFFFFu : (1u << left) - 1);
        __m512i x = _mm512_maskz_loadu_epi32(lanes, v + 16 * c);
        if (_mm512_mask_cmpeq_epi32_mask(static_cast<__mmask16>(lanes & 0xAAAAu), x, z)) return 0;  // a length 0
        x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, z, 15));  // + lane j - 1
        x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, z, 14));  // + lanes j - 2, j - 3
        x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, z, 12));
        x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, z, 8));
        x = _mm512_add_epi32(x, carry);
        _mm512_store_si512(sums + 16 * c, x);
        carry = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), x);
    }
    const std::uint32_t total = sums[m - 1];  // at most 64 * 16383: no wrap
    if (prev_end + total > text_length) return 0;
    // Every end is at most text_length < 2^32 now, so 32-bit lanes hold the starts.
    const __m512i base = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(prev_end)));
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    const unsigned pairs = m / 2;
    for (unsigned g = 0; 16 * g < pairs; ++g) {
        const unsigned left = pairs - 16 * g;
        const auto lanes = static_cast<__mmask16>(left >= 16 ? 0xFFFFu : (1u << left) - 1);
        const auto lo = static_cast<__mmask16>(2 * left >= 16 ? 0xFFFFu : (1u << (2 * left)) - 1);  // only values written
        const auto hi = static_cast<__mmask16>(2 * left >= 32 ? 0xFFFFu : 2 * left <= 16 ? 0u : (1u << (2 * left - 16)) - 1);
        const __m512i s_lo = _mm512_maskz_loadu_epi32(lo, sums + 32 * g), s_hi = _mm512_maskz_loadu_epi32(hi, sums + 32 * g + 16);
        const __m512i v_lo = _mm512_maskz_loadu_epi32(lo, v + 32 * g), v_hi = _mm512_maskz_loadu_epi32(hi, v + 32 * g + 16);
        // Start k: prev_end + the sums up to and including gap k (value 2k).
        _mm512_mask_storeu_epi32(start + 16 * g, lanes, _mm512_add_epi32(base, _mm512_permutex2var_epi32(s_lo, even, s_hi)));
        _mm512_mask_storeu_epi32(length + 16 * g, lanes, _mm512_permutex2var_epi32(v_lo, odd, v_hi));
    }
    prev_end += total;
    return pairs;
}
#include "varint_bulk_wide.inc"
#undef OND_WIDE_OWN_EXTRACT
#undef OND_WIDE_OWN_HEADS
#undef OND_WIDE_SPAN_DECODE
#undef OND_WIDE_SPAN_SUMS
#undef OND_WIDE
}  // namespace avx512
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace ond::detail::varint_bulk

namespace ond::detail {

extern const VarintKernels varint_kernels_sse41 = {VarintLevel::sse41, &varint_bulk::sse41::indexes,
                                                   &varint_bulk::sse41::spans, &varint_bulk::sse41::heads};
extern const VarintKernels varint_kernels_avx2 = {VarintLevel::avx2, &varint_bulk::avx2::indexes,
                                                  &varint_bulk::avx2::spans, &varint_bulk::avx2::heads};
extern const VarintKernels varint_kernels_avx512 = {VarintLevel::avx512, &varint_bulk::avx512::indexes,
                                                    &varint_bulk::avx512::spans, &varint_bulk::avx512::heads};

}  // namespace ond::detail

#endif  // __x86_64__
