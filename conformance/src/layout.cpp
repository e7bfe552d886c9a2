#include "layout.hpp"

#include <zlib.h>

namespace ond::conformance {

std::uint32_t crc32_of(std::string_view bytes) noexcept {
    uLong c = ::crc32(0L, Z_NULL, 0);
    const auto* p = reinterpret_cast<const Bytef*>(bytes.data());
    std::size_t n = bytes.size();
    while (n > 0) {
        auto chunk = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
        c = ::crc32(c, p, chunk);
        p += chunk;
        n -= chunk;
    }
    return static_cast<std::uint32_t>(c);
}

std::string encode_varint(std::uint32_t v) {
    std::string out;
    do {
        auto b = static_cast<unsigned char>(v & 0x7F);
        v >>= 7;
        if (v) b |= 0x80;
        out.push_back(static_cast<char>(b));
    } while (v);
    return out;
}

std::size_t varint_size_at(std::string_view s, std::size_t pos, std::uint32_t* value) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 5; ++i) {
        if (pos + i >= s.size()) return 0;
        auto b = static_cast<unsigned char>(s[pos + i]);
        v |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            if (v > 0xFFFFFFFFull) return 0;
            if (value) *value = static_cast<std::uint32_t>(v);
            return i + 1;
        }
    }
    return 0;
}

void put_u32(std::string& s, std::size_t pos, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) s[pos + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::uint32_t get_u32(std::string_view s, std::size_t pos) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[pos + static_cast<std::size_t>(i)])) << (8 * i);
    return v;
}

namespace {

void append_u32(std::string& s, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// Parses sections in [pos, end) of `all`; stops (leaving the rest as tail) at a frame that does
// not fit. Returns the position where parsing stopped.
std::size_t parse_sections(std::string_view all, std::size_t pos, std::size_t end,
                           std::vector<LayoutSection>& out, bool ondb_body, bool& ok) {
    while (pos < end) {
        if (end - pos < 5) return pos;
        LayoutSection s;
        s.id = static_cast<std::uint8_t>(all[pos]);
        std::uint32_t len = get_u32(all, pos + 1);
        if (len > end - pos - 5) return pos;
        s.content_offset = pos + 5;
        if (ondb_body && s.id == 5) {
            s.has_records = true;
            std::size_t p = pos + 5, e = p + len;
            if (len < 4) {
                ok = false;
                return pos;
            }
            std::uint32_t count = get_u32(all, p);
            p += 4;
            for (std::uint32_t i = 0; i < count; ++i) {
                if (e - p < 4) {
                    ok = false;
                    return pos;
                }
                std::uint32_t rl = get_u32(all, p);
                if (rl > e - p - 4) {
                    ok = false;
                    return pos;
                }
                LayoutSection::Record rec;
                std::size_t stop = parse_sections(all, p + 4, p + 4 + rl, rec.sections, false, ok);
                rec.tail = std::string(all.substr(stop, p + 4 + rl - stop));
                s.records.push_back(std::move(rec));
                p += 4 + rl;
            }
            s.records_tail = std::string(all.substr(p, e - p));
        } else {
            s.content = std::string(all.substr(pos + 5, len));
        }
        out.push_back(std::move(s));
        pos += 5 + static_cast<std::size_t>(len);
    }
    return pos;
}

void serialize_sections(const std::vector<LayoutSection>& secs, std::string& out);

std::string serialize_section_content(const LayoutSection& s) {
    if (!s.has_records) return s.content;
    std::string c;
    append_u32(c, s.count_override.value_or(static_cast<std::uint32_t>(s.records.size())));
    for (const auto& r : s.records) {
        std::string body;
        serialize_sections(r.sections, body);
        body += r.tail;
        append_u32(c, r.length_override.value_or(static_cast<std::uint32_t>(body.size())));
        c += body;
    }
    c += s.records_tail;
    return c;
}

void serialize_sections(const std::vector<LayoutSection>& secs, std::string& out) {
    for (const auto& s : secs) {
        std::string content = serialize_section_content(s);
        out.push_back(static_cast<char>(s.id));
        append_u32(out, s.length_override.value_or(static_cast<std::uint32_t>(content.size())));
        out += content;
    }
}

}  // namespace

std::optional<Layout> Layout::parse(std::string_view bytes) {
    if (bytes.size() < 12) return std::nullopt;
    Layout l;
    l.magic = std::string(bytes.substr(0, 4));
    if (l.magic != "ONDC" && l.magic != "ONDB") return std::nullopt;
    l.version = static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[4]) | (static_cast<unsigned char>(bytes[5]) << 8));
    l.flags = static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[6]) | (static_cast<unsigned char>(bytes[7]) << 8));
    std::uint32_t body = get_u32(bytes, 8);
    std::size_t trailer = (l.flags & 1) ? 4 : 0;
    if (bytes.size() != 12 + static_cast<std::uint64_t>(body) + trailer) return std::nullopt;
    bool ok = true;
    std::size_t stop = parse_sections(bytes, 12, 12 + body, l.sections, l.magic == "ONDB", ok);
    if (!ok) return std::nullopt;
    l.body_tail = std::string(bytes.substr(stop, 12 + body - stop));
    return l;
}

std::string Layout::serialize() const {
    std::string body;
    serialize_sections(sections, body);
    body += body_tail;
    std::string out = magic.substr(0, 4);
    while (out.size() < 4) out.push_back('\0');
    out.push_back(static_cast<char>(version & 0xFF));
    out.push_back(static_cast<char>(version >> 8));
    out.push_back(static_cast<char>(flags & 0xFF));
    out.push_back(static_cast<char>(flags >> 8));
    append_u32(out, body_length_override.value_or(static_cast<std::uint32_t>(body.size())));
    out += body;
    if (flags & 1) append_u32(out, crc32_of(out));
    return out;
}

std::vector<LayoutSection*> Layout::leaves() {
    std::vector<LayoutSection*> out;
    for (auto& s : sections) {
        if (s.has_records) {
            for (auto& r : s.records)
                for (auto& rs : r.sections) out.push_back(&rs);
        } else {
            out.push_back(&s);
        }
    }
    return out;
}

}  // namespace ond::conformance
