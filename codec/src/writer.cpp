// The canonical writer (W1-W5): checks that content can be written, then writes its bytes.
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "ond/unicode.hpp"
#include "ond/writer.hpp"
#include "sections.hpp"
#include "write_limits.hpp"

namespace ond {

namespace {

[[noreturn]] void refuse(Errc e, std::string path, std::string detail) {
    throw Error(e, no_offset, std::move(detail), std::move(path));
}

// ---- checks -----------------------------------------------------------------------------

class Checker {
public:
    explicit Checker(const Container& c) : c_(c), valid_(c.strings.size(), 0) {}

    void run() {
        if (c_.format == Format::ondc && c_.docs.size() != 1)
            refuse(Errc::content_inconsistent, "docs",
                   "an ONDC container holds exactly one document, not " + std::to_string(c_.docs.size()));
        if (c_.docs.size() > 0xFFFFFFFFull) refuse(Errc::content_too_large, "docs", "more than 2^32 - 1 documents");
        for (std::size_t i = 0; i < c_.docs.size(); ++i)
            doc(c_.docs[i], c_.format == Format::ondc ? std::string("doc") : "docs[" + std::to_string(i) + "]");
    }

private:
    // A string id must be in the store and its value valid WTF-8; returns the value.
    // Paths are built only on refusal: `path` is a callable returning the field's path.
    template <class P>
    std::string_view str(StringId id, const P& path) {
        if (!c_.strings.contains(id))
            refuse(Errc::content_bad_string_id, path(),
                   "string id " + std::to_string(id) + " is not in the store (" + std::to_string(c_.strings.size()) +
                       " strings)");
        std::string_view v = c_.strings.view(id);
        if (!valid_[id]) {
            const auto units = unicode::wtf8_utf16_length(v);
            if (!units) refuse(Errc::content_invalid_string, path(), "the string is not valid WTF-8");
            const bool utf16 = unicode::wtf8_has_surrogate(v);
            const std::uint64_t written = detail::written_string_bytes(v.size(), *units, utf16);
            if (written > detail::max_string_bytes)
                refuse(Errc::content_too_large, path(),
                       std::string("the string is ") + std::to_string(written) + " bytes written as " +
                           (utf16 ? "UTF-16" : "UTF-8") + "; a stored string holds at most 2^31 - 1");
            valid_[id] = 1;
        }
        return v;
    }
    std::string_view label(StringId id, const std::string& path) {
        auto p = [&] { return path; };
        std::string_view v = str(id, p);
        if (v.empty()) refuse(Errc::content_label_empty, path, "a label or name must not be empty");
        return v;
    }
    template <class P>
    static void conf(float f, const P& path) {
        if (!detail::confidence_ok(f))
            refuse(Errc::content_confidence_out_of_range, path(), "a confidence must be in [0, 1]");
    }
    static void conf(float f, const std::string& path) {
        conf(f, [&] { return path; });
    }

