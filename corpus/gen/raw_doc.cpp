#include "raw_doc.hpp"

#include <map>
#include <stdexcept>

#include "ond/unicode.hpp"

namespace ond::corpus::raw {

void put(Writer& w, const V& v) {
    if (v.bytes)
        w.bytes(*v.bytes);
    else
        w.varint(v.v, v.pad);
}

void put(Writer& w, const SV& v) {
    if (v.bytes)
        w.bytes(*v.bytes);
    else
        w.svarint(v.v, v.pad);
}

static void put_str(Writer& w, const RStr& s) {
    w.varint(s.h ? *s.h : static_cast<std::uint32_t>((s.bytes.size() << 1) | (s.utf16 ? 1u : 0u)), s.h_pad);
    w.bytes(s.bytes);
}

Buf body_of(const RTable& t) {
    Writer w;
    put(w, t.count ? *t.count : V(static_cast<std::uint32_t>(t.entries.size())));
    for (const RStr& s : t.entries) put_str(w, s);
    w.bytes(t.tail);
    return std::move(w.out);
}

Buf body_of(const RText& t) {
    Writer w;
    w.u8(t.enc).bytes(t.bytes);
    return std::move(w.out);
}

Buf body_of(const RTokens& t) {
    Writer w;
    put(w, t.n ? *t.n : V(static_cast<std::uint32_t>(t.gap.size())));
    for (std::size_t i = 0; i < t.gap.size(); ++i) {
        put(w, t.gap[i]);
        put(w, t.len[i]);
    }
    for (const auto& col : t.cols)
        for (const V& v : col) put(w, v);
    for (const SV& h : t.head) put(w, h);
    if (t.sent_bytes) {
        w.bytes(*t.sent_bytes);
    } else {
        Buf packed((t.sent.size() + 3) / 4, 0);
        for (std::size_t i = 0; i < t.sent.size(); ++i)
            packed[i / 4] = static_cast<std::uint8_t>(packed[i / 4] | ((t.sent[i] & 3u) << (2 * (i % 4))));
        w.bytes(packed);
    }
    w.u8(t.conf_mode);
    for (std::uint32_t c : t.conf) w.u32(c);
    w.bytes(t.tail);
    return std::move(w.out);
}

Buf body_of(const REnts& e) {
    Writer w;
    put(w, e.count ? *e.count : V(static_cast<std::uint32_t>(e.ents.size())));
    for (const REnt& x : e.ents) {
        put(w, x.gap);
        put(w, x.len);
        put(w, x.label);
        w.u32(x.conf);
    }
    w.bytes(e.tail);
    return std::move(w.out);
}

Buf body_of(const RCats& c) {
    Writer w;
    put(w, c.count ? *c.count : V(static_cast<std::uint32_t>(c.cats.size())));
    for (const RCat& x : c.cats) {
        put(w, x.label);
        w.u32(x.score);
    }
    w.bytes(c.tail);
    return std::move(w.out);
}

Buf body_of(const RGroups& g) {
    Writer w;
    put(w, g.count ? *g.count : V(static_cast<std::uint32_t>(g.groups.size())));
    for (const RGroup& x : g.groups) {
        put(w, x.name);
        put(w, x.count ? *x.count : V(static_cast<std::uint32_t>(x.spans.size())));
        for (const RSpan& s : x.spans) {
            put(w, s.start);
            put(w, s.len);
            put(w, s.label);
            w.u32(s.conf);
        }
    }
    w.bytes(g.tail);
    return std::move(w.out);
}

Sections doc_sections(const RDoc& d) {
    Sections s;
    if (d.text) s.push_back({2, body_of(*d.text), {}});
    if (d.tokens) s.push_back({3, body_of(*d.tokens), {}});
    if (d.ents) s.push_back({4, body_of(*d.ents), {}});
    if (d.cats) s.push_back({6, body_of(*d.cats), {}});
    if (d.groups) s.push_back({7, body_of(*d.groups), {}});
    return s;
}

Buf frame(const Sections& s) {
    Writer w;
    for (const RSection& x : s) w.section(x.id, x.body, x.length);
    return std::move(w.out);
}

Buf body_of(const RRecords& r) {
    Writer w;
    w.u32(r.count ? *r.count : static_cast<std::uint32_t>(r.records.size()));
    for (const RRecord& rec : r.records) {
        Buf b = frame(rec.sections);
        b.insert(b.end(), rec.tail.begin(), rec.tail.end());
        w.u32(rec.length ? *rec.length : static_cast<std::uint32_t>(b.size()));
        w.bytes(b);
    }
    w.bytes(r.tail);
    return std::move(w.out);
}

RStr utf8(std::string_view s) { RStr r;
    r.bytes = Buf(s.begin(), s.end());
    return r; }

RStr utf16(const std::u16string& units) {
    RStr r;
    r.utf16 = true;
    for (char16_t u : units) {
        r.bytes.push_back(static_cast<std::uint8_t>(u & 0xFF));
        r.bytes.push_back(static_cast<std::uint8_t>(u >> 8));
    }
    return r;
}

namespace {

// Numbers strings in order of first use (W3).
struct Numbering {
    const StringStore& store;
    RTable& table;
    std::map<std::string, std::uint32_t, std::less<>> index;

