#include "ond/content_json.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "json_tape.hpp"
#include "ond/error.hpp"
#include "ond/unicode.hpp"

namespace ond::json {

using detail::Kind;
using detail::Node;
using detail::Tape;

// ---- floats ---------------------------------------------------------------------------------

std::string format_float(float f) {
    if (!std::isfinite(f)) throw JsonError("a NaN or infinite value cannot be written as content JSON");
    if (f == 0.0f) return std::signbit(f) ? "-0.0" : "0.0";
    char buf[48];
    auto r = std::to_chars(buf, buf + sizeof buf, f);
    return std::string(buf, r.ptr);
}

namespace {

bool is_json_number(std::string_view t) {
    std::size_t i = 0;
    auto digit = [&](std::size_t k) { return k < t.size() && t[k] >= '0' && t[k] <= '9'; };
    if (i < t.size() && t[i] == '-') ++i;
    if (!digit(i)) return false;
    if (t[i] == '0') {
        ++i;
    } else {
        while (digit(i)) ++i;
    }
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digit(i)) return false;
        while (digit(i)) ++i;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (!digit(i)) return false;
        while (digit(i)) ++i;
    }
    return i == t.size();
}

// For a number from_chars found out of range: true when its magnitude is >= 1 (an overflow),
// false when it is below 1 (an underflow). Precondition: valid JSON number text, not zero.
bool magnitude_at_least_one(std::string_view t) {
    std::size_t i = t[0] == '-' ? 1 : 0;
    std::int64_t pos = 0;  // decimal exponent of the first non-zero digit's place, +1
    bool found = false;
    std::int64_t int_digits = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        if (!found && t[i] != '0') {
            found = true;
            int_digits = 0;
        }
        if (found) ++int_digits;
    }
    if (found) {
        pos = int_digits;
    }
    if (i < t.size() && t[i] == '.') {
        ++i;
        std::int64_t zeros = 0;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            if (!found) {
                if (t[i] == '0') {
                    ++zeros;
                } else {
                    found = true;
                    pos = -zeros;
                }
            }
        }
    }
    std::int64_t exp = 0;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool neg = false;
        if (t[i] == '+' || t[i] == '-') neg = t[i++] == '-';
        for (; i < t.size(); ++i) {
            if (exp < 1'000'000'000) exp = exp * 10 + (t[i] - '0');
        }
        if (neg) exp = -exp;
    }
    return pos + exp > 0;
}

}  // namespace

float parse_float(std::string_view t) {
    if (!is_json_number(t)) throw JsonError("not a JSON number: \"" + std::string(t.substr(0, 40)) + "\"");
    float f = 0.0f;
    auto r = std::from_chars(t.data(), t.data() + t.size(), f, std::chars_format::general);
    const bool neg = t[0] == '-';
    if (r.ec == std::errc::result_out_of_range) {
        if (magnitude_at_least_one(t))
            f = neg ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
        else
            f = neg ? -0.0f : 0.0f;
    } else if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
        throw JsonError("cannot read the number \"" + std::string(t.substr(0, 40)) + "\"");
    }
    return f;
}

// ---- writing --------------------------------------------------------------------------------

namespace {

class Writer {
public:
    // With a sink, the text goes out in pieces of about flush_size bytes as it is made, so the
    // writer holds no more than one piece whatever the size of the whole.
    Writer(const Container& c, bool pretty, const JsonSink* sink = nullptr) : c_(c), pretty_(pretty), sink_(sink) {}

    std::string run() {
        out_.reserve(sink_ ? flush_size + 4096 : 256);
        out_ += '{';
        nl(1);
        key("format");
        out_ += c_.format == Format::ondc ? "\"ONDC\"" : "\"ONDB\"";
        comma(1);
        key("crc");
        out_ += c_.crc ? "true" : "false";
        comma(1);
        if (c_.format == Format::ondc) {
            if (c_.docs.size() != 1)
                throw JsonError("an ONDC container holds exactly one document, this one has " +
                                std::to_string(c_.docs.size()));
            key("doc");
            doc(c_.docs[0], 1);
        } else {
            key("docs");
            out_ += '[';
            for (std::size_t i = 0; i < c_.docs.size(); ++i) {
                if (i) out_ += ',';
                nl(2);
                doc(c_.docs[i], 2);
            }
            if (!c_.docs.empty()) nl(1);
            out_ += ']';
        }
        nl(0);
        out_ += '}';
        if (sink_) {
            out_ += '\n';
            (*sink_)(out_);
            out_.clear();
        }
        return std::move(out_);
    }

private:
    static constexpr std::size_t flush_size = 64 * 1024;
    void maybe_flush() {
        if (sink_ && out_.size() >= flush_size) {
            (*sink_)(out_);
            out_.clear();
        }
    }

