// ASCII runs, a word at a time: shared by the UTF-8 checks (unicode.cpp) and the string table's
// reader, which checks a whole section's ASCII bytes in one pass instead of string by string.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ond::detail {

inline std::uint64_t load64(const unsigned char* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

// The end of the ASCII run from p[i] on: the index of the first byte >= 0x80 in p[i..n), or n.
// Words at a time (32 bytes a step, then 8); the last 1-7 bytes come from the 8 bytes that end
// at n, which may overlap bytes already checked, when the input has 8.
inline std::size_t ascii_end(const unsigned char* p, std::size_t n, std::size_t i) noexcept {
    constexpr std::uint64_t high = 0x8080808080808080ull;
    for (; i + 32 <= n; i += 32)
        if ((load64(p + i) | load64(p + i + 8) | load64(p + i + 16) | load64(p + i + 24)) & high) break;
    for (; i + 8 <= n; i += 8)
        if (const std::uint64_t h = load64(p + i) & high) return i + static_cast<std::size_t>(std::countr_zero(h) >> 3);
    if (i == n) return n;
    if (n >= 8) {
        // Bytes [i, n) are the top n - i (1 to 7) bytes of the word.
        const std::uint64_t h = load64(p + n - 8) & high & (~std::uint64_t{0} << (8 * (8 - (n - i))));
        return h ? n - 8 + static_cast<std::size_t>(std::countr_zero(h) >> 3) : n;
    }
    while (i < n && p[i] < 0x80) ++i;
    return i;
}

}  // namespace ond::detail
