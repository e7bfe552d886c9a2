#include "ond/text_escape.hpp"

#include <cstdint>

#include "ond/hex.hpp"

namespace ond::conformance {

namespace {

bool invisible(std::uint32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F ||
           cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5 || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x200B && cp <= 0x200F) ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) || cp == 0x3164 || (cp >= 0xFE00 && cp <= 0xFE0F) ||
           cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xFFF0 && cp <= 0xFFFB) || (cp >= 0xE0000 && cp <= 0xE0FFF) ||
           (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;  // noncharacters: U+FFFE is not XML
}

// What XML 1.0 cannot hold in a well-formed UTF-8 sequence (surrogates never decode).
bool xml_forbidden(std::uint32_t cp) { return (cp < 0x20 && cp != '\n' && cp != '\t' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF; }

void append_code_point(std::string& o, std::uint32_t cp) {
    o += "\\u{";
    hex::append(o, cp, 4, true);
    o += "}";
}

void append_byte(std::string& o, unsigned char c) {
    o += "\\x";
    hex::append(o, c, 2, true);
}

// The length of the well-formed UTF-8 sequence at s[i] (0 when there is none) and its code point.
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    unsigned char c = b(0);
    if (c < 0x80) return cp = c, 1;
    std::size_t n = 0;
    std::uint32_t min = 0;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

}  // namespace

std::string escape_text(std::string_view s, bool escape_backslash, bool keep_lines) {
    std::string o;
    o.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        std::uint32_t cp = 0;
        std::size_t n = utf8_at(s, i, cp);
        if (n == 0) {
            append_byte(o, static_cast<unsigned char>(s[i++]));
            continue;
        }
        if (cp == '\\' && escape_backslash) o += "\\\\";
        else if (cp == '\n') o += keep_lines ? "\n" : "\\n";
        else if (cp == '\t') o += keep_lines ? "\t" : "\\t";
        else if (invisible(cp)) append_code_point(o, cp);
        else {
            o.append(s, i, n);
        }
        i += n;
    }
    return o;
}

std::string capped(std::string_view s, bool escape_backslash, std::size_t limit, bool keep_lines) {
    if (s.size() <= limit) return escape_text(s, escape_backslash, keep_lines);
    std::size_t cut = limit;
    // Back to the start of the character that the limit falls in (at most 3 continuation bytes).
    for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80; ++k) --cut;
    return escape_text(s.substr(0, cut), escape_backslash, keep_lines) + "\u2026 (" + std::to_string(s.size()) + " bytes)";
}

std::string xml_escape(std::string_view s) {
    std::string o;
    o.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        std::uint32_t cp = 0;
        std::size_t n = utf8_at(s, i, cp);
        if (n == 0) {
            append_byte(o, static_cast<unsigned char>(s[i++]));
            continue;
        }
        switch (cp) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '\'': o += "&#39;"; break;
            default:
                if (xml_forbidden(cp)) append_code_point(o, cp);
                else o.append(s, i, n);
        }
        i += n;
    }
    return o;
}

}  // namespace ond::conformance