    void nl(int level) {
        if (!pretty_) return;
        out_ += '\n';
        out_.append(static_cast<std::size_t>(level) * 2, ' ');
    }
    void comma(int level) {
        out_ += ',';
        nl(level);
    }
    // Separator between items written on one line.
    void sep() { out_ += pretty_ ? ", " : ","; }
    void key(std::string_view k) {
        out_ += '"';
        out_ += k;
        out_ += pretty_ ? "\": " : "\":";
    }
    void num(std::uint64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, r.ptr);
    }
    void inum(std::int64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, r.ptr);
    }
    void flt(float f, const char* what) {
        if (!std::isfinite(f)) throw JsonError(std::string("a ") + what + " is NaN or infinite; content JSON cannot hold it");
        out_ += format_float(f);
    }
    void str(std::string_view wtf8) {
        if (!unicode::wtf8_has_surrogate(wtf8)) {
            detail::append_quoted(out_, wtf8);
            return;
        }
        out_ += '{';
        key("utf16");
        out_ += '[';
        bool first = true;
        for (char16_t u : unicode::utf16_from_wtf8(wtf8)) {
            if (!first) sep();
            first = false;
            num(u);
            maybe_flush();
        }
        out_ += "]}";
    }
    void sid(StringId id) {
        if (!c_.strings.contains(id))
            throw JsonError("string id " + std::to_string(id) + " is not in the container's string store");
        const std::string_view v = c_.strings.view(id);
        // A string used many times (a label, or a hostile 1 MiB attribute on every token) is
        // checked once: when it needs no escape and no {"utf16"} form, its bytes go out as they are.
        if (plain_.empty()) plain_.assign(c_.strings.size(), unknown);
        if (plain_[id] == unknown) plain_[id] = is_plain(v) ? yes : no;
        if (plain_[id] == no) {
            str(v);
        } else if (sink_ && v.size() >= flush_size) {
            out_ += '"';
            (*sink_)(out_);
            out_.clear();
            (*sink_)(v);
            out_ += '"';
        } else {
            out_ += '"';
            out_ += v;
            out_ += '"';
        }
        maybe_flush();
    }
    // True when the JSON string literal of v is v between quotes: no byte that needs an escape
    // and no lone surrogate (WTF-8 ED A0..BF).
    static bool is_plain(std::string_view v) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            const auto b = static_cast<unsigned char>(v[i]);
            if (b < 0x20 || b == '"' || b == '\\' || b == 0x7F) return false;
            if (b == 0xED && i + 1 < v.size() && static_cast<unsigned char>(v[i + 1]) >= 0xA0) return false;
        }
        return true;
    }
    static constexpr std::uint8_t unknown = 0, yes = 1, no = 2;
    std::vector<std::uint8_t> plain_;  // per string id

    void doc(const Doc& d, int level) {
        out_ += '{';
        nl(level + 1);
        key("text");
        str(d.text);
        maybe_flush();
        comma(level + 1);

        key("tokens");
        out_ += '[';
        const Tokens& t = d.tokens;
        const std::size_t n = t.size();
        for (std::size_t i = 0; i < n; ++i) {
            if (i) out_ += ',';
            nl(level + 2);
            out_ += '{';
            key("start"); num(t.start[i]); sep();
            key("length"); num(t.length[i]); sep();
            static constexpr const char* names[token_column_count] = {"norm", "lemma", "pos", "tag", "dep", "morph"};
            for (std::size_t col = 0; col < token_column_count; ++col) {
                key(names[col]);
                sid(t.attrs[col][i]);
                sep();
            }
            key("head"); inum(t.head[i]); sep();
            key("sent"); num(static_cast<std::uint8_t>(t.sent[i])); sep();
            key("conf"); flt(t.conf[i], "token confidence");
            out_ += '}';
        }
        if (n) nl(level + 1);
        out_ += ']';
        comma(level + 1);

        key("ents");
        if (!d.has_ents) {
            out_ += "null";
        } else {
            out_ += '[';
            for (std::size_t i = 0; i < d.ents.size(); ++i) {
                const Entity& e = d.ents[i];
                if (i) out_ += ',';
                nl(level + 2);
                out_ += '{';
                key("start"); num(e.start); sep();
                key("length"); num(e.length); sep();
                key("label"); sid(e.label); sep();
                key("conf"); flt(e.conf, "entity confidence");
                out_ += '}';
            }
            if (!d.ents.empty()) nl(level + 1);
            out_ += ']';
        }
        comma(level + 1);

        key("cats");
        if (!d.has_cats) {
            out_ += "null";
        } else {
            out_ += '[';
            for (std::size_t i = 0; i < d.cats.size(); ++i) {
                if (i) out_ += ',';
                nl(level + 2);
                out_ += '{';
                key("label"); sid(d.cats[i].label); sep();
                key("score"); flt(d.cats[i].score, "category score");
                out_ += '}';
            }
            if (!d.cats.empty()) nl(level + 1);
            out_ += ']';
        }
        comma(level + 1);

        key("spans");
        out_ += '[';
        for (std::size_t g = 0; g < d.spans.size(); ++g) {
            const SpanGroup& grp = d.spans[g];
            if (g) out_ += ',';
            nl(level + 2);
            out_ += '{';
            key("name"); sid(grp.name); sep();
            key("spans");
            out_ += '[';
            for (std::size_t i = 0; i < grp.spans.size(); ++i) {
                const Span& s = grp.spans[i];
                if (i) out_ += ',';
                nl(level + 3);
                out_ += '{';
                key("start"); num(s.start); sep();
                key("length"); num(s.length); sep();
                key("label"); sid(s.label); sep();
                key("conf"); flt(s.conf, "span confidence");
                out_ += '}';
            }
            if (!grp.spans.empty()) nl(level + 2);
            out_ += "]}";
        }
        if (!d.spans.empty()) nl(level + 1);
        out_ += ']';
        nl(level);
        out_ += '}';
    }

    const Container& c_;
    bool pretty_;
    const JsonSink* sink_;
    std::string out_;
};

}  // namespace

