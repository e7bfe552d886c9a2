// The canonical writer (W1-W5): checks that content can be written, then writes its bytes.
//
// encode_append goes in three steps, and writes nothing before the last:
//   1. plan: per document, the checks (the Checker's, in its order), the table of strings in
//      first-use order (W3), and the exact length of every section;
//   2. the length limits, in the order the sections come in the bytes;
//   3. write: the output grows once, by the exact size, and every field goes straight into it
//      (no capacity check per field, no temporary string, no patched length).
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "ond/unicode.hpp"
#include "ond/writer.hpp"
#include "fault.hpp"
#include "sections.hpp"
#include "write_limits.hpp"

namespace ond {

namespace {

// Raises the writer's refusal (fault.hpp): check sites `return refuse(...)`.
OND_NORETURN_IF_THROWING detail::Bail refuse(Errc e, std::string path, std::string detail) {
#if OND_EXCEPTIONS
    throw Error(e, no_offset, std::move(detail), std::move(path));
#else
    return detail::raise(Error(e, no_offset, std::move(detail), std::move(path)));
#endif
}

// ---- rule switches ----------------------------------------------------------------------

// The writer rules a test-only build can switch off (check_switch.hpp), read once per call.
// In ond::codec they are constants, so the branches on them compile away.
#if defined(OND_CHECK_SWITCHES)
struct Rules {
    bool utf16_always = OND_RULE_OFF("W1-utf8");     // every string and text as UTF-16
    bool varint5 = OND_RULE_OFF("W1-varint");        // every varint in 5 bytes
    bool empty_groups = OND_RULE_OFF("W2");          // section 7 even without span groups
    bool unused = OND_RULE_OFF("W3-unused");         // one more string, used by nothing
    bool reversed = OND_RULE_OFF("W3-order");        // the table numbered in reverse
    bool token_major = OND_RULE_OFF("W3-canonical"); // numbered token by token
    bool conf_always = OND_RULE_OFF("W4");           // confidence mode 1 always
    bool padding_ones = OND_RULE_OFF("W5-padding");  // sentence padding slots hold 1
    bool flip_crc = OND_RULE_OFF("W5-flags");        // the other trailer choice
};
#else
struct Rules {
    static constexpr bool utf16_always = false, varint5 = false, empty_groups = false, unused = false,
                          reversed = false, token_major = false, conf_always = false, padding_ones = false,
                          flip_crc = false;
};
#endif

// ---- checks -----------------------------------------------------------------------------

// Paths and messages are built only on refusal.
class Checker {
public:
    explicit Checker(const Container& c) : c_(c), valid_(c.strings.size(), 0) {}

    void run() {
        container();
        OND_BAIL();
        for (std::size_t i = 0; i < c_.docs.size(); ++i) {
            doc(i);
            OND_BAIL();
        }
    }

    void container() const {
        if (c_.format == Format::ondc && c_.docs.size() != 1)
            return void(refuse(Errc::content_inconsistent, "docs",
                   "an ONDC container holds exactly one document, not " + std::to_string(c_.docs.size())));
        if (c_.docs.size() > 0xFFFFFFFFull) return void(refuse(Errc::content_too_large, "docs", "more than 2^32 - 1 documents"));
    }

    // "doc" in an ONDC container, "docs[i]" in a bin.
    std::string path(std::size_t i) const {
        return c_.format == Format::ondc ? std::string("doc") : "docs[" + std::to_string(i) + "]";
    }

    // All of one document's checks, in the order below; the first fault is refused.
    void doc(std::size_t i) {
        const DocSlice d = c_.docs[i];
        text(i, d);
        OND_BAIL();
        token_shape(i, d);
        OND_BAIL();
        tokens(i);
        OND_BAIL();
        rest(i, d);
    }