    void doc(const Doc& d, const std::string& p) {
        auto text_len = unicode::wtf8_utf16_length(d.text);
        if (!text_len) refuse(Errc::content_invalid_string, p + ".text", "the text is not valid WTF-8");
        const bool utf16 = unicode::wtf8_has_surrogate(d.text);
        const std::uint64_t text_bytes =
            detail::text_section_bytes(detail::written_string_bytes(d.text.size(), *text_len, utf16));
        if (*text_len > 0xFFFFFFFFull || text_bytes > detail::max_section_bytes)
            refuse(Errc::content_too_large, p + ".text",
                   std::string("the text section would be ") + std::to_string(text_bytes) + " bytes (text written as " +
                       (utf16 ? "UTF-16" : "UTF-8") + "); a section holds at most 2^32 - 1");
        const Tokens& t = d.tokens;
        const std::size_t n = t.size();
        if (n > detail::max_tokens)
            refuse(Errc::content_too_large, p + ".tokens", std::to_string(n) + " tokens; at most " + detail::grouped(detail::max_tokens));
        bool sizes_ok = t.length.size() == n && t.head.size() == n && t.sent.size() == n && t.conf.size() == n;
        for (const auto& col : t.attrs) sizes_ok = sizes_ok && col.size() == n;
        if (!sizes_ok) refuse(Errc::content_inconsistent, p + ".tokens", "token columns differ in size");
        std::uint64_t prev_end = 0;
        for (std::size_t i = 0; i < n; ++i) {
            auto tp = [&](const char* field) {
                return p + ".tokens[" + std::to_string(i) + "]" + (*field ? "." : "") + field;
            };
            if (t.start[i] < prev_end)
                refuse(Errc::content_token_order, tp("start"),
                       "starts at " + std::to_string(t.start[i]) + ", before the previous token's end " + std::to_string(prev_end));
            if (t.length[i] == 0) refuse(Errc::content_token_empty, tp("length"), "a token has length 0");
            const std::uint64_t end = std::uint64_t{t.start[i]} + t.length[i];
            if (end > *text_len)
                refuse(Errc::content_token_out_of_text, tp(""),
                       "ends at " + std::to_string(end) + ", past the text's " + std::to_string(*text_len) + " UTF-16 units");
            prev_end = end;
            for (std::size_t c = 0; c < token_column_count; ++c) str(t.attrs[c][i], [&] { return tp(token_column_names[c]); });
            if (t.head[i] < 0 || static_cast<std::uint64_t>(t.head[i]) >= n)
                refuse(Errc::content_head_out_of_range, tp("head"),
                       "head " + std::to_string(t.head[i]) + " outside the document's " + std::to_string(n) + " tokens");
            if (static_cast<unsigned>(t.sent[i]) > 2)
                refuse(Errc::content_bad_sentence_value, tp("sent"), "a sentence value must be 0, 1 or 2");
            conf(t.conf[i], [&] { return tp("conf"); });
        }
        if (!d.has_ents && !d.ents.empty())
            refuse(Errc::content_inconsistent, p + ".ents", "entities are present but has_ents is false");
        prev_end = 0;
        for (std::size_t i = 0; i < d.ents.size(); ++i) {
            const Entity& e = d.ents[i];
            const std::string ep = p + ".ents[" + std::to_string(i) + "]";
            if (e.start < prev_end)
                refuse(Errc::content_entity_order, ep, "overlaps or precedes the previous entity (which ends at token " +
                                                           std::to_string(prev_end) + ")");
            if (e.length == 0) refuse(Errc::content_entity_empty, ep + ".length", "an entity has length 0");
            const std::uint64_t end = std::uint64_t{e.start} + e.length;
            if (end > n)
                refuse(Errc::content_entity_out_of_range, ep,
                       "ends at token " + std::to_string(end) + "; the document has " + std::to_string(n));
            label(e.label, ep + ".label");
            conf(e.conf, ep + ".conf");
            prev_end = end;
        }
        const bool bin = c_.format == Format::ondb;
        if (bin && (d.has_cats || !d.cats.empty() || !d.spans.empty()))
            refuse(Errc::content_bin_extras, p, "a bin's records cannot carry categories or span groups");
        if (!d.has_cats && !d.cats.empty())
            refuse(Errc::content_inconsistent, p + ".cats", "categories are present but has_cats is false");
        std::unordered_set<std::string_view> seen;
        for (std::size_t i = 0; i < d.cats.size(); ++i) {
            const std::string cp = p + ".cats[" + std::to_string(i) + "]";
            std::string_view v = label(d.cats[i].label, cp + ".label");
            if (!seen.insert(v).second) refuse(Errc::content_duplicate_category, cp + ".label", "a category label is repeated");
            if (!detail::confidence_ok(d.cats[i].score))
                refuse(Errc::content_score_out_of_range, cp + ".score", "a category score must be in [0, 1]");
        }
        seen.clear();
        for (std::size_t g = 0; g < d.spans.size(); ++g) {
            const SpanGroup& sg = d.spans[g];
            const std::string gp = p + ".spans[" + std::to_string(g) + "]";
            std::string_view v = label(sg.name, gp + ".name");
            if (!seen.insert(v).second) refuse(Errc::content_duplicate_group, gp + ".name", "a span group name is repeated");
            for (std::size_t i = 0; i < sg.spans.size(); ++i) {
                const Span& s = sg.spans[i];
                const std::string sp = gp + ".spans[" + std::to_string(i) + "]";
                if (s.length == 0) refuse(Errc::content_span_empty, sp + ".length", "a span has length 0");
                const std::uint64_t end = std::uint64_t{s.start} + s.length;
                if (end > n)
                    refuse(Errc::content_span_out_of_range, sp,
                           "ends at token " + std::to_string(end) + "; the document has " + std::to_string(n));
                label(s.label, sp + ".label");
                conf(s.conf, sp + ".conf");
            }
        }
    }

