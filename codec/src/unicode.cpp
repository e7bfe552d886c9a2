#include "ond/unicode.hpp"

#include <algorithm>
#include <bit>

#include <cstring>

#include "ascii.hpp"

namespace ond::unicode {

namespace {
using detail::ascii_end;

// Decodes one multi-byte sequence starting at p[i] (p[i] >= 0x80). Returns its length in bytes
// (0 if ill-formed) and the code point. With allow_surrogates, ED A0..BF xx is accepted (WTF-8).
inline std::size_t decode_seq(const unsigned char* p, std::size_t n, std::size_t i, bool allow_surrogates,
                              std::uint32_t& cp) noexcept {
    const unsigned char b0 = p[i];
    auto cont = [&](std::size_t k) { return i + k < n && (p[i + k] & 0xC0) == 0x80; };
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        if (!cont(1)) return 0;
        cp = ((b0 & 0x1Fu) << 6) | (p[i + 1] & 0x3Fu);
        return 2;
    }
    if (b0 >= 0xE0 && b0 <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        const unsigned char b1 = p[i + 1];
        if (b0 == 0xE0 && b1 < 0xA0) return 0;                        // overlong
        if (b0 == 0xED && b1 >= 0xA0 && !allow_surrogates) return 0;  // surrogate
        cp = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu);
        return 3;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        const unsigned char b1 = p[i + 1];
        if (b0 == 0xF0 && b1 < 0x90) return 0;  // overlong
        if (b0 == 0xF4 && b1 >= 0x90) return 0;  // above U+10FFFF
        cp = ((b0 & 0x07u) << 18) | ((b1 & 0x3Fu) << 12) | ((p[i + 2] & 0x3Fu) << 6) | (p[i + 3] & 0x3Fu);
        return 4;
    }
    return 0;
}

inline bool ascii8(const unsigned char* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return (w & 0x8080808080808080ull) == 0;
}

template <class F>
void for_each_unit(std::string_view s, F&& f) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t i = 0;
    while (i < s.size()) {
        if (p[i] < 0x80) {
            f(static_cast<char16_t>(p[i]));
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        std::size_t len = decode_seq(p, s.size(), i, true, cp);
        if (len == 0) {  // precondition violated; emit U+FFFD rather than read out of bounds
            f(u'\uFFFD');
            ++i;
            continue;
        }
        if (cp >= 0x10000) {
            f(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
            f(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
        } else {
            f(static_cast<char16_t>(cp));
        }
        i += len;
    }
}

}  // namespace

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::optional<std::uint64_t> utf8_utf16_length(const unsigned char* p, std::size_t n, std::size_t* err_at) noexcept {
    std::uint64_t units = 0;
    std::size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            const std::size_t j = ascii_end(p, n, i + 1);  // one unit a byte
            units += j - i;
            i = j;
            continue;
        }
        std::uint32_t cp = 0;
        std::size_t len = decode_seq(p, n, i, false, cp);
        if (len == 0) {
            if (err_at) *err_at = i;
            return std::nullopt;
        }
        units += len == 4 ? 2 : 1;
        i += len;
    }
    return units;
}

std::optional<std::uint64_t> wtf8_utf16_length(std::string_view s) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::uint64_t units = 0;
    std::size_t i = 0;
    bool prev_high = false;  // the previous sequence was a lone high surrogate
    while (i < n) {
        if (p[i] < 0x80) {
            const std::size_t j = ascii_end(p, n, i + 1);  // one unit a byte
            units += j - i;
            i = j;
            prev_high = false;
            continue;
        }
        std::uint32_t cp = 0;
        std::size_t len = decode_seq(p, n, i, true, cp);
        if (len == 0) return std::nullopt;
        const bool high = cp >= 0xD800 && cp <= 0xDBFF;
        const bool low = cp >= 0xDC00 && cp <= 0xDFFF;
        if (low && prev_high) return std::nullopt;  // a pair must be one 4-byte sequence
        prev_high = high;
        units += len == 4 ? 2 : 1;
        i += len;
    }
    return units;
}

