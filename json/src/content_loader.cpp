// Content JSON -> content (from_json): each object read by its named field list.
#include <array>
#include <bit>
#include <limits>

#include "content_common.hpp"
#include "content_model.hpp"
#include "content_reader.hpp"
#include "json_tape.hpp"
#include "ond/content_json.hpp"
#include "ond/error.hpp"
#include "ond/unicode.hpp"

namespace ond::json {

namespace {

using namespace detail;  // the tape (Node, NodeKind, Tape) and Path

// A node of the tape and where it sits, for messages.
struct At {
    std::uint32_t node;
    Path path;
};

constexpr std::uint32_t none = ~std::uint32_t{0};

// The member values of one object, found by the names of its field list (content_model.hpp).
template <class Keys>
struct Members {
    std::array<std::uint32_t, Keys::key_count> node;
    const Path* object;  // the object's path, parent of each member's

    bool has(typename Keys::Key k) const { return node[k] != none; }
    At operator[](typename Keys::Key k) const { return At{node[k], object->member(Keys::names[k])}; }
};

class Loader {
public:
    explicit Loader(const Tape& t) : t_(t) {}

    Container run() {
        using K = model::ContainerKeys;
        Container c;
        const At root{0, Path{}};
        const auto f = fields<K>(root);
        const At format = f[K::format];
        const std::string_view name = string_node(format);
        if (name == "ONDC") {
            c.format = Format::ondc;
        } else if (name == "ONDB") {
            c.format = Format::ondb;
        } else {
            fail(format, "expected \"ONDC\" or \"ONDB\"");
        }
        c.crc = boolean(f[K::crc]);
        if (c.format == Format::ondc) {
            if (f.has(K::docs)) fail(f[K::docs], "an ONDC container has \"doc\", not \"docs\"");
            if (!f.has(K::doc)) fail(root, "missing key \"doc\"");
            Doc d;
            doc(f[K::doc], d, c.strings);
            c.docs.push_back(d);
        } else {
            if (f.has(K::doc)) fail(f[K::doc], "an ONDB container has \"docs\", not \"doc\"");
            if (!f.has(K::docs)) fail(root, "missing key \"docs\"");
            // Arrays grow one checked element at a time, never from their declared length: a
            // long array of wrong elements fails at its first (issue: bounded memory).
            each(f[K::docs], [&](const At& e) {
                object(e);
                Doc d;
                doc(e, d, c.strings);
                c.docs.push_back(d);
            });
        }
        return c;
    }

private:
    [[noreturn]] void fail(const At& at, const std::string& what) const {
        throw JsonError(detail::where(at.path) + ": " + what + " (at byte " + std::to_string(t_.pos(at.node)) + ")");
    }

    [[noreturn]] void wrong(const At& at, const char* expected) const {
        fail(at, std::string(expected) + ", got " + detail::node_kind_name(t_[at.node].kind));
    }

    // The members of object `at` by the names of Keys; unknown keys are an error, and so are
    // missing ones that Keys::required names.
    template <class Keys>
    Members<Keys> fields(const At& at) const {
        const Node& n = t_[at.node];
        if (n.kind != NodeKind::object) wrong(at, "expected an object");
        Members<Keys> out{{}, &at.path};
        out.node.fill(none);
        std::uint32_t k = at.node + 1;
        for (std::uint32_t m = 0; m < n.count; ++m) {
            const std::string_view name = t_[k].text();
            std::size_t slot = 0;
            while (slot < Keys::key_count && Keys::names[slot] != name) ++slot;
            if (slot == Keys::key_count) {
                std::string q;
                detail::append_quoted(q, name);
                fail(At{k, at.path}, "unknown key " + q);
            }
            out.node[slot] = k + 1;
            k = t_.next(k + 1);
        }
        for (std::size_t s = 0; s < Keys::key_count; ++s)
            if ((Keys::required >> s) & 1u && out.node[s] == none)
                fail(at, "missing key \"" + std::string(Keys::names[s]) + "\"");
        return out;
    }

    void object(const At& at) const {
        if (t_[at.node].kind != NodeKind::object) wrong(at, "expected an object");
    }

    // Calls on(element) for each element of array `at`.
    template <class F>
    void each(const At& at, F&& on) const {
        if (t_[at.node].kind != NodeKind::array) wrong(at, "expected an array");
        each_element(at, on);
    }

    // The same for null (false) or an array (true).
    template <class F>
    bool null_or_each(const At& at, F&& on) const {
        const NodeKind k = t_[at.node].kind;
        if (k == NodeKind::null) return false;
        if (k != NodeKind::array) wrong(at, "expected null or an array");
        each_element(at, on);
        return true;
    }

    template <class F>
    void each_element(const At& at, F& on) const {
        std::uint32_t e = at.node + 1;
        for (std::uint32_t k = 0; k < t_[at.node].count; ++k) {
            on(At{e, at.path.element(k)});
            e = t_.next(e);
        }
    }

    bool boolean(const At& at) const {
        if (t_[at.node].kind != NodeKind::boolean) wrong(at, "expected true or false");
        return t_[at.node].flag;
    }