    // The text: valid WTF-8 whose section fits. Returns what the writer needs of it.
    struct Text {
        std::uint64_t units = 0;    // UTF-16 code units
        std::uint64_t written = 0;  // bytes as W1 writes them
        bool utf16 = false;         // holds a lone surrogate (W1: written as UTF-16)
    };
    // (Each check takes document i's slice `d` too: building it is not free, and plan_doc has it.)
    Text text(std::size_t i, const DocSlice& d) const {
        auto text_len = unicode::wtf8_utf16_length(d.text);
        if (!text_len) return refuse(Errc::content_invalid_string, path(i) + ".text", "the text is not valid WTF-8");
        const bool utf16 = unicode::wtf8_has_surrogate(d.text);
        const std::uint64_t written = detail::written_string_bytes(d.text.size(), *text_len, utf16);
        const std::uint64_t text_bytes = detail::text_section_bytes(written);
        if (*text_len > 0xFFFFFFFFull || text_bytes > detail::max_section_bytes)
            return refuse(Errc::content_too_large, path(i) + ".text",
                          std::string("the text section would be ") + detail::count_of(text_bytes, "byte", "bytes") +
                              " (text written as " + (utf16 ? "UTF-16" : "UTF-8") + "); a section holds at most 2^32 - 1");
        return {*text_len, written, utf16};
    }

    // The token count (a container's columns always agree in size).
    void token_shape(std::size_t i, const DocSlice& d) const {
        const TokenSlice& t = d.tokens;
        const std::size_t n = t.size();
        if (n > detail::max_tokens)
            return void(refuse(Errc::content_too_large, path(i) + ".tokens",
                               detail::count_of(n, "token", "tokens") + "; at most " + detail::grouped(detail::max_tokens)));
    }

    // Token by token, each token's fields in order (after text() and token_shape()).
    void tokens(std::size_t di) {
        const DocSlice d = c_.docs[di];
        const TokenSlice& t = d.tokens;
        const std::size_t n = t.size();
        const std::uint64_t text_len = unicode::wtf8_utf16_length(d.text).value_or(0);
        std::uint64_t prev_end = 0;
        for (std::size_t i = 0; i < n; ++i) {
            auto tp = [&](const char* field) {
                return path(di) + ".tokens[" + std::to_string(i) + "]" + (*field ? "." : "") + field;
            };
            if (t.start[i] < prev_end)
                return void(refuse(Errc::content_token_order, tp("start"),
                                   "starts at " + std::to_string(t.start[i]) + ", before the previous token's end " +
                                       std::to_string(prev_end)));
            if (t.length[i] == 0) return void(refuse(Errc::content_token_empty, tp("length"), "a token has length 0"));
            const std::uint64_t end = std::uint64_t{t.start[i]} + t.length[i];
            if (end > text_len)
                return void(refuse(Errc::content_token_out_of_text, tp(""),
                                   "ends at " + std::to_string(end) + ", past the text's " +
                                       detail::count_of(text_len, "UTF-16 unit", "UTF-16 units")));
            prev_end = end;
            for (std::size_t c = 0; c < token_column_count; ++c) {
                str(t.attrs[c][i], [&] { return tp(token_column_names[c]); });
                OND_BAIL();
            }
            if (t.head[i] < 0 || static_cast<std::uint64_t>(t.head[i]) >= n)
                return void(refuse(Errc::content_head_out_of_range, tp("head"),
                                   "head " + std::to_string(t.head[i]) + " outside the document's " +
                                       detail::count_of(n, "token", "tokens")));
            if (static_cast<unsigned>(t.sent[i]) > 2)
                return void(refuse(Errc::content_bad_sentence_value, tp("sent"), "a sentence value must be 0, 1 or 2"));
            conf(t.conf[i], [&] { return tp("conf"); });
            OND_BAIL();
        }
    }