bool wtf8_has_surrogate(std::string_view s) noexcept {
    // A surrogate's 3-byte form starts ED A0..BF; ED itself is rare outside Hangul, so look for
    // it with memchr.
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const unsigned char* const end = p + s.size();
    while (p < end) {
        const auto* ed = static_cast<const unsigned char*>(std::memchr(p, 0xED, static_cast<std::size_t>(end - p)));
        if (ed == nullptr || end - ed < 2) return false;
        if (ed[1] >= 0xA0) return true;
        p = ed + 1;
    }
    return false;
}

void append_wtf8_from_utf16le(std::string& out, const unsigned char* p, std::size_t units) {
    out.reserve(out.size() + units * 3);
    for (std::size_t i = 0; i < units; ++i) {
        std::uint32_t u = p[2 * i] | (static_cast<std::uint32_t>(p[2 * i + 1]) << 8);
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units) {
            std::uint32_t v = p[2 * i + 2] | (static_cast<std::uint32_t>(p[2 * i + 3]) << 8);
            if (v >= 0xDC00 && v <= 0xDFFF) {
                append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00));
                ++i;
                continue;
            }
        }
        append_utf8(out, u);
    }
}

std::string wtf8_from_utf16(std::u16string_view units) {
    std::string le;
    le.resize(units.size() * 2);
    for (std::size_t i = 0; i < units.size(); ++i) {
        le[2 * i] = static_cast<char>(units[i] & 0xFF);
        le[2 * i + 1] = static_cast<char>(units[i] >> 8);
    }
    std::string out;
    append_wtf8_from_utf16le(out, reinterpret_cast<const unsigned char*>(le.data()), units.size());
    return out;
}

std::u16string utf16_from_wtf8(std::string_view s) {
    std::u16string out;
    out.reserve(s.size());
    for_each_unit(s, [&](char16_t u) { out.push_back(u); });
    return out;
}

std::size_t write_utf16le_from_wtf8(unsigned char* out, std::string_view s) noexcept {
    unsigned char* q = out;
    for_each_unit(s, [&](char16_t u) {
        q[0] = static_cast<unsigned char>(u & 0xFF);
        q[1] = static_cast<unsigned char>(u >> 8);
        q += 2;
    });
    return static_cast<std::size_t>(q - out);
}

void append_utf16le_from_wtf8(std::string& out, std::string_view s) {
    for_each_unit(s, [&](char16_t u) {
        out.push_back(static_cast<char>(u & 0xFF));
        out.push_back(static_cast<char>(u >> 8));
    });
}

// ---- offsets -------------------------------------------------------------------------------

namespace {
// Bytes of the sequence led by b in valid WTF-8; a stray continuation byte counts as one (the
// string is then not valid, and every offset stays in bounds).
inline std::size_t seq_bytes(unsigned char b) noexcept { return b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4; }
}  // namespace

void Utf16Offsets::restart_if_past(std::uint64_t units, std::size_t bytes) noexcept {
    if (units < unit_ || bytes < byte_) {
        unit_ = 0;
        byte_ = 0;
    }
}

std::size_t Utf16Offsets::walk_to(std::uint64_t units) noexcept {
    if (ascii_) {  // no walk: a unit is a byte
        byte_ = static_cast<std::size_t>(std::min<std::uint64_t>(units, s_.size()));
        unit_ = byte_;
        return 0;
    }
    restart_if_past(units, byte_);
    const auto* p = reinterpret_cast<const unsigned char*>(s_.data());
    const std::size_t n = s_.size();
    while (unit_ < units) {
        if (units - unit_ >= 8 && n - byte_ >= 8 && ascii8(p + byte_)) {
            byte_ += 8;
            unit_ += 8;
            continue;
        }
        if (byte_ == n) return 0;  // past the end
        std::size_t len = seq_bytes(p[byte_]);
        if (len > n - byte_) len = 1;
        const std::uint64_t u = len == 4 ? 2 : 1;
        if (unit_ + u > units) return len;  // between the halves of a pair
        byte_ += len;
        unit_ += u;
    }
    return 0;
}

std::optional<std::size_t> Utf16Offsets::to_bytes(std::uint64_t units) noexcept {
    walk_to(units);
    if (unit_ != units) return std::nullopt;  // past the end, or between the halves of a pair
    return byte_;
}

