#include "ond/internal/framing.hpp"

#include <algorithm>

#include "ond/internal/sections.hpp"

namespace ond::framing {

std::uint32_t crc32_of(std::string_view bytes) noexcept {
    return detail::crc32(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
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

std::uint16_t get_u16(std::string_view s, std::size_t pos) {
    return static_cast<std::uint16_t>(static_cast<unsigned char>(s[pos]) | (static_cast<unsigned char>(s[pos + 1]) << 8));
}

struct Parser {
    std::string_view all;
    bool lenient = false;
    bool ok = true;
    bool records_found = false;  // lenient: only the first section 5 holds records

    // Section 5's content in [p, e): a count, then records. Strict: as many records as the count
    // says, each fitting. Lenient: records by their lengths until fewer than 4 bytes remain.
    bool parse_records(std::size_t p, std::size_t e, Section& s) {
        if (e - p < 4) return false;
        const std::uint32_t count = get_u32(all, p);
        p += 4;
        for (std::uint32_t i = 0; lenient ? e - p >= 4 : i < count; ++i) {
            if (e - p < 4) return false;
            std::uint32_t rl = get_u32(all, p);
            if (rl > e - p - 4) {
                if (!lenient) return false;
                rl = static_cast<std::uint32_t>(e - p - 4);
            }
            Section::Record rec;
            const std::size_t stop = parse_sections(p + 4, p + 4 + rl, rec.sections, false);
            rec.tail = std::string(all.substr(stop, p + 4 + rl - stop));
            s.records.push_back(std::move(rec));
            p += 4 + rl;
        }
        s.records_tail = std::string(all.substr(p, e - p));
        return true;
    }

    // Parses sections in [pos, end); stops (leaving the rest as tail) at a frame that does not
    // fit. Returns the position where parsing stopped.
    std::size_t parse_sections(std::size_t pos, std::size_t end, std::vector<Section>& out, bool ondb_body) {
        while (pos < end) {
            if (end - pos < 5) return pos;
            Section s;
            s.id = static_cast<std::uint8_t>(all[pos]);
            std::size_t len = get_u32(all, pos + 1);
            if (len > end - pos - 5) {
                if (!lenient) return pos;
                len = end - pos - 5;
            }
            s.content_offset = pos + 5;
            if (ondb_body && s.id == 5 && !(lenient && (records_found || len < 4))) {
                s.has_records = true;
                records_found = true;
                if (!parse_records(pos + 5, pos + 5 + len, s)) {
                    ok = false;
                    return pos;
                }
            } else {
                s.content = std::string(all.substr(pos + 5, len));
            }
            out.push_back(std::move(s));
            pos += 5 + len;
        }
        return pos;
    }
};

void serialize_sections(const std::vector<Section>& secs, std::string& out) {
    for (const auto& s : secs) {
        std::string content = s.serialized_content();
        out.push_back(static_cast<char>(s.id));
        append_u32(out, s.length_override.value_or(static_cast<std::uint32_t>(content.size())));
        out += content;
    }
}

std::optional<Layout> parse_layout(std::string_view bytes, bool lenient) {
    if (bytes.size() < 12) return std::nullopt;
    Layout l;
    l.magic = std::string(bytes.substr(0, 4));
    if (l.magic != "ONDC" && l.magic != "ONDB") return std::nullopt;
    l.version = get_u16(bytes, 4);
    l.flags = get_u16(bytes, 6);
    std::size_t body = get_u32(bytes, 8);
    if (lenient) {
        body = std::min(body, bytes.size() - 12);
    } else if (bytes.size() != 12 + static_cast<std::uint64_t>(body) + (l.crc() ? 4 : 0)) {
        return std::nullopt;
    }
    Parser p{bytes, lenient};
    const std::size_t stop = p.parse_sections(12, 12 + body, l.sections, l.magic == "ONDB");
    if (!p.ok) return std::nullopt;
    l.body_tail = std::string(bytes.substr(stop, 12 + body - stop));
    return l;
}

}  // namespace

std::string Section::serialized_content() const {
    if (!has_records) return content;
    std::string c;
    append_u32(c, count_override.value_or(static_cast<std::uint32_t>(records.size())));
    for (const auto& r : records) {
        std::string body;
        serialize_sections(r.sections, body);
        body += r.tail;
        append_u32(c, r.length_override.value_or(static_cast<std::uint32_t>(body.size())));
        c += body;
    }
    c += records_tail;
    return c;
}

void Section::flatten() {
    if (!has_records) return;
    content = serialized_content();
    has_records = false;
    count_override.reset();
    records.clear();
    records_tail.clear();
}

std::optional<Layout> Layout::parse(std::string_view bytes) { return parse_layout(bytes, false); }

std::optional<Layout> Layout::parse_lenient(std::string_view bytes) { return parse_layout(bytes, true); }

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
    if (crc()) append_u32(out, crc32_of(out));
    return out;
}

std::vector<Section*> Layout::leaves() {
    std::vector<Section*> out;
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

Section* Layout::records_section() noexcept {
    for (auto& s : sections)
        if (s.has_records) return &s;
    return nullptr;
}

}  // namespace ond::framing
