#include "fuzz_support.hpp"

#include <map>
#include <string_view>

#include "ref_crc32.hpp"

namespace ond::fuzz {

namespace {
bool failures_throw = false;
}

void set_property_failures_throw(bool on) noexcept { failures_throw = on; }

void property_failed(const char* expr, const char* file, int line, const std::string& note) {
    if (failures_throw)
        throw PropertyViolation(std::string("property violated: ") + expr + " at " + file + ":" + std::to_string(line) +
                                (note.empty() ? std::string() : "\n    " + note));
    std::fprintf(stderr, "\n=== property violated: %s\n    at %s:%d\n", expr, file, line);
    if (!note.empty()) std::fprintf(stderr, "    %s\n", note.c_str());
    std::fflush(stderr);
    std::abort();
}

void check_same(const Outcome& a, const Outcome& b, const char* what_a, const char* what_b) {
    if (a.same_verdict(b)) return;
    std::string note = std::string(what_a) + ": " + a.describe() + "\n    " + what_b + ": " + b.describe();
    property_failed("same verdict, error code and offset", __FILE__, __LINE__, note);
}

std::uint32_t slow_crc32(const std::uint8_t* p, std::size_t n) noexcept { return test::ref_crc32(p, n); }

void put_u8(std::vector<std::byte>& out, std::uint8_t v) { out.push_back(static_cast<std::byte>(v)); }
void put_u16(std::vector<std::byte>& out, std::uint16_t v) {
    put_u8(out, static_cast<std::uint8_t>(v & 0xFF));
    put_u8(out, static_cast<std::uint8_t>(v >> 8));
}
void put_u32(std::vector<std::byte>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) put_u8(out, static_cast<std::uint8_t>((v >> (8 * i)) & 0xFF));
}
void put_varint(std::vector<std::byte>& out, std::uint32_t v) {
    while (v >= 0x80) {
        put_u8(out, static_cast<std::uint8_t>((v & 0x7F) | 0x80));
        v >>= 7;
    }
    put_u8(out, static_cast<std::uint8_t>(v));
}
void put_svarint(std::vector<std::byte>& out, std::int32_t v) {
    const auto u = static_cast<std::uint32_t>(v);
    put_varint(out, (u << 1) ^ (v < 0 ? 0xFFFFFFFFu : 0u));
}

std::vector<std::byte> frame_container(const char magic[4], bool crc, std::span<const std::byte> body) {
    std::vector<std::byte> out;
    out.reserve(12 + body.size() + 4);
    for (int i = 0; i < 4; ++i) put_u8(out, static_cast<std::uint8_t>(magic[i]));
    put_u16(out, 1);
    put_u16(out, crc ? 1 : 0);
    put_u32(out, static_cast<std::uint32_t>(body.size()));
    out.insert(out.end(), body.begin(), body.end());
    if (crc) put_u32(out, slow_crc32(reinterpret_cast<const std::uint8_t*>(out.data()), out.size()));
    return out;
}

namespace {

// ---- WTF-8, decoded independently of the codec's unicode helpers ------------------------

}  // namespace

Wtf8Kind decode_wtf8(std::string_view s, std::u16string* units, std::size_t* bad) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    bool surrogate = false;
    std::size_t first_surrogate = 0;
    bool prev_high = false;  // the previous sequence was a lone high surrogate's 3-byte form
    for (std::size_t i = 0; i < n;) {
        const unsigned b0 = p[i];
        std::uint32_t cp;
        std::size_t len;
        if (b0 < 0x80) {
            cp = b0, len = 1;
        } else if (b0 >= 0xC2 && b0 <= 0xDF) {
            len = 2, cp = b0 & 0x1F;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            len = 3, cp = b0 & 0x0F;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            len = 4, cp = b0 & 0x07;
        } else {
            if (bad) *bad = i;
            return Wtf8Kind::invalid;
        }
        if (len > 1) {
            for (std::size_t k = 1; k < len; ++k) {
                if (i + k >= n || (p[i + k] & 0xC0) != 0x80) {
                    if (bad) *bad = i;
                    return Wtf8Kind::invalid;
                }
                cp = (cp << 6) | (p[i + k] & 0x3Fu);
            }
            if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
                if (bad) *bad = i;
                return Wtf8Kind::invalid;
            }
        }
        const bool is_high = cp >= 0xD800 && cp <= 0xDBFF;
        const bool is_low = cp >= 0xDC00 && cp <= 0xDFFF;
        if (is_low && prev_high) {  // a pair must be one 4-byte sequence
            if (bad) *bad = i;
            return Wtf8Kind::invalid;
        }
        if ((is_high || is_low) && !surrogate) {
            surrogate = true;
            first_surrogate = i;
        }
        prev_high = is_high;
        if (units) {
            if (cp >= 0x10000) {
                units->push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
                units->push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
            } else {
                units->push_back(static_cast<char16_t>(cp));
            }
        }
        i += len;
    }
    if (surrogate && bad) *bad = first_surrogate;
    return surrogate ? Wtf8Kind::with_surrogates : Wtf8Kind::utf8;
}