    // Entities, categories and span groups (after tokens()).
    void rest(std::size_t di, const DocSlice& d) {
        const std::size_t n = d.tokens.size();
        if (!d.has_ents && !d.ents.empty())
            return void(refuse(Errc::content_inconsistent, path(di) + ".ents", "entities are present but has_ents is false"));
        std::uint64_t prev_end = 0;
        for (std::size_t i = 0; i < d.ents.size(); ++i) {
            const Entity& e = d.ents[i];
            auto ep = [&](const char* field) { return path(di) + ".ents[" + std::to_string(i) + "]" + field; };
            if (e.start < prev_end)
                return void(refuse(Errc::content_entity_order, ep(""),
                                   "overlaps or precedes the previous entity (which ends at token " + std::to_string(prev_end) +
                                       ")"));
            if (e.length == 0) return void(refuse(Errc::content_entity_empty, ep(".length"), "an entity has length 0"));
            const std::uint64_t end = std::uint64_t{e.start} + e.length;
            if (end > n)
                return void(refuse(Errc::content_entity_out_of_range, ep(""),
                                   "ends at token " + std::to_string(end) + "; the document has " + std::to_string(n)));
            label(e.label, [&] { return ep(".label"); });
            OND_BAIL();
            conf(e.conf, [&] { return ep(".conf"); });
            OND_BAIL();
            prev_end = end;
        }
        const bool bin = c_.format == Format::ondb;
        if (bin && (d.has_cats || !d.cats.empty() || !d.spans.empty()))
            return void(refuse(Errc::content_bin_extras, path(di), "a bin's records cannot carry categories or span groups"));
        if (!d.has_cats && !d.cats.empty())
            return void(refuse(Errc::content_inconsistent, path(di) + ".cats", "categories are present but has_cats is false"));
        std::unordered_set<std::string_view> seen;
        for (std::size_t i = 0; i < d.cats.size(); ++i) {
            auto cp = [&](const char* field) { return path(di) + ".cats[" + std::to_string(i) + "]" + field; };
            std::string_view v = label(d.cats[i].label, [&] { return cp(".label"); });
            OND_BAIL();
            if (!seen.insert(v).second)
                return void(refuse(Errc::content_duplicate_category, cp(".label"), "a category label is repeated"));
            if (OND_CHECK(Errc::content_score_out_of_range, !detail::confidence_ok(d.cats[i].score)))  // relaxable: R4
                return void(refuse(Errc::content_score_out_of_range, cp(".score"), "a category score must be in [0, 1]"));
        }
        seen.clear();
        for (std::size_t g = 0; g < d.spans.size(); ++g) {
            const SpanGroupSlice sg = d.spans[g];
            auto gp = [&] { return path(di) + ".spans[" + std::to_string(g) + "]"; };
            std::string_view v = label(sg.name, [&] { return gp() + ".name"; });
            OND_BAIL();
            if (OND_CHECK(Errc::content_duplicate_group, !seen.insert(v).second))  // relaxable: R24
                return void(refuse(Errc::content_duplicate_group, gp() + ".name", "a span group name is repeated"));
            for (std::size_t i = 0; i < sg.spans.size(); ++i) {
                const Span& s = sg.spans[i];
                auto sp = [&](const char* field) { return gp() + ".spans[" + std::to_string(i) + "]" + field; };
                if (s.length == 0) return void(refuse(Errc::content_span_empty, sp(".length"), "a span has length 0"));
                const std::uint64_t end = std::uint64_t{s.start} + s.length;
                if (end > n)
                    return void(refuse(Errc::content_span_out_of_range, sp(""),
                                       "ends at token " + std::to_string(end) + "; the document has " + std::to_string(n)));
                label(s.label, [&] { return sp(".label"); });
                OND_BAIL();
                conf(s.conf, [&] { return sp(".conf"); });
                OND_BAIL();
            }
        }
    }

private:
    // A string id must be in the store and its value valid WTF-8; returns the value.
    // `path` is a callable returning the field's path.
    template <class P>
    std::string_view str(StringId id, const P& path) {
        if (!c_.strings.contains(id))
            return refuse(Errc::content_bad_string_id, path(),
                   "string id " + std::to_string(id) + " is not in the store (" + detail::count_of(c_.strings.size(), "string", "strings") +
                       ")");
        std::string_view v = c_.strings.view(id);
        if (!valid_[id]) {
            const auto units = unicode::wtf8_utf16_length(v);
            if (!units) return refuse(Errc::content_invalid_string, path(), "the string is not valid WTF-8");
            const bool utf16 = unicode::wtf8_has_surrogate(v);
            const std::uint64_t written = detail::written_string_bytes(v.size(), *units, utf16);
            if (written > detail::max_string_bytes)
                return refuse(Errc::content_too_large, path(),
                              std::string("the string is ") + detail::count_of(written, "byte", "bytes") + " written as " +
                                  (utf16 ? "UTF-16" : "UTF-8") + "; a stored string holds at most 2^31 - 1");
            valid_[id] = 1;
        }
        return v;
    }
    template <class P>
    std::string_view label(StringId id, const P& path) {
        std::string_view v = str(id, path);
        OND_BAIL({});
        if (v.empty()) return refuse(Errc::content_label_empty, path(), "a label or name must not be empty");
        return v;
    }
    template <class P>
    static void conf(float f, const P& path) {
        if (!detail::confidence_ok(f))
            return void(refuse(Errc::content_confidence_out_of_range, path(), "a confidence must be in [0, 1]"));
    }