std::string to_json(const Container& c, bool pretty) { return Writer(c, pretty).run(); }

void write_json(const Container& c, const JsonSink& sink, bool pretty) { Writer(c, pretty, &sink).run(); }

// ---- reading --------------------------------------------------------------------------------

namespace {

// A JSON path built on the stack, turned into text only for messages.
struct Path {
    const Path* parent = nullptr;
    std::string_view key;        // member name, or empty for an array element
    std::uint64_t index = 0;

    Path member(std::string_view k) const { return Path{this, k, 0}; }
    Path element(std::uint64_t i) const { return Path{this, {}, i}; }

    std::string str() const {
        if (!parent) return std::string();
        std::string p = parent->str();
        if (!key.empty()) {
            if (!p.empty()) p += '.';
            p += key;
        } else {
            p += '[' + std::to_string(index) + ']';
        }
        return p;
    }
};

std::string where(const Path& p) {
    std::string s = p.str();
    return s.empty() ? std::string("(top level)") : s;
}

const char* kind_name(Kind k) {
    switch (k) {
    case Kind::null: return "null";
    case Kind::boolean: return "a boolean";
    case Kind::number: return "a number";
    case Kind::string: return "a string";
    case Kind::array: return "an array";
    case Kind::object: return "an object";
    }
    return "?";
}

// True when node i is {"utf16": [...]}: one key, named utf16. Its contents are checked by the caller.
bool is_utf16_object(const Tape& t, std::uint32_t i) {
    const Node& n = t[i];
    return n.kind == Kind::object && n.count == 1 && t[i + 1].text() == "utf16";
}

// The integer value of an integer-form number's text, when it fits in int64.
std::optional<std::int64_t> integer_value(std::string_view text) {
    std::int64_t v = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

class Loader {
public:
    explicit Loader(const Tape& t) : t_(t) {}

    Container run() {
        Container c;
        Path root;
        static constexpr std::array<std::string_view, 4> names = {"format", "crc", "doc", "docs"};
        auto f = fields(0, root, names, 0b0011);
        std::string_view format = string_node(f[0], root.member("format"));
        if (format == "ONDC") {
            c.format = Format::ondc;
        } else if (format == "ONDB") {
            c.format = Format::ondb;
        } else {
            fail(root.member("format"), f[0], "expected \"ONDC\" or \"ONDB\"");
        }
        c.crc = boolean(f[1], root.member("crc"));
        if (c.format == Format::ondc) {
            if (f[3] != none) fail(root.member("docs"), f[3], "an ONDC container has \"doc\", not \"docs\"");
            if (f[2] == none) fail(root, 0, "missing key \"doc\"");
            c.docs.resize(1);
            doc(f[2], root.member("doc"), c.docs[0], c.strings);
        } else {
            if (f[2] != none) fail(root.member("doc"), f[2], "an ONDB container has \"docs\", not \"doc\"");
            if (f[3] == none) fail(root, 0, "missing key \"docs\"");
            const Path p = root.member("docs");
            std::uint32_t a = array(f[3], p);
            // Arrays grow one checked element at a time, never from their declared length: a
            // long array of wrong elements fails at its first (issue: bounded memory).
            for (std::uint32_t k = 0; k < t_[f[3]].count; ++k) {
                object(a, p.element(k));
                doc(a, p.element(k), c.docs.emplace_back(), c.strings);
                a = t_.next(a);
            }
        }
        return c;
    }

private:
    static constexpr std::uint32_t none = ~std::uint32_t{0};

    [[noreturn]] void fail(const Path& p, std::uint32_t node, const std::string& what) const {
        throw JsonError(where(p) + ": " + what + " (at byte " + std::to_string(t_.pos(node)) + ")");
    }

    // The member values of object node i, by name; unknown keys are an error, and so are missing
    // ones whose bit is set in `required`.
    template <std::size_t N>
    std::array<std::uint32_t, N> fields(std::uint32_t i, const Path& p, const std::array<std::string_view, N>& names,
                                        std::uint32_t required) const {
        const Node& n = t_[i];
        if (n.kind != Kind::object) fail(p, i, std::string("expected an object, got ") + kind_name(n.kind));
        std::array<std::uint32_t, N> out;
        out.fill(none);
        std::uint32_t k = i + 1;
        for (std::uint32_t m = 0; m < n.count; ++m) {
            const std::string_view name = t_[k].text();
            std::size_t slot = 0;
            while (slot < N && names[slot] != name) ++slot;
            if (slot == N) {
                std::string q;
                detail::append_quoted(q, name);
                fail(p, k, "unknown key " + q);
            }
            out[slot] = k + 1;
            k = t_.next(k + 1);
        }
        for (std::size_t s = 0; s < N; ++s)
            if ((required >> s) & 1u && out[s] == none)
                fail(p, i, "missing key \"" + std::string(names[s]) + "\"");
        return out;
    }

    void object(std::uint32_t i, const Path& p) const {
        if (t_[i].kind != Kind::object) fail(p, i, std::string("expected an object, got ") + kind_name(t_[i].kind));
    }

    // First element of array node i (or the node after it when empty).
    std::uint32_t array(std::uint32_t i, const Path& p) const {
        if (t_[i].kind != Kind::array) fail(p, i, std::string("expected an array, got ") + kind_name(t_[i].kind));
        return i + 1;
    }

    bool boolean(std::uint32_t i, const Path& p) const {
        if (t_[i].kind != Kind::boolean) fail(p, i, std::string("expected true or false, got ") + kind_name(t_[i].kind));
        return t_[i].flag;
    }

    std::string_view string_node(std::uint32_t i, const Path& p) const {
        if (t_[i].kind != Kind::string) fail(p, i, std::string("expected a string, got ") + kind_name(t_[i].kind));
        return t_[i].text();
    }

    // A content string (plain or {"utf16": [...]}) as WTF-8.
    std::string content_string(std::uint32_t i, const Path& p) const {
        const Node& n = t_[i];
        if (n.kind == Kind::string) return std::string(n.text());
        if (n.kind == Kind::object) {
            static constexpr std::array<std::string_view, 1> names = {"utf16"};
            auto f = fields(i, p, names, 1);
            const Path up = p.member("utf16");
            std::uint32_t e = array(f[0], up);
            std::u16string units;
            for (std::uint32_t k = 0; k < t_[f[0]].count; ++k) {
                std::int64_t v = integer(e, up.element(k), 0, 0xFFFF);
                units.push_back(static_cast<char16_t>(v));
                e = t_.next(e);
            }
            return unicode::wtf8_from_utf16(units);
        }
        fail(p, i, std::string("expected a string or {\"utf16\": [...]}, got ") + kind_name(n.kind));
    }

    std::int64_t integer(std::uint32_t i, const Path& p, std::int64_t lo, std::int64_t hi) const {
        const Node& n = t_[i];
        if (n.kind != Kind::number || !n.flag)
            fail(p, i, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                           detail::excerpt(t_, i, 40));
        auto v = integer_value(n.text());
        if (!v || *v < lo || *v > hi)
            fail(p, i, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                           std::string(n.text().substr(0, 40)));
        return *v;
    }

    std::uint32_t u32(std::uint32_t i, const Path& p) const {
        return static_cast<std::uint32_t>(integer(i, p, 0, 0xFFFFFFFFll));
    }

    float number(std::uint32_t i, const Path& p) const {
        const Node& n = t_[i];
        if (n.kind != Kind::number) fail(p, i, std::string("expected a number, got ") + kind_name(n.kind));
        return parse_float(n.text());
    }

    StringId label(std::uint32_t i, const Path& p, StringStore& strings) const {
        return strings.intern(content_string(i, p));
    }

    void doc(std::uint32_t i, const Path& p, Doc& d, StringStore& strings) const {
        static constexpr std::array<std::string_view, 5> names = {"text", "tokens", "ents", "cats", "spans"};
        auto f = fields(i, p, names, 0b11111);
        d.set_text(content_string(f[0], p.member("text")));

        {
            const Path tp = p.member("tokens");
            std::uint32_t e = array(f[1], tp);
            const std::uint32_t n = t_[f[1]].count;
            Tokens& t = d.tokens;
            t.clear();
            static constexpr std::array<std::string_view, 11> tk = {"start", "length", "norm", "lemma", "pos", "tag",
                                                                    "dep", "morph", "head", "sent", "conf"};
            for (std::uint32_t k = 0; k < n; ++k) {
                const Path ep = tp.element(k);
                auto g = fields(e, ep, tk, 0x7FF);
                t.start.push_back(u32(g[0], ep.member("start")));
                t.length.push_back(u32(g[1], ep.member("length")));
                for (std::size_t col = 0; col < token_column_count; ++col)
                    t.attrs[col].push_back(strings.intern(content_string(g[2 + col], ep.member(tk[2 + col]))));
                t.head.push_back(static_cast<std::int32_t>(
                    integer(g[8], ep.member("head"), std::numeric_limits<std::int32_t>::min(),
                            std::numeric_limits<std::int32_t>::max())));
                t.sent.push_back(static_cast<Sentence>(integer(g[9], ep.member("sent"), 0, 255)));
                t.conf.push_back(number(g[10], ep.member("conf")));
                e = t_.next(e);
            }
        }

        {
            const Path ep = p.member("ents");
            if (t_[f[2]].kind == Kind::null) {
                d.has_ents = false;
            } else {
                if (t_[f[2]].kind != Kind::array)
                    fail(ep, f[2], std::string("expected null or an array, got ") + kind_name(t_[f[2]].kind));
                d.has_ents = true;
                std::uint32_t e = f[2] + 1;
                static constexpr std::array<std::string_view, 4> en = {"start", "length", "label", "conf"};
                for (std::uint32_t k = 0; k < t_[f[2]].count; ++k) {
                    const Path xp = ep.element(k);
                    auto g = fields(e, xp, en, 0b1111);
                    Entity& x = d.ents.emplace_back();
                    x.start = u32(g[0], xp.member("start"));
                    x.length = u32(g[1], xp.member("length"));
                    x.label = label(g[2], xp.member("label"), strings);
                    x.conf = number(g[3], xp.member("conf"));
                    e = t_.next(e);
                }
            }
        }

        {
            const Path cp = p.member("cats");
            if (t_[f[3]].kind == Kind::null) {
                d.has_cats = false;
            } else {
                if (t_[f[3]].kind != Kind::array)
                    fail(cp, f[3], std::string("expected null or an array, got ") + kind_name(t_[f[3]].kind));
                d.has_cats = true;
                std::uint32_t e = f[3] + 1;
                static constexpr std::array<std::string_view, 2> cn = {"label", "score"};
                for (std::uint32_t k = 0; k < t_[f[3]].count; ++k) {
                    const Path xp = cp.element(k);
                    auto g = fields(e, xp, cn, 0b11);
                    Category& x = d.cats.emplace_back();
                    x.label = label(g[0], xp.member("label"), strings);
                    x.score = number(g[1], xp.member("score"));
                    e = t_.next(e);
                }
            }
        }

        {
            const Path sp = p.member("spans");
            std::uint32_t e = array(f[4], sp);
            static constexpr std::array<std::string_view, 2> gn = {"name", "spans"};
            static constexpr std::array<std::string_view, 4> xn = {"start", "length", "label", "conf"};
            for (std::uint32_t k = 0; k < t_[f[4]].count; ++k) {
                const Path gp = sp.element(k);
                auto g = fields(e, gp, gn, 0b11);
                SpanGroup& grp = d.spans.emplace_back();
                grp.name = label(g[0], gp.member("name"), strings);
                const Path lp = gp.member("spans");
                std::uint32_t s = array(g[1], lp);
                for (std::uint32_t m = 0; m < t_[g[1]].count; ++m) {
                    const Path xp = lp.element(m);
                    auto h = fields(s, xp, xn, 0b1111);
                    Span& x = grp.spans.emplace_back();
                    x.start = u32(h[0], xp.member("start"));
                    x.length = u32(h[1], xp.member("length"));
                    x.label = label(h[2], xp.member("label"), strings);
                    x.conf = number(h[3], xp.member("conf"));
                    s = t_.next(s);
                }
                e = t_.next(e);
            }
        }
    }

    const Tape& t_;
};

}  // namespace

Container from_json(std::string_view text) {
    Tape t(text);
    return Loader(t).run();
}

// ---- comparing ------------------------------------------------------------------------------

namespace {

class Comparer {
public:
    Comparer(const Tape& e, const Tape& a) : e_(e), a_(a) {}