    const Container& c_;
    std::vector<std::uint8_t> valid_;
};

// ---- bytes ------------------------------------------------------------------------------

class Out {
public:
    explicit Out(std::vector<std::byte>& v) : v_(v), pos_(v.size()) {}
    ~Out() { v_.resize(pos_); }

    std::size_t pos() const noexcept { return pos_; }
    std::uint8_t* ensure(std::size_t n) {
        if (pos_ + n > v_.size()) v_.resize(std::max(std::min(v_.size() * 2, v_.capacity()), pos_ + n + 64));
        return reinterpret_cast<std::uint8_t*>(v_.data()) + pos_;
    }
    std::uint8_t* append_zeros(std::size_t n) {
        std::uint8_t* p = ensure(n);
        std::memset(p, 0, n);
        pos_ += n;
        return p;
    }
    void u8(std::uint8_t b) {
        *ensure(1) = b;
        ++pos_;
    }
    void u32(std::uint32_t x) {
        std::uint8_t* p = ensure(4);
        p[0] = static_cast<std::uint8_t>(x);
        p[1] = static_cast<std::uint8_t>(x >> 8);
        p[2] = static_cast<std::uint8_t>(x >> 16);
        p[3] = static_cast<std::uint8_t>(x >> 24);
        pos_ += 4;
    }
    void f32(float f) {
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        u32(bits);
    }
    void varint(std::uint32_t x) {
        std::uint8_t* p = ensure(5);
        std::size_t k = 0;
        if (OND_RULE_OFF("W1-varint"))  // tests only: every varint in 5 bytes
            for (; k < 4; ++k, x >>= 7) p[k] = static_cast<std::uint8_t>(x | 0x80);
        while (x >= 0x80) {
            p[k++] = static_cast<std::uint8_t>(x | 0x80);
            x >>= 7;
        }
        p[k++] = static_cast<std::uint8_t>(x);
        pos_ += k;
    }
    void bytes(const void* src, std::size_t n) {
        if (n == 0) return;
        std::memcpy(ensure(n), src, n);
        pos_ += n;
    }
    void patch_u32(std::size_t at, std::uint32_t x) {
        auto* p = reinterpret_cast<std::uint8_t*>(v_.data()) + at;
        p[0] = static_cast<std::uint8_t>(x);
        p[1] = static_cast<std::uint8_t>(x >> 8);
        p[2] = static_cast<std::uint8_t>(x >> 16);
        p[3] = static_cast<std::uint8_t>(x >> 24);
    }
    // Section frame: id, then a length patched by end_section().
    std::size_t begin_section(std::uint8_t id) {
        u8(id);
        const std::size_t at = pos_;
        u32(0);
        return at;
    }
    // `path` is the content field the bytes hold, for the refusal.
    void end_section(std::size_t at, const std::string& path, const char* what) { patch_len(at, path, what); }
    void patch_len(std::size_t at, const std::string& path, const char* what) {
        const std::uint64_t len = pos_ - at - 4;
        if (len > detail::max_section_bytes)
            refuse(Errc::content_too_large, path, std::string(what) + " would be " + std::to_string(len) + " bytes; at most 2^32 - 1");
        patch_u32(at, static_cast<std::uint32_t>(len));
    }
    const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(v_.data()); }

private:
    std::vector<std::byte>& v_;
    std::size_t pos_;
};

// W1: UTF-8 when well-formed, else UTF-16LE with flag 1.
void put_string(Out& o, std::string_view v) {
    if (!unicode::wtf8_has_surrogate(v) && !OND_RULE_OFF("W1-utf8")) {
        o.varint(static_cast<std::uint32_t>(v.size()) << 1);
        o.bytes(v.data(), v.size());
    } else {
        std::string le;
        unicode::append_utf16le_from_wtf8(le, v);
        o.varint((static_cast<std::uint32_t>(le.size()) << 1) | 1u);
        o.bytes(le.data(), le.size());
    }
}

// W3: the table in order of first use in the body's bytes.
class TableBuilder {
public:
    explicit TableBuilder(const StringStore& s) : s_(s), map_(s.size(), unassigned) {}