    const Container& c_;
    std::vector<std::uint8_t> valid_;
};

// ---- sizes ------------------------------------------------------------------------------

inline std::uint32_t varint_size(std::uint32_t x) noexcept {
    // 1 + one per 7 bits past the first 7: (bit width + 6) / 7, branch-free.
    const auto bits = static_cast<std::uint32_t>(std::bit_width(x | 1u));
    return (bits * 37u + 6u * 37u) >> 8;  // == (bits + 6) / 7 for bits in 1..32
}
static_assert(((1u * 37u + 6u * 37u) >> 8) == 1u && ((7u * 37u + 6u * 37u) >> 8) == 1u &&
              ((8u * 37u + 6u * 37u) >> 8) == 2u && ((14u * 37u + 6u * 37u) >> 8) == 2u &&
              ((15u * 37u + 6u * 37u) >> 8) == 3u && ((28u * 37u + 6u * 37u) >> 8) == 4u &&
              ((29u * 37u + 6u * 37u) >> 8) == 5u && ((32u * 37u + 6u * 37u) >> 8) == 5u);

std::uint64_t vsize(const Rules& r, std::uint64_t x) noexcept {
    return r.varint5 ? 5 : varint_size(static_cast<std::uint32_t>(x));
}

std::uint32_t zigzag(std::uint32_t head, std::uint32_t i) noexcept {
    const std::uint32_t delta = head - i;
    return (delta << 1) ^ (0u - (delta >> 31));
}

// ---- the string table (W3) --------------------------------------------------------------

// A string's last n < 8 bytes as one word: two overlapping loads where there are 4 or more,
// else the first, middle and last byte (which, with the length, tell every such string apart).
std::uint64_t tail_word(const char* p, std::size_t n) noexcept {
    if (n >= 4) {
        std::uint32_t a, b;
        std::memcpy(&a, p, 4);
        std::memcpy(&b, p + n - 4, 4);
        return a | (std::uint64_t{b} << 32);
    }
    if (n == 0) return 0;
    const auto byte = [&](std::size_t k) { return std::uint64_t{static_cast<unsigned char>(p[k])}; };
    return byte(0) | (byte(n / 2) << 8) | (byte(n - 1) << 16);
}

// 64-bit hash of a string's bytes, 8 at a time (the table's key; any good mix would do). `ascii`
// says whether every byte is below 0x80: the loop reads each byte anyway, and an ASCII string
// needs no further validation.
std::uint64_t hash_bytes(std::string_view s, bool& ascii) noexcept {
    constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xBF58476D1CE4E5B9ull, k3 = 0x94D049BB133111EBull;
    const char* p = s.data();
    std::size_t n = s.size();
    std::uint64_t h = k1 ^ (n * k3), high = 0;
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        high |= w;
        h = (h ^ w) * k2;
        h ^= h >> 31;
    }
    if (n) {
        const std::uint64_t w = tail_word(p, n);
        high |= w;
        h = (h ^ w ^ (std::uint64_t{n} << 59)) * k3;
    }
    ascii = (high & 0x8080808080808080ull) == 0;
    h ^= h >> 32;
    h *= k2;
    return h ^ (h >> 29);
}

bool is_ascii(std::string_view s) noexcept {
    const char* p = s.data();
    std::size_t n = s.size();
    std::uint64_t high = 0;
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        high |= w;
    }
    return ((high | tail_word(p, n)) & 0x8080808080808080ull) == 0;
}