    std::optional<std::string> run() { return cmp(0, 0, Path{}, false); }

private:
    static std::string diff(const Path& p, const std::string& what) { return where(p) + ": " + what; }

    // The UTF-16 code units of a string-like node: a string, or {"utf16": [ints in 0..65535]}.
    static std::optional<std::u16string> units(const Tape& t, std::uint32_t i) {
        const Node& n = t[i];
        if (n.kind == Kind::string) return unicode::utf16_from_wtf8(n.text());
        if (!is_utf16_object(t, i)) return std::nullopt;
        const Node& arr = t[i + 2];
        if (arr.kind != Kind::array) return std::nullopt;
        std::u16string out;
        std::uint32_t e = i + 3;
        for (std::uint32_t k = 0; k < arr.count; ++k) {
            const Node& u = t[e];
            if (u.kind != Kind::number || !u.flag) return std::nullopt;
            auto v = integer_value(u.text());
            if (!v || *v < 0 || *v > 0xFFFF) return std::nullopt;
            out.push_back(static_cast<char16_t>(*v));
            e = t.next(e);
        }
        return out;
    }

    static std::string bits_hex(float f) {
        std::uint32_t b;
        std::memcpy(&b, &f, 4);
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08x", b);
        return buf;
    }

    static std::string show_float(float f) {
        if (std::isnan(f)) return "nan";
        if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
        return format_float(f);
    }