    std::uint32_t operator()(StringId id) {
        std::string_view s = store.view(id);
        if (s.empty()) return 0;
        if (auto it = index.find(s); it != index.end()) return it->second;
        table.entries.push_back(unicode::wtf8_has_surrogate(s) ? utf16(unicode::utf16_from_wtf8(s)) : utf8(s));
        const auto idx = static_cast<std::uint32_t>(table.entries.size());
        index.emplace(std::string(s), idx);
        return idx;
    }
};

RDoc doc_picture(const DocSlice& d, Numbering& num, bool single) {
    RDoc r;
    RText text;
    if (unicode::wtf8_has_surrogate(d.text)) {
        text.enc = 1;
        text.bytes = utf16(unicode::utf16_from_wtf8(d.text)).bytes;
    } else {
        text.bytes = Buf(d.text.begin(), d.text.end());
    }
    r.text = std::move(text);

    const TokenSlice& t = d.tokens;
    const std::size_t n = t.size();
    RTokens tk;
    std::uint32_t prev_end = 0;
    for (std::size_t i = 0; i < n; ++i) {
        tk.gap.emplace_back(t.start[i] - prev_end);
        tk.len.emplace_back(t.length[i]);
        prev_end = t.start[i] + t.length[i];
    }
    for (std::size_t c = 0; c < token_column_count; ++c)
        for (std::size_t i = 0; i < n; ++i) tk.cols[c].emplace_back(num(t.attrs[c][i]));
    for (std::size_t i = 0; i < n; ++i) tk.head.emplace_back(t.head[i] - static_cast<std::int32_t>(i));
    for (std::size_t i = 0; i < n; ++i) tk.sent.push_back(static_cast<std::uint8_t>(t.sent[i]));
    bool all_one = true;
    for (float f : t.conf) all_one = all_one && float_bits(f) == 0x3F800000u;
    tk.conf_mode = all_one ? 0 : 1;
    if (!all_one)
        for (float f : t.conf) tk.conf.push_back(float_bits(f));
    r.tokens = std::move(tk);

    // W2 (R22): no section 4 without tokens; entities there are unwritable, so keep them
    // (a picture of refused content must still show them).
    if (d.has_ents && (n > 0 || !d.ents.empty())) {
        REnts e;
        std::uint32_t end = 0;
        for (const Entity& x : d.ents) {
            e.ents.push_back(REnt{x.start - end, x.length, num(x.label), float_bits(x.conf)});
            end = x.start + x.length;
        }
        r.ents = std::move(e);
    }
    if (single && d.has_cats) {
        RCats c;
        for (const Category& x : d.cats) c.cats.push_back(RCat{num(x.label), float_bits(x.score)});
        r.cats = std::move(c);
    }
    if (single && !d.spans.empty()) {
        RGroups g;
        for (const SpanGroupSlice grp : d.spans) {
            RGroup rg;
            rg.name = num(grp.name);
            for (const Span& s : grp.spans) rg.spans.push_back(RSpan{s.start, s.length, num(s.label), float_bits(s.conf)});
            g.groups.push_back(std::move(rg));
        }
        r.groups = std::move(g);
    }
    return r;
}

}  // namespace

Canon canon(const Container& c) {
    Canon r;
    r.format = c.format;
    r.crc = c.crc;
    Numbering num{c.strings, r.table, {}};
    for (const DocSlice d : c.docs) r.docs.push_back(doc_picture(d, num, c.format == Format::ondc));
    return r;
}

Sections ondc_sections(const Canon& c) {
    if (c.docs.size() != 1) throw std::logic_error("an ONDC picture needs exactly one document");
    Sections s;
    s.push_back({1, body_of(c.table), {}});
    for (RSection& x : doc_sections(c.docs[0])) s.push_back(std::move(x));
    return s;
}

RRecords ondb_records(const Canon& c) {
    RRecords r;
    for (const RDoc& d : c.docs) r.records.push_back(RRecord{{}, doc_sections(d), {}});
    return r;
}

Sections ondb_sections(const Canon& c, const RRecords& r) {
    Sections s;
    s.push_back({1, body_of(c.table), {}});
    s.push_back({5, body_of(r), {}});
    return s;
}

ContainerSpec spec_for(const Canon& c) {
    ContainerSpec s;
    s.magic = c.format == Format::ondc ? "ONDC" : "ONDB";
    s.crc = c.crc;
    return s;
}

Buf bytes_from(const ContainerSpec& s, const Sections& body) { return container(s, frame(body)); }

Buf bytes(const Canon& c) {
    if (c.format == Format::ondc) return bytes_from(spec_for(c), ondc_sections(c));
    return bytes_from(spec_for(c), ondb_sections(c, ondb_records(c)));
}

}  // namespace ond::corpus::raw
