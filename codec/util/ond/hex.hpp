// Hexadecimal digits for messages, listings and digests: the one spelling used across the project.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ond::hex {

inline constexpr std::string_view lower_digits = "0123456789abcdef";
inline constexpr std::string_view upper_digits = "0123456789ABCDEF";

// Appends `v` in hex, most significant digit first, zero-padded to at least `width` digits (as
// printf's %0*x does; lower case unless `upper`).
inline void append(std::string& out, std::uint64_t v, int width, bool upper = false) {
    const std::string_view d = upper ? upper_digits : lower_digits;
    while (width < 16 && (v >> (4 * width)) != 0) ++width;
    for (int i = width - 1; i >= 0; --i) out += d[(v >> (4 * i)) & 15];
}

// `v` in lower-case hex, at least `width` digits: of(0x40d, 8) is "0000040d".
inline std::string of(std::uint64_t v, int width) {
    std::string s;
    append(s, v, width);
    return s;
}

// Two lower-case digits per byte, with `sep` between bytes when it is not '\0'.
inline void append_bytes(std::string& out, const unsigned char* p, std::size_t n, char sep = '\0') {
    for (std::size_t i = 0; i < n; ++i) {
        if (i && sep) out += sep;
        append(out, p[i], 2);
    }
}

}  // namespace ond::hex