    std::uint32_t use(StringId id) {
        std::uint32_t& m = map_[id];
        if (m != unassigned) return m;
        std::string_view v = s_.view(id);
        if (v.empty()) return m = 0;
        auto [it, fresh] = by_value_.emplace(v, static_cast<std::uint32_t>(order_.size() + 1));
        if (fresh) order_.push_back(v);
        return m = it->second;
    }
    void use_doc(const Doc& d) {
        if (OND_RULE_OFF("W3-canonical"))  // tests only: numbered token by token
            for (std::size_t i = 0; i < d.tokens.size(); ++i)
                for (const auto& col : d.tokens.attrs) use(col[i]);
        for (const auto& col : d.tokens.attrs)
            for (StringId id : col) use(id);
        for (const Entity& e : d.ents) use(e.label);
        for (const Category& c : d.cats) use(c.label);
        for (const SpanGroup& g : d.spans) {
            use(g.name);
            for (const Span& s : g.spans) use(s.label);
        }
    }
    const std::vector<std::string_view>& order() const { return order_; }
    // The string table section's size, from the checked strings (W1's form of each).
    std::uint64_t section_bytes() const {
        std::uint64_t n = detail::varint_bytes(order_.size());
        for (std::string_view v : order_) {
            const bool utf16 = unicode::wtf8_has_surrogate(v);
            const std::uint64_t units = utf16 ? unicode::wtf8_utf16_length(v).value_or(0) : 0;
            n += detail::stored_string_bytes(detail::written_string_bytes(v.size(), units, utf16));
        }
        return n;
    }
    std::uint32_t index(StringId id) const {
        if (OND_RULE_OFF("W3-order") && map_[id] != 0)  // tests only: numbered in reverse
            return static_cast<std::uint32_t>(order_.size()) + 1 - map_[id];
        return map_[id];
    }

private:
    static constexpr std::uint32_t unassigned = ~0u;
    const StringStore& s_;
    std::vector<std::uint32_t> map_;
    std::unordered_map<std::string_view, std::uint32_t> by_value_;
    std::vector<std::string_view> order_;
};

void encode_string_table_section(Out& o, const TableBuilder& t) {
    const std::size_t at = o.begin_section(detail::sec_strings);
    const bool unused = OND_RULE_OFF("W3-unused"), reversed = OND_RULE_OFF("W3-order");  // tests only
    o.varint(static_cast<std::uint32_t>(t.order().size() + (unused ? 1 : 0)));
    if (reversed)
        for (auto v = t.order().rbegin(); v != t.order().rend(); ++v) put_string(o, *v);
    else
        for (std::string_view v : t.order()) put_string(o, v);
    if (unused) put_string(o, "unused");
    o.end_section(at, "strings", "the string table");
}

void encode_text_section(Out& o, const Doc& d, const std::string& path) {
    const std::size_t at = o.begin_section(detail::sec_text);
    if (!unicode::wtf8_has_surrogate(d.text) && !OND_RULE_OFF("W1-utf8")) {
        o.u8(0);
        o.bytes(d.text.data(), d.text.size());
    } else {
        o.u8(1);
        std::string le;
        unicode::append_utf16le_from_wtf8(le, d.text);
        o.bytes(le.data(), le.size());
    }
    o.end_section(at, path + ".text", "the text section");
}

void encode_tokens_section(Out& o, const Doc& d, const std::string& path, const TableBuilder& t) {
    const Tokens& tk = d.tokens;
    const auto n = static_cast<std::uint32_t>(tk.size());
    const std::size_t at = o.begin_section(detail::sec_tokens);
    o.varint(n);
    std::uint32_t prev_end = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        o.varint(tk.start[i] - prev_end);
        o.varint(tk.length[i]);
        prev_end = tk.start[i] + tk.length[i];
    }
    for (const auto& col : tk.attrs)
        for (std::uint32_t i = 0; i < n; ++i) o.varint(t.index(col[i]));
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::int32_t delta = static_cast<std::int32_t>(static_cast<std::uint32_t>(tk.head[i]) - i);
        o.varint((static_cast<std::uint32_t>(delta) << 1) ^ static_cast<std::uint32_t>(delta >> 31));
    }
    const std::size_t sent_bytes = (static_cast<std::size_t>(n) + 3) / 4;
    std::uint8_t* p = o.append_zeros(sent_bytes);  // W5: padding bits stay 0
    for (std::uint32_t i = 0; i < n; ++i)
        p[i >> 2] = static_cast<std::uint8_t>(p[i >> 2] | (static_cast<unsigned>(tk.sent[i]) << (2 * (i & 3))));
    if (OND_RULE_OFF("W5-padding") && (n & 3))  // tests only: padding slots hold 1
        p[sent_bytes - 1] = static_cast<std::uint8_t>(p[sent_bytes - 1] | (0x55u << (2 * (n & 3))));
    bool all_one = true;  // W4: bit-for-bit 1.0
    for (float f : tk.conf) {
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        if (bits != 0x3F800000u) {
            all_one = false;
            break;
        }
    }
    if (OND_RULE_OFF("W4")) all_one = false;  // tests only: mode 1 always
    o.u8(all_one ? 0 : 1);
    if (!all_one)
        for (float f : tk.conf) o.f32(f);
    o.end_section(at, path + ".tokens", "the tokens section");
}