    std::optional<std::string> mismatch(std::uint32_t e, std::uint32_t a, const Path& p) const {
        return diff(p, "expected " + detail::excerpt(e_, e) + ", got " + detail::excerpt(a_, a));
    }

    std::optional<std::string> cmp(std::uint32_t e, std::uint32_t a, const Path& p, bool float_field) const {
        const Node& x = e_[e];
        const Node& y = a_[a];

        // Strings, in either spelling, compare by UTF-16 code units. Two plain strings are valid
        // UTF-8, where equal bytes and equal code units are the same thing.
        if (x.kind == Kind::string && y.kind == Kind::string)
            return x.text() == y.text() ? std::nullopt : mismatch(e, a, p);
        auto ue = units(e_, e);
        auto ua = units(a_, a);
        if (ue || ua) {
            if (ue && ua && *ue == *ua) return std::nullopt;
            return mismatch(e, a, p);
        }

        if (x.kind != y.kind) return mismatch(e, a, p);
        switch (x.kind) {
        case Kind::null: return std::nullopt;
        case Kind::boolean: return x.flag == y.flag ? std::nullopt : mismatch(e, a, p);
        case Kind::string: return std::nullopt;  // handled above
        case Kind::number: {
            if (float_field) {
                const float fx = parse_float(x.text());
                const float fy = parse_float(y.text());
                std::uint32_t bx, by;
                std::memcpy(&bx, &fx, 4);
                std::memcpy(&by, &fy, 4);
                if (bx == by) return std::nullopt;
                return diff(p, "expected " + show_float(fx) + " (" + bits_hex(fx) + "), got " +
                                   std::string(y.text().substr(0, 40)) + " = " + show_float(fy) + " (" + bits_hex(fy) + ")");
            }
            if (x.flag && y.flag) {
                auto vx = integer_value(x.text());
                auto vy = integer_value(y.text());
                if (vx && vy) return *vx == *vy ? std::nullopt : mismatch(e, a, p);
            }
            return x.text() == y.text() ? std::nullopt : mismatch(e, a, p);
        }
        case Kind::array: {
            if (x.count != y.count)
                return diff(p, "expected " + std::to_string(x.count) + " element" + (x.count == 1 ? "" : "s") +
                                   ", got " + std::to_string(y.count));
            std::uint32_t ce = e + 1, ca = a + 1;
            for (std::uint32_t k = 0; k < x.count; ++k) {
                if (auto d = cmp(ce, ca, p.element(k), float_field)) return d;
                ce = e_.next(ce);
                ca = a_.next(ca);
            }
            return std::nullopt;
        }
        case Kind::object: {
            // Keys usually come in the same order on both sides: try the same place first.
            std::uint32_t ke = e + 1;
            std::uint32_t same_place = a + 1;
            for (std::uint32_t m = 0; m < x.count; ++m) {
                const std::string_view name = e_[ke].text();
                std::uint32_t found = ~std::uint32_t{0};
                if (m < y.count && a_[same_place].text() == name) {
                    found = same_place;
                } else {
                    std::uint32_t ka = a + 1;
                    for (std::uint32_t q = 0; q < y.count; ++q) {
                        if (a_[ka].text() == name) {
                            found = ka;
                            break;
                        }
                        ka = a_.next(ka + 1);
                    }
                }
                if (found == ~std::uint32_t{0}) return diff(p, "missing key " + quoted(name));
                const bool fl = name == "conf" || name == "score";
                if (auto d = cmp(ke + 1, found + 1, p.member(name), fl)) return d;
                ke = e_.next(ke + 1);
                if (m < y.count) same_place = a_.next(same_place + 1);
            }
            // Every expected key was found and keys are unique, so equal counts mean no extras.
            if (y.count == x.count) return std::nullopt;
            std::uint32_t ka = a + 1;
            for (std::uint32_t q = 0; q < y.count; ++q) {
                const std::string_view name = a_[ka].text();
                bool known = false;
                std::uint32_t k2 = e + 1;
                for (std::uint32_t m = 0; m < x.count && !known; ++m) {
                    known = e_[k2].text() == name;
                    k2 = e_.next(k2 + 1);
                }
                if (!known) return diff(p, "unexpected key " + quoted(name));
                ka = a_.next(ka + 1);
            }
            return std::nullopt;
        }
        }
        return std::nullopt;
    }

    static std::string quoted(std::string_view s) {
        std::string q;
        detail::append_quoted(q, s);
        return q;
    }

    const Tape& e_;
    const Tape& a_;
};

}  // namespace

std::optional<std::string> compare_content(std::string_view expected, std::string_view actual) {
    Tape e(expected);
    Tape a(actual);
    return Comparer(e, a).run();
}

}  // namespace ond::json
