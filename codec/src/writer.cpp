// The canonical writer (W1-W5): checks that content can be written, then writes its bytes.
//
// encode_append goes in three steps, and writes nothing before the last:
//   1. plan: per document, the checks (the Checker's, in its order), the table of strings in
//      first-use order (W3), and the exact length of every section;
//   2. the length limits, in the order the sections come in the bytes;
//   3. write: the output grows once, by the exact size, and every field goes straight into it
//      (no capacity check per field, no temporary string, no patched length).
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "ond/unicode.hpp"
#include "ond/writer.hpp"
#include "ond/internal/fault.hpp"
#include "ond/internal/sections.hpp"
#include "ond/internal/limits.hpp"

namespace ond {

namespace {

using detail::refuse;  // the writer's refusals (fault.hpp): check sites `return refuse(...)`

// ---- rule switches ----------------------------------------------------------------------

// The writer rules a test-only build can switch off (check_switch.hpp), read once per call.
// In ond::codec they are constants, so the branches on them compile away.
#if defined(OND_CHECK_SWITCHES)
struct Rules {
    bool utf16_always = OND_RULE_OFF(utf8_strings);        // every string and text as UTF-16
    bool varint5 = OND_RULE_OFF(minimal_varints);          // every varint in 5 bytes
    bool empty_groups = OND_RULE_OFF(sections_written);    // section 7 even without span groups
    bool unused = OND_RULE_OFF(table_only_used);           // one more string, used by nothing
    bool reversed = OND_RULE_OFF(first_use_order);         // the table numbered in reverse
    bool token_major = OND_RULE_OFF(canonical_numbering);  // numbered token by token
    bool conf_always = OND_RULE_OFF(confidence_mode);      // confidence mode 1 always
    bool padding_ones = OND_RULE_OFF(zero_padding);        // sentence padding slots hold 1
    bool flip_crc = OND_RULE_OFF(crc_flag);                // the other trailer choice
};
#else
struct Rules {
    static constexpr bool utf16_always = false, varint5 = false, empty_groups = false, unused = false,
                          reversed = false, token_major = false, conf_always = false, padding_ones = false,
                          flip_crc = false;
};
#endif

// ---- checks -----------------------------------------------------------------------------

#include "write_checks.inc"

// ---- sizes and the string table (W1, W3) ------------------------------------------------

#include "write_table.inc"

// ---- the plan ---------------------------------------------------------------------------

// What one document writes: which sections, and each section's length (its content, without
// the 5-byte frame).
struct DocPlan {
    Checker::Text text;
    std::uint64_t span_bytes = 0, attr_bytes = 0, head_bytes = 0;  // the tokens section's varint runs
    bool all_one = true;                                             // W4: confidence mode 0
    bool ents = false, cats = false, groups = false;                 // sections 4, 6, 7 written
    std::uint64_t text_len = 0, tokens_len = 0, ents_len = 0, cats_len = 0, groups_len = 0;
    std::uint64_t sections = 0;  // all of the document's sections, frames included
};

// The token columns, each in a loop of its own with nothing carried from one token to the next
// but sums (so the compiler can vectorise them): the bytes of the span and head varints, W4's
// mode, and whether every token passes the checks that do not involve strings (R17-R21, R3). A
// fault only sends the document to the checker, which finds the first one in its own order.
bool scan_tokens(const Rules& r, const TokenSlice& t, std::uint64_t text_units, DocPlan& plan) noexcept {
    const std::size_t n = t.size();
    const std::uint32_t* start = t.start.data();
    const std::uint32_t* length = t.length.data();
    const std::int32_t* head = t.head.data();
    const Sentence* sent = t.sent.data();
    const float* conf = t.conf.stored();  // nullptr: every one is 1.0
    // The text's length fits 32 bits (Checker::text refused it otherwise). An end past 2^32
    // wraps, and is caught by its wrapping; a gap after it is then never used.
    const auto text_len = static_cast<std::uint32_t>(text_units);
    std::uint32_t bad = 0;
    std::uint64_t spans = 0, heads = 0;
    if (n > 0) {
        const std::uint32_t end0 = start[0] + length[0];
        bad |= std::uint32_t{length[0] == 0} | std::uint32_t{end0 < start[0]} | std::uint32_t{end0 > text_len};
        spans += varint_size(start[0]) + varint_size(length[0]);
    }
    for (std::size_t i = 1; i < n; ++i) {
        const std::uint32_t s = start[i], len = length[i], prev_end = start[i - 1] + length[i - 1];
        const std::uint32_t end = s + len;
        bad |= std::uint32_t{s < prev_end} | std::uint32_t{len == 0} | std::uint32_t{end < s} | std::uint32_t{end > text_len};
        spans += varint_size(s - prev_end) + varint_size(len);
    }
    const auto count = static_cast<std::uint32_t>(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto h = static_cast<std::uint32_t>(head[i]);
        bad |= std::uint32_t{h >= count};  // a negative head is >= 2^31
        heads += varint_size(zigzag(h, static_cast<std::uint32_t>(i)));
    }
    std::uint8_t bad_sent = 0;
    for (std::size_t i = 0; i < n; ++i) bad_sent |= static_cast<std::uint8_t>(static_cast<std::uint8_t>(sent[i]) > 2);
    std::uint32_t not_one = 0;
    for (std::size_t i = 0; conf && i < n; ++i) {
        const float f = conf[i];
        bad |= std::uint32_t{!(f >= 0.0f)} | std::uint32_t{!(f <= 1.0f)};
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        not_one |= bits ^ 0x3F800000u;
    }
    plan.span_bytes = r.varint5 ? 10 * std::uint64_t{n} : spans;
    plan.head_bytes = r.varint5 ? 5 * std::uint64_t{n} : heads;
    plan.all_one = not_one == 0 && !r.conf_always;
    return bad == 0 && bad_sent == 0;
}

// Adds the lengths of ids[0..n) to `bytes`, one at a time and in order through Table::use,
// numbering each first use; false when a string is refused (or an id is outside the store).
template <class Id>
bool first_uses(Table& table, const Id* ids, std::size_t n, std::uint64_t& bytes) {
    for (std::size_t i = 0; i < n; ++i) {
        const Code c = table.use(ids[i]);
        if (c == Table::none) return false;
        bytes += code_length(c);
    }
    return true;
}

// The attribute columns' strings, column after column (the order of the body's bytes); returns
// the bytes of their indexes, or `fault` when a string is refused.
constexpr std::uint64_t fault = ~std::uint64_t{0};
std::uint64_t use_attrs(const Rules& r, Table& table, const TokenSlice& t) {
    const std::size_t n = t.size();
    if (r.token_major)  // tests only: numbered token by token
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& col : t.attrs)
                if (table.use(col[i]) == Table::none) return fault;
    // The lengths never move (one per store id, sized once), so the loop keeps them in
    // registers. Blocks of 8 ids are summed without a branch per id (an id outside the store is
    // clamped to the entry past the last, which is `unused`); a block whose sum shows an
    // `unused` is taken again one id at a time, in order, calling out on each first use.
    const std::uint8_t* const lengths = table.lengths();
    const std::size_t store = table.store_size();
    static_assert(8 * 5 < Table::unused);
    std::uint64_t bytes = 0;
    for (const Ids& col : t.attrs) {
        const bool ok = col.visit([&](auto column) {  // 2 or 4 bytes an id (IdColumn)
            const auto* ids = column.data();
            for (std::size_t i = 0; i < n; i += 8) {
                const std::size_t m = n - i < 8 ? n - i : 8;  // the last block may be short
                std::uint32_t block = 0;
                for (std::size_t k = 0; k < m; ++k) block += lengths[std::min<std::size_t>(ids[i + k], store)];
                if (block < Table::unused) [[likely]] {
                    bytes += block;
                    continue;
                }
                if (!first_uses(table, ids + i, m, bytes)) return false;
            }
            return true;
        });
        if (!ok) return fault;
    }
    return bytes;
}

void use_labels(Table& table, const DocSlice& d) {
    for (const Entity& e : d.ents) table.use(e.label);
    for (const Category& c : d.cats) table.use(c.label);
    for (const SpanGroupSlice g : d.spans) {
        table.use(g.name);
        for (const Span& s : g.spans) table.use(s.label);
    }
}

// Checks document i and adds its strings to the table, in the Checker's order of checks.
void plan_doc(const Rules& r, const DocSlice& d, std::size_t i, Checker& check, Table& table, DocPlan& plan) {
    plan.text = check.text(i, d);
    OND_BAIL();
    check.token_shape(i, d);
    OND_BAIL();
    const bool tokens_ok = scan_tokens(r, d.tokens, plan.text.units, plan);
    if (!tokens_ok) {
        check.tokens(i);  // refuses
        OND_BAIL();
    }
    const std::uint64_t attrs = use_attrs(r, table, d.tokens);
    if (attrs == fault) {
        check.tokens(i);  // refuses
        OND_BAIL();
        detail::raise_logic<std::logic_error>("ond::encode: a string the table refused passed the checks");
    }
    plan.attr_bytes = attrs;
    check.rest(i, d);
    OND_BAIL();
    use_labels(table, d);
}

// Section lengths (after every document is planned: they need the final table indexes), and
// the format's limits on them, in the order the sections come in the bytes.
void size_doc(const Rules& r, const Container& c, const DocSlice& d, std::size_t i, const Checker& check,
              const Table& table, DocPlan& plan) {
    const bool ondc = c.format == Format::ondc;
    const std::uint64_t n = d.tokens.size();
    auto limit = [&](std::uint64_t len, const char* field, const char* what) {
        if (len > detail::max_section_bytes)
            return void(refuse(Errc::content_too_large, check.path(i) + field,
                               std::string(what) + " would be " + detail::count_of(len, "byte", "bytes") + "; at most 2^32 - 1"));
    };
    // W2: 2, 3 always; 4 when entity annotation is set and there are tokens (R22: without
    // tokens there is no entity annotation to write); in ONDC 6 and 7 when present.
    plan.ents = d.has_ents && n > 0;
    plan.cats = ondc && d.has_cats;
    plan.groups = ondc && (!d.spans.empty() || r.empty_groups);

    const bool text16 = plan.text.utf16 || r.utf16_always;
    plan.text_len = 1 + (text16 ? 2 * plan.text.units : d.text.size());
    limit(plan.text_len, ".text", "the text section");
    OND_BAIL();

    if (r.reversed) {  // tests only: the indexes' sizes change with the numbering
        plan.attr_bytes = 0;
        for (const auto& col : d.tokens.attrs)
            for (StringId id : col) plan.attr_bytes += code_length(table.code(id));
    }
    plan.tokens_len = vsize(r, n) + plan.span_bytes + plan.attr_bytes + plan.head_bytes + (n + 3) / 4 + 1 +
                      (plan.all_one ? 0 : 4 * n);
    limit(plan.tokens_len, ".tokens", "the tokens section");
    OND_BAIL();
    plan.sections = 5 + plan.text_len + 5 + plan.tokens_len;

    if (plan.ents) {
        std::uint64_t len = vsize(r, d.ents.size());
        std::uint32_t prev_end = 0;
        for (const Entity& e : d.ents) {
            len += vsize(r, e.start - prev_end) + vsize(r, e.length) + vsize(r, table.index(e.label)) + 4;
            prev_end = e.start + e.length;
        }
        plan.ents_len = len;
        limit(len, ".ents", "the entities section");
        OND_BAIL();
        plan.sections += 5 + len;
    }
    if (plan.cats) {
        std::uint64_t len = vsize(r, d.cats.size());
        for (const Category& cat : d.cats) len += vsize(r, table.index(cat.label)) + 4;
        plan.cats_len = len;
        limit(len, ".cats", "the categories section");
        OND_BAIL();
        plan.sections += 5 + len;
    }
    if (plan.groups) {
        std::uint64_t len = vsize(r, d.spans.size());
        for (const SpanGroupSlice g : d.spans) {
            len += vsize(r, table.index(g.name)) + vsize(r, g.spans.size());
            for (const Span& s : g.spans)
                len += vsize(r, s.start) + vsize(r, s.length) + vsize(r, table.index(s.label)) + 4;
        }
        plan.groups_len = len;
        limit(len, ".spans", "the span groups section");
        OND_BAIL();
        plan.sections += 5 + len;
    }
    if (!ondc && plan.sections > detail::max_section_bytes)
        return void(refuse(Errc::content_too_large, check.path(i),
                           "the record would be " + detail::count_of(plan.sections, "byte", "bytes") + "; at most 2^32 - 1"));
}

// ---- bytes ------------------------------------------------------------------------------

// Writes into memory the plan has sized exactly: no field checks for room.
class Out {
public:
    Out(std::uint8_t* p, const Rules& r) noexcept : p_(p), r_(r) {}