// A table index as the tokens section stores it, ready to be copied: the varint's bytes from
// the low end, its length in the top byte. Never 0 (a varint has at least one byte), so 0 can
// mean "not used yet".
using Code = std::uint64_t;
Code make_code(const Rules& r, std::uint32_t m) noexcept {
    Code c = 0;
    unsigned len = 0;
    for (;;) {
        const bool more = r.varint5 ? len < 4 : m >= 0x80;  // tests only: every varint in 5 bytes
        c |= Code{(m & 0x7Fu) | (more ? 0x80u : 0u)} << (8 * len);
        m >>= 7;
        ++len;
        if (!more) break;
    }
    return c | (Code{len} << 56);
}
std::uint32_t code_length(Code c) noexcept { return static_cast<std::uint32_t>(c >> 56); }
std::uint32_t code_value(Code c) noexcept {
    std::uint32_t m = 0;
    for (unsigned k = 0; k < code_length(c); ++k) m |= static_cast<std::uint32_t>((c >> (8 * k)) & 0x7F) << (7 * k);
    return m;
}

// The table in order of first use in the body's bytes. A store id maps to its table index
// (as a Code) through one array lookup; an id met for the first time is validated and its
// value looked up by bytes in an open-addressing table (linear probing, at most half full), so
// duplicates in the store (a reader's store keeps them) get one entry.
class Table {
public:
    static constexpr Code none = 0;  // not in the store or not writable

    struct Entry {
        std::string_view value;
        std::uint64_t units;  // UTF-16 code units
        bool utf16;           // holds a lone surrogate
    };

    Table(const StringStore& s, const Rules& r)
        : s_(s), r_(r), distinct_(s.distinct()), code_(s.size(), none), length_(s.size(), 0) {}

    // The Code of a store id's table index (0 for ""), added on first use; `none` when the
    // checker refuses the id (not in the store, not valid WTF-8, too long).
    Code use(StringId id) {
        if (id >= code_.size()) [[unlikely]]
            return none;
        const Code c = code_[id];
        if (c != none) [[likely]]
            return c;
        return first_use(id);
    }
    // The same, for loops that keep codes() and store_size() in registers. Out of line: use()
    // is on every attribute of every token and should inline to a lookup.
    [[gnu::noinline]] Code first_use(StringId id);
    const Code* codes() const noexcept { return code_.data(); }
    // code_length() of each store id's Code, 0 until its first use: the planning pass reads
    // only this, a byte per string, which stays in the nearest cache for most stores.
    const std::uint8_t* lengths() const noexcept { return length_.data(); }
    std::size_t store_size() const noexcept { return code_.size(); }

    const std::vector<Entry>& entries() const noexcept { return entries_; }

    // The index written for a store id already used.
    std::uint32_t index(StringId id) const noexcept { return code_value(code_[id]); }
    Code code(StringId id) const noexcept { return code_[id]; }

    // Tests only (W3-order switched off): number the table in reverse, once every string is in.
    void renumber_reversed() {
        const auto total = static_cast<std::uint32_t>(entries_.size());
        for (Code& c : code_)
            if (c != none && code_value(c) != 0) c = make_code(r_, total + 1 - code_value(c));
        for (std::size_t id = 0; id < code_.size(); ++id) length_[id] = static_cast<std::uint8_t>(code_length(code_[id]));
    }

