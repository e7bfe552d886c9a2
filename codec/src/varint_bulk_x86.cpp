// The tokens section's varint fast paths over 16, 32 and 64 bytes (SSE4.1, AVX2, AVX-512F+BW),
// for x86-64 only. Each level's functions carry their own target attribute, so the library needs
// no special compiler flags and runs on any x86-64: varint_level.cpp calls a level only after
// the CPU has said it supports it. The code is shared (varint_bulk_wide.inc); only the few
// primitives that read a block differ.
#if defined(__x86_64__)

#include <immintrin.h>

#include "varint_bulk.hpp"

namespace ond::detail::varint_bulk {

namespace sse41 {
#define OND_WIDE __attribute__((target("sse4.1,popcnt")))
inline constexpr unsigned W = 16;
OND_WIDE inline __m128i load(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
OND_WIDE inline std::uint64_t high_mask(const std::uint8_t* p) noexcept {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(load(p)));
}
OND_WIDE inline std::uint64_t ge_mask(const std::uint8_t* p, std::uint8_t t) noexcept {
    const __m128i v = load(p);  // max(v, t) == v: v >= t, unsigned
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(static_cast<char>(t))), v)));
}
// One value at a time from the masks: no byte-after-byte dependency, but no vector either. Bit 0
// of `two` may be set: the block then starts on the second byte of a 2-byte varint (p[-1]).
OND_WIDE inline unsigned extract(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t* v) noexcept {
    unsigned n = 0;
    for (; term; term &= term - 1, ++n) {
        const unsigned k = static_cast<unsigned>(std::countr_zero(term));
        const std::uint32_t is_two = static_cast<std::uint32_t>(two >> k) & 1u;
        // A 2-byte varint: byte k - 1 holds the low 7 bits, byte k the high 7 (R1).
        v[n] = (p[static_cast<std::ptrdiff_t>(k) - is_two] & 0x7Fu) | ((std::uint32_t{p[k]} << 7) & (0u - is_two));
    }
    return n;
}
#include "varint_bulk_wide.inc"
#undef OND_WIDE
}  // namespace sse41

namespace avx2 {
#define OND_WIDE __attribute__((target("avx2,bmi,bmi2,popcnt")))
inline constexpr unsigned W = 32;
OND_WIDE inline __m256i load(const std::uint8_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
OND_WIDE inline std::uint64_t high_mask(const std::uint8_t* p) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(load(p)));
}
OND_WIDE inline std::uint64_t ge_mask(const std::uint8_t* p, std::uint8_t t) noexcept {
    const __m256i v = load(p);
    return static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(static_cast<char>(t))), v)));
}
OND_WIDE inline unsigned extract(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t* v) noexcept {
    unsigned n = 0;
    for (; term; term &= term - 1, ++n) {
        const unsigned k = static_cast<unsigned>(std::countr_zero(term));
        const std::uint32_t is_two = static_cast<std::uint32_t>(two >> k) & 1u;
        v[n] = (p[static_cast<std::ptrdiff_t>(k) - is_two] & 0x7Fu) | ((std::uint32_t{p[k]} << 7) & (0u - is_two));
    }
    return n;
}
#include "varint_bulk_wide.inc"
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
OND_WIDE inline __m512i load(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
OND_WIDE inline std::uint64_t high_mask(const std::uint8_t* p) noexcept { return _mm512_movepi8_mask(load(p)); }
OND_WIDE inline std::uint64_t ge_mask(const std::uint8_t* p, std::uint8_t t) noexcept {
    return _mm512_cmpge_epu8_mask(load(p), _mm512_set1_epi8(static_cast<char>(t)));
}
// 16 bytes at a time widened to 32-bit lanes: each lane computes the value of a varint ending
// there, and a compress keeps the lanes of `term`. Each store is 16 lanes at v + n with
// n <= 16 * chunk, so it stays inside v[0..64). Bit 0 of `two` may be set: the block then starts
// on the second byte of a 2-byte varint whose first byte is p[-1].
OND_WIDE inline unsigned extract(const std::uint8_t* p, std::uint64_t term, std::uint64_t two, std::uint32_t* v) noexcept {
    const __m512i low7 = _mm512_set1_epi32(0x7F);
    // Lane 15 of `prev` is the byte before the block: read only when the block starts inside a
    // 2-byte varint (bit 0 of `two`), which the block loops allow only past the cursor's start.
    __m512i prev = _mm512_set1_epi32((two & 1) ? p[-1] : 0);
    unsigned n = 0;
    for (unsigned chunk = 0; chunk < 4 && (term >> (16 * chunk)) != 0; ++chunk) {
        const __m512i cur = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * chunk)));
        const __m512i before = _mm512_alignr_epi32(cur, prev, 15);  // lane k: byte k - 1
        const auto t = static_cast<__mmask16>(term >> (16 * chunk));
        const auto w = static_cast<__mmask16>(two >> (16 * chunk));
        // R1: a 2-byte varint's second byte holds bits 7-13 (its high bit is clear).
        const __m512i val = _mm512_mask_or_epi32(_mm512_and_si512(cur, low7), w, _mm512_slli_epi32(cur, 7),
                                                 _mm512_and_si512(before, low7));
        _mm512_storeu_si512(v + n, _mm512_maskz_compress_epi32(t, val));
        n += static_cast<unsigned>(std::popcount(static_cast<unsigned>(t)));
        prev = cur;
    }
    return n;
}
#include "varint_bulk_wide.inc"
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