    std::uint8_t* pos() const noexcept { return p_; }
    void u8(std::uint8_t b) noexcept { *p_++ = b; }
    void u32(std::uint32_t x) noexcept {
        std::memcpy(p_, &x, 4);  // little-endian host (checked in header.cpp)
        p_ += 4;
    }
    void f32(float f) noexcept {
        std::memcpy(p_, &f, 4);
        p_ += 4;
    }
    void varint(std::uint32_t x) noexcept {
        if (r_.varint5) {  // tests only: every varint in 5 bytes
            for (int k = 0; k < 4; ++k, x >>= 7) *p_++ = static_cast<std::uint8_t>(x | 0x80);
            *p_++ = static_cast<std::uint8_t>(x);
            return;
        }
        if (x < 0x80) [[likely]] {
            *p_++ = static_cast<std::uint8_t>(x);
            return;
        }
        if (x < 0x4000) {
            p_[0] = static_cast<std::uint8_t>(x | 0x80);
            p_[1] = static_cast<std::uint8_t>(x >> 7);
            p_ += 2;
            return;
        }
        while (x >= 0x80) {
            *p_++ = static_cast<std::uint8_t>(x | 0x80);
            x >>= 7;
        }
        *p_++ = static_cast<std::uint8_t>(x);
    }
    // n varints, the i-th get(i), in bulk: from a local cursor (a store through a byte pointer
    // may alias anything, so a member cursor would be reloaded at every byte), and a value
    // below 2^14 written without a branch as two bytes of which the second is kept only when
    // needed. So the byte after the run may be written over: a run must be followed by at
    // least one more byte of the same container (the tokens section's runs are: the
    // confidence mode comes last).
    template <class Get>
    void varint_run(std::size_t n, Get get) noexcept {
        if (r_.varint5) {  // tests only
            for (std::size_t i = 0; i < n; ++i) varint(get(i));
            return;
        }
        std::uint8_t* p = p_;
        for (std::size_t i = 0; i < n; ++i) p = put_varint(p, get(i));
        p_ = p;
    }
    // The tokens section's spans: token i's gap from the previous token's end, then its length
    // (a run as above, two varints a token).
    void span_run(const std::uint32_t* start, const std::uint32_t* length, std::size_t n) noexcept {
        if (r_.varint5) {  // tests only
            varint_run(2 * n, [&](std::size_t k) {
                const std::size_t i = k >> 1;
                return k & 1 ? length[i] : i == 0 ? start[0] : start[i] - (start[i - 1] + length[i - 1]);
            });
            return;
        }
        std::uint8_t* p = p_;
        std::uint32_t prev_end = 0;
        for (std::size_t i = 0; i < n; ++i) {
            p = put_varint(p, start[i] - prev_end);
            p = put_varint(p, length[i]);
            prev_end = start[i] + length[i];
        }
        p_ = p;
    }
    // n table indexes, the Codes of ids[0..n), each copied as 8 bytes of which the first
    // code_length() are kept: a store that may run past the run's end is safe only while at
    // least 7 bytes follow the value's first byte in the container, so the values that cannot
    // promise it (`after`: bytes sure to follow the run) are copied byte by byte.
    template <class Id>
    void code_run(const Code* codes, const Id* ids, std::size_t n, std::size_t after) noexcept {
        std::uint8_t* p = p_;
        const std::size_t wide = n + after >= 7 ? n + after - 7 : 0;  // values i < wide have 7 bytes after them
        std::size_t i = 0;
        for (const std::size_t end = wide < n ? wide : n; i < end; ++i) {
            const Code c = codes[ids[i]];
            std::memcpy(p, &c, 8);
            p += code_length(c);
        }
        for (; i < n; ++i) {
            const Code c = codes[ids[i]];
            for (unsigned k = 0; k < code_length(c); ++k) *p++ = static_cast<std::uint8_t>(c >> (8 * k));
        }
        p_ = p;
    }
    void bytes(const void* src, std::size_t n) noexcept {
        if (n == 0) return;
        std::memcpy(p_, src, n);
        p_ += n;
    }
    void utf16le(std::string_view wtf8) noexcept { p_ += unicode::write_utf16le_from_wtf8(p_, wtf8); }
    // A section's frame: id, then its length (checked against the limit by the plan).
    void frame(std::uint8_t id, std::uint64_t len) noexcept {
        u8(id);
        u32(static_cast<std::uint32_t>(len));
    }
    // `n` sentence values (each <= 2), four to a byte from the low bits; the padding is 0 (W5).
    void sentences(const Sentence* s, std::size_t n) noexcept {
        static_assert(sizeof(Sentence) == 1);
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {
            std::uint32_t w;
            std::memcpy(&w, s + i, 4);
            *p_++ = static_cast<std::uint8_t>((w & 0x03u) | ((w >> 6) & 0x0Cu) | ((w >> 12) & 0x30u) | ((w >> 18) & 0xC0u));
        }
        if (i < n) {
            unsigned b = 0;
            for (unsigned k = 0; i + k < n; ++k) b |= static_cast<unsigned>(s[i + k]) << (2 * k);
            if (r_.padding_ones) b |= 0x55u << (2 * (n & 3));  // tests only: padding slots hold 1
            *p_++ = static_cast<std::uint8_t>(b);
        }
    }

private:
    // One varint at p (a value below 2^14 as two bytes in one store, the second kept only when
    // needed); returns the byte after it.
    static std::uint8_t* put_varint(std::uint8_t* p, std::uint32_t x) noexcept {
        if (x < 0x4000) [[likely]] {
            const std::uint32_t two = x >= 0x80;
            const auto w = static_cast<std::uint16_t>((x & 0x7Fu) | (two << 7) | ((x >> 7) << 8));
            std::memcpy(p, &w, 2);  // little-endian host (checked in header.cpp)
            return p + 1 + two;
        }
        while (x >= 0x80) {
            *p++ = static_cast<std::uint8_t>(x | 0x80);
            x >>= 7;
        }
        *p++ = static_cast<std::uint8_t>(x);
        return p;
    }