bool utf8_well_formed(std::string_view s, std::size_t* bad) {
    std::size_t at = 0;
    const Wtf8Kind k = decode_wtf8(s, nullptr, &at);
    if (k == Wtf8Kind::utf8) return true;
    if (k == Wtf8Kind::invalid) {
        // A surrogate before the WTF-8 fault is the first UTF-8 fault.
        std::size_t sur = 0;
        if (decode_wtf8(s.substr(0, at), nullptr, &sur) == Wtf8Kind::with_surrogates) at = sur;
    }
    if (bad) *bad = at;
    return false;
}

namespace {

// Writes a string or text payload: UTF-8 when well-formed, UTF-16LE when it has a lone
// surrogate, the raw bytes as "UTF-8" when it is not WTF-8 at all (a reader must reject those).
struct Payload {
    bool utf16 = false;
    std::vector<std::byte> bytes;
};
Payload payload_of(std::string_view s) {
    Payload pl;
    std::u16string units;
    if (decode_wtf8(s, &units, nullptr) == Wtf8Kind::with_surrogates) {
        pl.utf16 = true;
        for (char16_t u : units) put_u16(pl.bytes, static_cast<std::uint16_t>(u));
    } else {
        for (char ch : s) put_u8(pl.bytes, static_cast<std::uint8_t>(ch));
    }
    return pl;
}

class RawEncoder {
public:
    explicit RawEncoder(const Container& c) : c_(c) {}

    std::vector<std::byte> run() {
        // Pass 1 numbers the strings in order of first use; pass 2 writes the bodies.
        for (const DocSlice d : c_.docs) collect(d);
        std::vector<std::byte> table;
        put_varint(table, static_cast<std::uint32_t>(order_.size()));
        for (const std::string& s : order_) {
            Payload pl = payload_of(s);
            put_varint(table, static_cast<std::uint32_t>((pl.bytes.size() << 1) | (pl.utf16 ? 1u : 0u)));
            table.insert(table.end(), pl.bytes.begin(), pl.bytes.end());
        }
        std::vector<std::byte> body;
        section(body, 1, table);
        if (c_.format == Format::ondc) {
            for (const DocSlice d : c_.docs) doc_sections(body, d);
            return frame_container("ONDC", c_.crc, body);
        }
        std::vector<std::byte> recs;
        put_u32(recs, static_cast<std::uint32_t>(c_.docs.size()));
        for (const DocSlice d : c_.docs) {
            std::vector<std::byte> rec;
            doc_sections(rec, d);
            put_u32(recs, static_cast<std::uint32_t>(rec.size()));
            recs.insert(recs.end(), rec.begin(), rec.end());
        }
        section(body, 5, recs);
        return frame_container("ONDB", c_.crc, body);
    }

private:
    static void section(std::vector<std::byte>& out, std::uint8_t id, const std::vector<std::byte>& content) {
        put_u8(out, id);
        put_u32(out, static_cast<std::uint32_t>(content.size()));
        out.insert(out.end(), content.begin(), content.end());
    }

    void use(StringId id) {
        if (!c_.strings.contains(id)) return;
        std::string v(c_.strings.view(id));
        if (v.empty() || index_.count(v)) return;
        order_.push_back(v);
        index_.emplace(v, static_cast<std::uint32_t>(order_.size()));
    }
    std::uint32_t index(StringId id) const {
        if (!c_.strings.contains(id)) return static_cast<std::uint32_t>(order_.size() + 1);  // past the table
        std::string v(c_.strings.view(id));
        if (v.empty()) return 0;
        return index_.at(v);
    }