void encode_entities_section(Out& o, const Doc& d, const std::string& path, const TableBuilder& t) {
    const std::size_t at = o.begin_section(detail::sec_entities);
    o.varint(static_cast<std::uint32_t>(d.ents.size()));
    std::uint32_t prev_end = 0;
    for (const Entity& e : d.ents) {
        o.varint(e.start - prev_end);
        o.varint(e.length);
        o.varint(t.index(e.label));
        o.f32(e.conf);
        prev_end = e.start + e.length;
    }
    o.end_section(at, path + ".ents", "the entities section");
}

void encode_categories_section(Out& o, const Doc& d, const std::string& path, const TableBuilder& t) {
    const std::size_t at = o.begin_section(detail::sec_categories);
    o.varint(static_cast<std::uint32_t>(d.cats.size()));
    for (const Category& c : d.cats) {
        o.varint(t.index(c.label));
        o.f32(c.score);
    }
    o.end_section(at, path + ".cats", "the categories section");
}

void encode_span_groups_section(Out& o, const Doc& d, const std::string& path, const TableBuilder& t) {
    const std::size_t at = o.begin_section(detail::sec_span_groups);
    o.varint(static_cast<std::uint32_t>(d.spans.size()));
    for (const SpanGroup& g : d.spans) {
        o.varint(t.index(g.name));
        o.varint(static_cast<std::uint32_t>(g.spans.size()));
        for (const Span& s : g.spans) {
            o.varint(s.start);
            o.varint(s.length);
            o.varint(t.index(s.label));
            o.f32(s.conf);
        }
    }
    o.end_section(at, path + ".spans", "the span groups section");
}