    // Bytes of a string as W1 writes it: UTF-8 when it has no lone surrogate, else UTF-16LE.
    static bool as_utf16(const Rules& r, const Entry& e) noexcept { return e.utf16 || r.utf16_always; }
    static std::uint64_t written(const Rules& r, const Entry& e) noexcept {
        return as_utf16(r, e) ? 2 * e.units : e.value.size();
    }

    // The string table section's length.
    std::uint64_t section_bytes(const Rules& r) const noexcept {
        std::uint64_t n = vsize(r, entries_.size() + (r.unused ? 1 : 0));
        for (const Entry& e : entries_) n += vsize(r, written(r, e) << 1) + written(r, e);
        if (r.unused) n += vsize(r, unused_bytes(r) << 1) + unused_bytes(r);
        return n;
    }
    static std::uint64_t unused_bytes(const Rules& r) noexcept { return r.utf16_always ? 12 : 6; }  // "unused"

private:
    Code assign(StringId id, std::uint32_t index) {
        const Code c = make_code(r_, index);
        length_[id] = static_cast<std::uint8_t>(code_length(c));
        return code_[id] = c;
    }
    void grow() {
        std::vector<std::uint32_t> bigger(slots_.empty() ? 64 : 2 * slots_.size(), 0);
        const std::size_t mask = bigger.size() - 1;
        for (std::uint32_t e = 0; e < entries_.size(); ++e) {
            std::size_t k = static_cast<std::size_t>(hashes_[e]) & mask;
            while (bigger[k] != 0) k = (k + 1) & mask;
            bigger[k] = e + 1;
        }
        slots_.swap(bigger);
    }

    const StringStore& s_;
    const Rules& r_;
    const bool distinct_;                // the store holds each value once (StringStore::distinct)
    std::vector<Code> code_;             // by store id: the Code of its table index, or none
    std::vector<std::uint8_t> length_;   // by store id: code_length(code_[id])
    std::vector<Entry> entries_;         // table index i is entries_[i - 1]
    std::vector<std::uint64_t> hashes_;  // of entries_
    std::vector<std::uint32_t> slots_;   // entry index + 1, 0 when free; size a power of 2
};

Code Table::first_use(StringId id) {
    if (id >= code_.size()) return none;
    const std::string_view v = s_.view(id);
    if (v.empty()) return assign(id, 0);
    bool ascii = false;
    // A store whose strings all came through intern() holds each value once: its ids need no
    // lookup by value, only the ASCII test the hash would have made on the way.
    const std::uint64_t h = distinct_ ? (ascii = is_ascii(v), 0) : hash_bytes(v, ascii);
    std::uint64_t units = v.size();
    bool utf16 = false;
    if (!ascii) {
        const auto u = unicode::wtf8_utf16_length(v);
        if (!u) return none;
        units = *u;
        utf16 = unicode::wtf8_has_surrogate(v);
    }
    if (detail::written_string_bytes(v.size(), units, utf16) > detail::max_string_bytes) return none;
    if (distinct_) {
        entries_.push_back({v, units, utf16});
        return assign(id, static_cast<std::uint32_t>(entries_.size()));
    }
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = static_cast<std::size_t>(h) & mask;; k = (k + 1) & mask) {
        const std::uint32_t s = slots_[k];
        if (s == 0) {
            entries_.push_back({v, units, utf16});
            hashes_.push_back(h);
            slots_[k] = static_cast<std::uint32_t>(entries_.size());
            return assign(id, slots_[k]);
        }
        if (hashes_[s - 1] == h && entries_[s - 1].value == v) return assign(id, s);
    }
}

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