    void collect(const DocSlice& d) {
        const TokenSlice& t = d.tokens;
        for (const auto& col : t.attrs)
            for (StringId id : col) use(id);
        if (d.has_ents)
            for (const Entity& e : d.ents) use(e.label);
        if (d.has_cats)
            for (const Category& k : d.cats) use(k.label);
        for (const SpanGroupSlice g : d.spans) {
            use(g.name);
            for (const Span& s : g.spans) use(s.label);
        }
    }

    void doc_sections(std::vector<std::byte>& out, const DocSlice& d) {
        {
            std::vector<std::byte> text;
            Payload pl = payload_of(d.text);
            put_u8(text, pl.utf16 ? 1 : 0);
            text.insert(text.end(), pl.bytes.begin(), pl.bytes.end());
            section(out, 2, text);
        }
        const TokenSlice& t = d.tokens;
        const std::size_t n = t.size();
        {
            std::vector<std::byte> s;
            put_varint(s, static_cast<std::uint32_t>(n));
            std::uint32_t prev_end = 0;
            for (std::size_t i = 0; i < n; ++i) {
                put_varint(s, t.start[i] - prev_end);  // wraps when tokens overlap: then out of text
                put_varint(s, t.length[i]);
                prev_end = t.start[i] + t.length[i];
            }
            for (const auto& col : t.attrs)
                for (std::size_t i = 0; i < n; ++i) put_varint(s, index(col[i]));
            for (std::size_t i = 0; i < n; ++i)
                put_svarint(s, static_cast<std::int32_t>(static_cast<std::uint32_t>(
                                   static_cast<std::int64_t>(t.head[i]) - static_cast<std::int64_t>(i))));
            for (std::size_t i = 0; i < n; i += 4) {
                unsigned byte = 0;
                for (std::size_t k = 0; k < 4 && i + k < n; ++k) {
                    unsigned v = static_cast<unsigned>(t.sent[i + k]);
                    if (v > 2) v = 3;
                    byte |= v << (2 * k);
                }
                put_u8(s, static_cast<std::uint8_t>(byte));
            }
            bool all_one = true;
            for (float f : t.conf) all_one = all_one && float_bits(f) == 0x3F800000u;
            put_u8(s, all_one ? 0 : 1);
            if (!all_one)
                for (float f : t.conf) put_u32(s, float_bits(f));
            section(out, 3, s);
        }
        // W2 (R22): no section 4 without tokens; entities there are unwritable, so keep them
        // (their bytes must then fail to read).
        if (d.has_ents && (n > 0 || !d.ents.empty())) {
            std::vector<std::byte> s;
            put_varint(s, static_cast<std::uint32_t>(d.ents.size()));
            std::uint32_t prev_end = 0;
            for (const Entity& e : d.ents) {
                put_varint(s, e.start - prev_end);
                put_varint(s, e.length);
                put_varint(s, index(e.label));
                put_u32(s, float_bits(e.conf));
                prev_end = e.start + e.length;
            }
            section(out, 4, s);
        }
        if (d.has_cats) {
            std::vector<std::byte> s;
            put_varint(s, static_cast<std::uint32_t>(d.cats.size()));
            for (const Category& k : d.cats) {
                put_varint(s, index(k.label));
                put_u32(s, float_bits(k.score));
            }
            section(out, 6, s);
        }
        if (!d.spans.empty()) {
            std::vector<std::byte> s;
            put_varint(s, static_cast<std::uint32_t>(d.spans.size()));
            for (const SpanGroupSlice g : d.spans) {
                put_varint(s, index(g.name));
                put_varint(s, static_cast<std::uint32_t>(g.spans.size()));
                for (const Span& sp : g.spans) {
                    put_varint(s, sp.start);
                    put_varint(s, sp.length);
                    put_varint(s, index(sp.label));
                    put_u32(s, float_bits(sp.conf));
                }
            }
            section(out, 7, s);
        }
    }

    const Container& c_;
    std::vector<std::string> order_;
    std::map<std::string, std::uint32_t> index_;
};

}  // namespace

std::vector<std::byte> raw_encode(const Container& c) { return RawEncoder(c).run(); }

}  // namespace ond::fuzz
