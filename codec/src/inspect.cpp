// The annotated walk behind `ond inspect`, and value formatting for it.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "ond/inspect.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"

namespace ond::detail {

void Tracer::enter(std::uint64_t offset, std::uint64_t length, std::string name, std::string value) {
    fn_(InspectEvent{InspectEvent::Kind::enter, offset, length, depth_, std::move(name), std::move(value)});
    ++depth_;
}

void Tracer::leave() {
    --depth_;
    fn_(InspectEvent{InspectEvent::Kind::leave, 0, 0, depth_, {}, {}});
}

void Tracer::field(std::uint64_t offset, std::uint64_t length, std::string name, std::string value) {
    fn_(InspectEvent{InspectEvent::Kind::field, offset, length, depth_, std::move(name), std::move(value)});
}

std::string quote_wtf8(std::string_view s, std::size_t max_chars) {
    std::string out = "\"";
    std::size_t chars = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (chars >= max_chars) {
            out += "...";
            break;
        }
        if ((b & 0xC0) != 0x80) ++chars;
        if (b == 0xED && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0xA0) {
            // A lone surrogate: show its code unit.
            const unsigned cp = ((b & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                                (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\u%04X", cp);
            out += buf;
            i += 2;
        } else if (b == '"' || b == '\\') {
            out += '\\';
            out += static_cast<char>(b);
        } else if (b < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04X", b);
            out += buf;
        } else {
            out += static_cast<char>(b);
        }
    }
    out += '"';
    return out;
}

std::string describe_string(const RawString& s, bool cut_length) {
    // Only the shown prefix is converted: a listing of a long string used many times must not
    // copy it for every use. 4 bytes of UTF-8 or 2 code units of UTF-16 hold at least one
    // character, so the prefix holds one more character than is shown when there are more.
    constexpr std::size_t shown = 80;
    const std::size_t prefix = (shown + 1) * 4;
    RawString head = s;
    head.size = static_cast<std::uint32_t>(std::min<std::size_t>(s.size, prefix));
    std::string v;
    append_wtf8(v, head);
    const auto chars = std::count_if(v.begin(), v.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
    std::string out = quote_wtf8(v, shown);
    if (cut_length && static_cast<std::size_t>(chars) > shown) return out + (s.utf16 ? " (UTF-16, " : " (") + detail::count_of(s.size, "byte", "bytes") + ")";
    return out + (s.utf16 ? " (UTF-16)" : "");
}

std::string describe_float(float f) {
    if (std::isnan(f)) return "NaN";
    if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, f);
    std::string s(buf, r.ptr);
    if (f == 0.0f && std::signbit(f)) s = "-0.0";
    return s;
}

}  // namespace ond::detail

namespace ond {

void inspect(Bytes input, const InspectFn& on) {
    detail::Tracer tr(on);
    detail::decode_container<detail::InspectMode>(input, 0, nullptr, &tr);
}

}  // namespace ond