// W2: 2, 3 always; 4 when entity annotation is set and there are tokens (R22: without tokens
// there is no entity annotation to write); in ONDC 6 and 7 when present.
void encode_doc_sections(Out& o, const Doc& d, const TableBuilder& t, bool ondc, const std::string& p) {
    encode_text_section(o, d, p);
    encode_tokens_section(o, d, p, t);
    if (d.has_ents && d.tokens.size() > 0) encode_entities_section(o, d, p, t);
    if (ondc && d.has_cats) encode_categories_section(o, d, p, t);
    if (ondc && (!d.spans.empty() || OND_RULE_OFF("W2"))) encode_span_groups_section(o, d, p, t);
}

}  // namespace

void check_writable(const Container& c) { Checker(c).run(); }

void encode_append(const Container& c, std::vector<std::byte>& out) {
    check_writable(c);
    TableBuilder table(c.strings);
    for (const Doc& d : c.docs) table.use_doc(d);
    // Refused before any byte is written; the other lengths are checked as they are patched
    // (their sizes are 64-bit until then).
    if (const std::uint64_t n = table.section_bytes(); n > detail::max_section_bytes)
        refuse(Errc::content_too_large, "strings",
               "the string table would be " + std::to_string(n) + " bytes; a section holds at most 2^32 - 1");

    // One allocation for the whole container in the common case: an upper bound of its size.
    std::size_t estimate = 64;
    for (std::size_t id = 0; id < c.strings.size(); ++id) estimate += c.strings.view(static_cast<StringId>(id)).size() * 2 + 5;
    for (const Doc& d : c.docs) {
        estimate += 64 + d.text.size() * 2 + d.tokens.size() * (5 * 10 + 5) + d.ents.size() * 20 + d.cats.size() * 10;
        for (const SpanGroup& g : d.spans) estimate += 10 + g.spans.size() * 20;
    }
    out.reserve(out.size() + std::min<std::size_t>(estimate, std::size_t{1} << 32));
    const std::size_t start = out.size();
    {
        Out o(out);
        o.bytes(c.format == Format::ondc ? "ONDC" : "ONDB", 4);
        o.u8(1);
        o.u8(0);
        const bool crc = c.crc != OND_RULE_OFF("W5-flags");  // tests only: the other choice
        o.u8(crc ? 1 : 0);
        o.u8(0);
        const std::size_t body_len_at = o.pos();
        o.u32(0);
        encode_string_table_section(o, table);
        if (c.format == Format::ondc) {
            encode_doc_sections(o, c.docs[0], table, true, "doc");
        } else {
            const std::size_t at = o.begin_section(detail::sec_records);
            o.u32(static_cast<std::uint32_t>(c.docs.size()));
            for (std::size_t i = 0; i < c.docs.size(); ++i) {
                const std::size_t rec_at = o.pos();
                o.u32(0);
                const std::string p = "docs[" + std::to_string(i) + "]";
                encode_doc_sections(o, c.docs[i], table, false, p);
                o.patch_len(rec_at, p, "the record");
            }
            o.end_section(at, "docs", "the records section");
        }
        o.patch_len(body_len_at, c.format == Format::ondc ? "doc" : "docs", "the body");
        if (crc) {
            const std::uint32_t crc32 = detail::crc32(o.data() + start, o.pos() - start);
            o.u32(crc32);
        }
    }
}

std::vector<std::byte> encode(const Container& c) {
    std::vector<std::byte> out;
    encode_append(c, out);
    return out;
}

}  // namespace ond