// One pass over the token columns: the bytes of the span and head varints, W4's mode, and
// whether every token passes the checks that do not involve strings (R17-R21, R3). A fault only
// sends the document to the checker, which finds the first one in its own order.
bool scan_tokens(const Rules& r, const TokenSlice& t, std::uint64_t text_units, DocPlan& plan) noexcept {
    const std::size_t n = t.size();
    const std::uint32_t* start = t.start.data();
    const std::uint32_t* length = t.length.data();
    const std::int32_t* head = t.head.data();
    const Sentence* sent = t.sent.data();
    const float* conf = t.conf.data();
    std::uint64_t prev_end = 0, spans = 0, heads = 0;
    unsigned bad = 0, not_one = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t s = start[i], len = length[i];
        const std::uint64_t end = std::uint64_t{s} + len;
        bad |= unsigned{s < prev_end} | unsigned{len == 0} | unsigned{end > text_units};
        spans += varint_size(s - static_cast<std::uint32_t>(prev_end)) + varint_size(len);
        prev_end = end;
        const auto h = static_cast<std::uint32_t>(head[i]);
        bad |= unsigned{h >= n};  // a negative head is >= 2^31
        heads += varint_size(zigzag(h, static_cast<std::uint32_t>(i)));
        bad |= unsigned{static_cast<std::uint8_t>(sent[i]) > 2};
        const float f = conf[i];
        bad |= unsigned{!(f >= 0.0f)} | unsigned{!(f <= 1.0f)};
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        not_one |= bits ^ 0x3F800000u;
    }
    plan.span_bytes = r.varint5 ? 10 * std::uint64_t{n} : spans;
    plan.head_bytes = r.varint5 ? 5 * std::uint64_t{n} : heads;
    plan.all_one = not_one == 0 && !r.conf_always;
    return bad == 0;
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
    // registers and calls out only on a string's first use.
    const std::uint8_t* const lengths = table.lengths();
    const std::size_t store = table.store_size();
    std::uint64_t bytes = 0;
    for (const auto& col : t.attrs) {
        const StringId* ids = col.data();
        for (std::size_t i = 0; i < n; ++i) {
            const StringId id = ids[i];
            if (id >= store) [[unlikely]]
                return fault;
            std::uint32_t len = lengths[id];
            if (len == 0) [[unlikely]] {
                const Code c = table.first_use(id);
                if (c == Table::none) return fault;
                len = code_length(c);
            }
            bytes += len;
        }
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
        for (std::size_t i = 0; i < n; ++i) {
            std::uint32_t x = get(i);
            if (x < 0x4000) [[likely]] {
                const unsigned two = x >= 0x80;
                p[0] = static_cast<std::uint8_t>(x | (two << 7));
                p[1] = static_cast<std::uint8_t>(x >> 7);
                p += 1 + two;
                continue;
            }
            while (x >= 0x80) {
                *p++ = static_cast<std::uint8_t>(x | 0x80);
                x >>= 7;
            }
            *p++ = static_cast<std::uint8_t>(x);
        }
        p_ = p;
    }
    // n table indexes, the Codes of ids[0..n), each copied as 8 bytes of which the first
    // code_length() are kept: a store that may run past the run's end is safe only while at
    // least 7 bytes follow the value's first byte in the container, so the values that cannot
    // promise it (`after`: bytes sure to follow the run) are copied byte by byte.
    void code_run(const Code* codes, const StringId* ids, std::size_t n, std::size_t after) noexcept {
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
    o.varint_run(2 * std::size_t{n}, [&](std::size_t k) {
        const std::size_t i = k >> 1;
        if (k & 1) return length[i];
        return i == 0 ? start[0] : start[i] - (start[i - 1] + length[i - 1]);
    });
    // Each attribute run is followed by at least the heads (n bytes), the sentences and the mode.
    const std::size_t after_attrs = std::size_t{n} + 2;
    for (const auto& col : tk.attrs) o.code_run(t.codes(), col.data(), n, after_attrs);
    const std::int32_t* head = tk.head.data();
    o.varint_run(n, [&](std::size_t i) { return zigzag(static_cast<std::uint32_t>(head[i]), static_cast<std::uint32_t>(i)); });
    o.sentences(tk.sent.data(), n);
    o.u8(plan.all_one ? 0 : 1);
    if (!plan.all_one) o.bytes(tk.conf.data(), 4 * std::size_t{n});  // little-endian host
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