std::optional<std::uint64_t> Utf16Offsets::to_units(std::size_t bytes) noexcept {
    if (bytes > s_.size()) return std::nullopt;
    if (ascii_) {
        byte_ = bytes;
        unit_ = bytes;
        return unit_;
    }
    restart_if_past(unit_, bytes);
    const auto* p = reinterpret_cast<const unsigned char*>(s_.data());
    while (byte_ < bytes) {
        if (bytes - byte_ >= 8 && ascii8(p + byte_)) {
            byte_ += 8;
            unit_ += 8;
            continue;
        }
        std::size_t len = seq_bytes(p[byte_]);
        if (len > s_.size() - byte_) len = 1;
        if (byte_ + len > bytes) return std::nullopt;  // inside a sequence
        byte_ += len;
        unit_ += len == 4 ? 2 : 1;
    }
    return unit_;
}

std::optional<std::string_view> Utf16Offsets::view(std::uint64_t start, std::uint64_t length) noexcept {
    const auto b = to_bytes(start);
    if (!b || length > ~std::uint64_t{0} - start) return std::nullopt;
    const auto e = to_bytes(start + length);
    if (!e) return std::nullopt;
    return s_.substr(*b, *e - *b);
}

std::optional<Utf16Offsets::Range> Utf16Offsets::range(std::size_t byte_start, std::size_t byte_length) noexcept {
    const auto b = to_units(byte_start);
    if (!b || byte_length > s_.size() - byte_start) return std::nullopt;
    const auto e = to_units(byte_start + byte_length);
    if (!e) return std::nullopt;
    return Range{*b, *e - *b};
}

std::size_t Utf16Offsets::to_bytes_rounded(std::uint64_t units, bool round_up) noexcept {
    const std::size_t straddled = walk_to(units);
    return round_up ? byte_ + straddled : byte_;
}

std::string_view Utf16Offsets::covering_view(std::uint64_t start, std::uint64_t length) noexcept {
    const std::size_t b = to_bytes_rounded(start, false);
    const std::uint64_t end = length > ~std::uint64_t{0} - start ? ~std::uint64_t{0} : start + length;
    const std::size_t e = to_bytes_rounded(end, true);
    return s_.substr(b, e > b ? e - b : 0);
}

std::optional<std::size_t> utf16_to_wtf8_offset(std::string_view s, std::uint64_t units) noexcept {
    return Utf16Offsets(s).to_bytes(units);
}

std::optional<std::uint64_t> wtf8_to_utf16_offset(std::string_view s, std::size_t bytes) noexcept {
    return Utf16Offsets(s).to_units(bytes);
}

Utf16Index::Utf16Index(std::string_view wtf8) : bytes_(wtf8.size()) {
    const auto* p = reinterpret_cast<const unsigned char*>(wtf8.data());
    const std::size_t n = wtf8.size();
    samples_.reserve(n / step + 2);  // UTF-16 units never outnumber bytes
    std::size_t byte = 0;
    std::uint64_t unit = 0, next = 0;  // next: the UTF-16 offset of the next sample
    while (byte < n) {
        if (next - unit >= 8 && n - byte >= 8 && ascii8(p + byte)) {  // no sample in these 8 bytes
            byte += 8;
            unit += 8;
            continue;
        }
        std::size_t len = seq_bytes(p[byte]);
        if (len > n - byte) len = 1;
        const std::uint64_t u = len == 4 ? 2 : 1;
        for (; next < unit + u; next += step) samples_.push_back(std::uint64_t{byte} << 1 | (next - unit));
        byte += len;
        unit += u;
    }
    for (; next <= unit; next += step) samples_.push_back(std::uint64_t{byte} << 1);  // the end
}

Utf16Offsets Utf16Index::walker(std::string_view wtf8, std::uint64_t utf16_length, std::uint64_t units) const noexcept {
    if (samples_.empty()) return Utf16Offsets(wtf8, utf16_length);
    const std::uint64_t k = std::min<std::uint64_t>(units / step, samples_.size() - 1);
    const std::uint64_t sample = samples_[k];
    return Utf16Offsets(wtf8, utf16_length, static_cast<std::size_t>(sample >> 1), k * step - (sample & 1));
}

}  // namespace ond::unicode