    std::uint8_t* p_;
    const Rules& r_;
};

void put_string(Out& o, const Rules& r, const Table::Entry& e) {
    if (!Table::as_utf16(r, e)) {
        o.varint(static_cast<std::uint32_t>(e.value.size()) << 1);
        o.bytes(e.value.data(), e.value.size());
    } else {
        o.varint((static_cast<std::uint32_t>(2 * e.units) << 1) | 1u);
        o.utf16le(e.value);
    }
}

void write_string_table(Out& o, const Rules& r, const Table& t, std::uint64_t len) {
    o.frame(detail::sec_strings, len);
    const auto& entries = t.entries();
    o.varint(static_cast<std::uint32_t>(entries.size() + (r.unused ? 1 : 0)));
    if (r.reversed)  // tests only
        for (auto e = entries.rbegin(); e != entries.rend(); ++e) put_string(o, r, *e);
    else
        for (const Table::Entry& e : entries) put_string(o, r, e);
    if (r.unused) put_string(o, r, Table::Entry{"unused", 6, false});  // tests only
}

void write_tokens(Out& o, const DocSlice& d, const DocPlan& plan, const Table& t) {
    const TokenSlice& tk = d.tokens;
    const auto n = static_cast<std::uint32_t>(tk.size());
    o.frame(detail::sec_tokens, plan.tokens_len);
    o.varint(n);
    const std::uint32_t* start = tk.start.data();
    const std::uint32_t* length = tk.length.data();
    // Gap and length alternate: item 2i is token i's gap from the previous end, 2i + 1 its length.
    o.span_run(start, length, n);
    // Each attribute run is followed by at least the heads (n bytes), the sentences and the mode.
    const std::size_t after_attrs = std::size_t{n} + 2;
    for (const Ids& col : tk.attrs) col.visit([&](auto ids) { o.code_run(t.codes(), ids.data(), n, after_attrs); });
    const std::int32_t* head = tk.head.data();
    o.varint_run(n, [&](std::size_t i) { return zigzag(static_cast<std::uint32_t>(head[i]), static_cast<std::uint32_t>(i)); });
    o.sentences(tk.sent.data(), n);
    o.u8(plan.all_one ? 0 : 1);
    if (!plan.all_one) {
        if (const float* conf = tk.conf.stored())
            o.bytes(conf, 4 * std::size_t{n});  // little-endian host
        else
            for (std::uint32_t i = 0; i < n; ++i) o.f32(1.0f);  // mode 1 by a switched-off W4
    }
}

void write_doc(Out& o, const Rules& r, const DocSlice& d, const DocPlan& plan, const Table& t) {
    o.frame(detail::sec_text, plan.text_len);
    if (!plan.text.utf16 && !r.utf16_always) {
        o.u8(0);
        o.bytes(d.text.data(), d.text.size());
    } else {
        o.u8(1);
        o.utf16le(d.text);
    }
    write_tokens(o, d, plan, t);
    if (plan.ents) {
        o.frame(detail::sec_entities, plan.ents_len);
        o.varint(static_cast<std::uint32_t>(d.ents.size()));
        std::uint32_t prev_end = 0;
        for (const Entity& e : d.ents) {
            o.varint(e.start - prev_end);
            o.varint(e.length);
            o.varint(t.index(e.label));
            o.f32(e.conf);
            prev_end = e.start + e.length;
        }
    }
    if (plan.cats) {
        o.frame(detail::sec_categories, plan.cats_len);
        o.varint(static_cast<std::uint32_t>(d.cats.size()));
        for (const Category& c : d.cats) {
            o.varint(t.index(c.label));
            o.f32(c.score);
        }
    }
    if (plan.groups) {
        o.frame(detail::sec_span_groups, plan.groups_len);
        o.varint(static_cast<std::uint32_t>(d.spans.size()));
        for (const SpanGroupSlice g : d.spans) {
            o.varint(t.index(g.name));
            o.varint(static_cast<std::uint32_t>(g.spans.size()));
            for (const Span& s : g.spans) {
                o.varint(s.start);
                o.varint(s.length);
                o.varint(t.index(s.label));
                o.f32(s.conf);
            }
        }
    }
}

}  // namespace