    std::string_view string_node(const At& at) const {
        if (t_[at.node].kind != NodeKind::string) wrong(at, "expected a string");
        return t_[at.node].text();
    }

    // A content string (plain or {"utf16": [...]}) as WTF-8.
    std::string content_string(const At& at) const {
        const Node& n = t_[at.node];
        if (n.kind == NodeKind::string) return std::string(n.text());
        if (n.kind != NodeKind::object) wrong(at, "expected a string or {\"utf16\": [...]}");
        using K = model::Utf16Keys;
        std::u16string units;
        each(fields<K>(at)[K::utf16], [&](const At& u) { units.push_back(static_cast<char16_t>(integer(u, 0, 0xFFFF, Errc::content_invalid_string))); });
        return unicode::wtf8_from_utf16(units);
    }

    // An integer of a field whose type holds [lo, hi]. Another type is not content JSON; an integer
    // outside the type (past 64 bits too) is content the writer cannot write: ond::Error with the
    // field's content code, as the writer refuses a value the type holds but the format does not.
    std::int64_t integer(const At& at, std::int64_t lo, std::int64_t hi, Errc out_of_range = Errc::content_too_large) const {
        const Node& n = t_[at.node];
        const std::string range = "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got ";
        if (n.kind != NodeKind::number || !n.flag) fail(at, range + detail::excerpt(t_, at.node, 40));
        auto v = detail::integer_value(n.text());
        if (!v || *v < lo || *v > hi)
            throw Error(out_of_range, no_offset, range + std::string(n.text().substr(0, 40)), detail::where(at.path));
        return *v;
    }

    std::uint32_t u32(const At& at) const { return static_cast<std::uint32_t>(integer(at, 0, 0xFFFFFFFFll)); }

    // A Float: a JSON number, or {"f32bits": N} with N the binary32 pattern (any of them).
    float number(const At& at) const {
        const Node& n = t_[at.node];
        if (n.kind == NodeKind::object) {
            using K = model::F32BitsKeys;
            return std::bit_cast<float>(u32(fields<K>(at)[K::f32bits]));
        }
        if (n.kind != NodeKind::number) wrong(at, "expected a number or {\"f32bits\": N}");
        return parse_float(n.text());
    }

    StringId label(const At& at, StringStore& strings) const { return strings.intern(content_string(at)); }

    // An entity or a span: the same four fields.
    template <class Keys, class X>
    void labelled_span(const At& at, X& x, StringStore& strings) const {
        const auto g = fields<Keys>(at);
        x.start = u32(g[Keys::start]);
        x.length = u32(g[Keys::length]);
        x.label = label(g[Keys::label], strings);
        x.conf = number(g[Keys::conf]);
    }

    void doc(const At& at, Doc& d, StringStore& strings) const {
        using K = model::DocKeys;
        const auto f = fields<K>(at);
        d.set_text(content_string(f[K::text]));

        Tokens& t = d.tokens;
        t.clear();
        each(f[K::tokens], [&](const At& e) {
            using T = model::TokenKeys;
            const auto g = fields<T>(e);
            t.start.push_back(u32(g[T::start]));
            t.length.push_back(u32(g[T::length]));
            for (std::size_t col = 0; col < token_column_count; ++col)
                t.attrs[col].push_back(label(g[T::column(col)], strings));
            t.head.push_back(static_cast<std::int32_t>(
                integer(g[T::head], std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(),
                        Errc::content_head_out_of_range)));
            t.sent.push_back(static_cast<Sentence>(integer(g[T::sent], 0, 255, Errc::content_bad_sentence_value)));
            t.conf.push_back(number(g[T::conf]));
        });

        d.has_ents = null_or_each(f[K::ents], [&](const At& e) {
            labelled_span<model::EntityKeys>(e, d.ents.emplace_back(), strings);
        });

        d.has_cats = null_or_each(f[K::cats], [&](const At& e) {
            using C = model::CategoryKeys;
            const auto g = fields<C>(e);
            Category& x = d.cats.emplace_back();
            x.label = label(g[C::label], strings);
            x.score = number(g[C::score]);
        });

        each(f[K::spans], [&](const At& e) {
            using G = model::SpanGroupKeys;
            using S = model::SpanKeys;
            const auto g = fields<G>(e);
            SpanGroup& grp = d.spans.emplace_back();
            grp.name = label(g[G::name], strings);
            each(g[G::spans], [&](const At& s) { labelled_span<S>(s, grp.spans.emplace_back(), strings); });
        });
    }

    const Tape& t_;
};

}  // namespace

Container detail::load_from_tape(std::string_view text) {
    Tape t(text);
    return Loader(t).run();
}

// The one-pass reader takes what to_json writes; what it does not take (errors included) is
// read by the tape and the loader, which say exactly what is wrong.
Container from_json(std::string_view text) {
    {
        Container c;
        if (detail::read_content(text, c)) return c;
    }
    return detail::load_from_tape(text);
}

}  // namespace ond::json