void check_writable(const Container& c) { Checker(c).run(); }

void encode_append(const Container& c, std::vector<std::byte>& out) {
    const Rules r;
    const bool ondc = c.format == Format::ondc;

    // 1. Checks and the table, document by document.
    Checker check(c);
    check.container();
    OND_BAIL();
    Table table(c.strings, r);
    // Every token's six ids could each be a first use; labels are few next to them.
    table.reserve(token_column_count * c.docs.token_columns().size() + 64);
    std::vector<DocPlan> plans(c.docs.size());
    for (std::size_t i = 0; i < c.docs.size(); ++i) {
        plan_doc(r, c.docs[i], i, check, table, plans[i]);
        OND_BAIL();
    }
    if (r.reversed) table.renumber_reversed();  // tests only

    // 2. Lengths and their limits, in the order of the bytes.
    const std::uint64_t strings_len = table.section_bytes(r);
    if (strings_len > detail::max_section_bytes)
        return void(refuse(Errc::content_too_large, "strings",
                           "the string table would be " + detail::count_of(strings_len, "byte", "bytes") +
                               "; a section holds at most 2^32 - 1"));
    std::uint64_t docs_len = 0;  // ONDC: the document's sections; ONDB: the records section's content
    for (std::size_t i = 0; i < c.docs.size(); ++i) {
        size_doc(r, c, c.docs[i], i, check, table, plans[i]);
        OND_BAIL();
        docs_len += plans[i].sections + (ondc ? 0 : 4);
    }
    if (!ondc) {
        docs_len += 4;
        if (docs_len > detail::max_section_bytes)
            return void(refuse(Errc::content_too_large, "docs",
                               "the records section would be " + detail::count_of(docs_len, "byte", "bytes") + "; at most 2^32 - 1"));
        docs_len += 5;
    }
    const std::uint64_t body_len = 5 + strings_len + docs_len;
    if (body_len > detail::max_section_bytes)
        return void(refuse(Errc::content_too_large, ondc ? "doc" : "docs",
                           "the body would be " + detail::count_of(body_len, "byte", "bytes") + "; at most 2^32 - 1"));
    const bool crc = c.crc != r.flip_crc;
    const std::uint64_t total = 12 + body_len + (crc ? 4 : 0);

    // 3. The bytes, into memory grown once by exactly their size.
    const std::size_t at = out.size();
    out.resize(at + static_cast<std::size_t>(total));
    auto* const begin = reinterpret_cast<std::uint8_t*>(out.data()) + at;
    Out o(begin, r);
    o.bytes(ondc ? "ONDC" : "ONDB", 4);
    o.u8(1);
    o.u8(0);
    o.u8(crc ? 1 : 0);
    o.u8(0);
    o.u32(static_cast<std::uint32_t>(body_len));
    write_string_table(o, r, table, strings_len);
    if (ondc) {
        write_doc(o, r, c.docs[0], plans[0], table);
    } else {
        o.frame(detail::sec_records, docs_len - 5);
        o.u32(static_cast<std::uint32_t>(c.docs.size()));
        for (std::size_t i = 0; i < c.docs.size(); ++i) {
            o.u32(static_cast<std::uint32_t>(plans[i].sections));
            write_doc(o, r, c.docs[i], plans[i], table);
        }
    }
    if (crc) o.u32(detail::crc32(begin, static_cast<std::size_t>(o.pos() - begin)));
    if (o.pos() != begin + total) {  // the plan and the writing disagree: a bug here, never the content's
        out.resize(at);
        detail::raise_logic<std::logic_error>("ond::encode: the planned size differs from the bytes written");
    }
}

std::vector<std::byte> encode(const Container& c) {
    std::vector<std::byte> out;
    encode_append(c, out);
    OND_BAIL({});
    return out;
}

}  // namespace ond
