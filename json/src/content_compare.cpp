// Structural comparison of two content JSON texts (compare_content).
#include <bit>
#include <cmath>
#include <optional>
#include <string>

#include "content_common.hpp"
#include "content_model.hpp"
#include "json_tape.hpp"
#include "ond/content_json.hpp"
#include "ond/hex.hpp"
#include "ond/unicode.hpp"

namespace ond::json {

namespace {

using namespace detail;  // the tape (Node, NodeKind, Tape) and Path

class Comparer {
public:
    Comparer(const Tape& e, const Tape& a) : e_(e), a_(a) {}

    std::optional<std::string> run() { return cmp(0, 0, Path{}, false); }

private:
    static std::string diff(const Path& p, const std::string& what) { return detail::where(p) + ": " + what; }

    // The UTF-16 code units of a string-like node: a string, or {"utf16": [ints in 0..65535]}.
    static std::optional<std::u16string> units(const Tape& t, std::uint32_t i) {
        const Node& n = t[i];
        if (n.kind == NodeKind::string) return unicode::utf16_from_wtf8(n.text());
        if (!detail::is_utf16_object(t, i)) return std::nullopt;
        const Node& arr = t[i + 2];
        if (arr.kind != NodeKind::array) return std::nullopt;
        std::u16string out;
        std::uint32_t e = i + 3;
        for (std::uint32_t k = 0; k < arr.count; ++k) {
            const Node& u = t[e];
            if (u.kind != NodeKind::number || !u.flag) return std::nullopt;
            auto v = detail::integer_value(u.text());
            if (!v || *v < 0 || *v > 0xFFFF) return std::nullopt;
            out.push_back(static_cast<char16_t>(*v));
            e = t.next(e);
        }
        return out;
    }

    // The binary32 pattern of a Float node: a number, or {"f32bits": N} with N in 0..2^32-1.
    static std::optional<std::uint32_t> float_bits(const Tape& t, std::uint32_t i) {
        const Node& n = t[i];
        if (n.kind == NodeKind::number) return std::bit_cast<std::uint32_t>(parse_float(n.text()));
        if (n.kind != NodeKind::object || n.count != 1 || t[i + 1].text() != model::name(model::F32BitsKeys::f32bits))
            return std::nullopt;
        const Node& v = t[i + 2];
        if (v.kind != NodeKind::number || !v.flag) return std::nullopt;
        auto x = detail::integer_value(v.text());
        if (!x || *x < 0 || *x > 0xFFFFFFFFll) return std::nullopt;
        return static_cast<std::uint32_t>(*x);
    }

    // The value node of member `name` of object node i, or none.
    static std::optional<std::uint32_t> member(const Tape& t, std::uint32_t i, std::string_view name) {
        std::uint32_t k = i + 1;
        for (std::uint32_t m = 0; m < t[i].count; ++m) {
            if (t[k].text() == name) return k + 1;
            k = t.next(k + 1);
        }
        return std::nullopt;
    }

    // R22: a document without tokens cannot carry entity annotation, so there `ents` null and
    // [] mean the same. True when objects e (expected) and a (actual) are such a pair of docs.
    bool ents_equal_without_tokens(std::uint32_t e, std::uint32_t a, std::uint32_t ve, std::uint32_t va) const {
        auto empty_tokens = [](const Tape& t, std::uint32_t obj) {
            auto tk = member(t, obj, model::name(model::DocKeys::tokens));
            return tk && t[*tk].kind == NodeKind::array && t[*tk].count == 0;
        };
        auto null_or_empty = [](const Node& n) {
            return n.kind == NodeKind::null || (n.kind == NodeKind::array && n.count == 0);
        };
        return empty_tokens(e_, e) && empty_tokens(a_, a) && null_or_empty(e_[ve]) && null_or_empty(a_[va]);
    }

    static std::string bits_hex(std::uint32_t b) { return "0x" + hex::of(b, 8); }

    static std::string show_bits(std::uint32_t b) { return show_float(std::bit_cast<float>(b)) + " (" + bits_hex(b) + ")"; }

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

        // Floats, in either spelling, compare by binary32 bits.
        if (float_field) {
            auto bx = float_bits(e_, e);
            auto by = float_bits(a_, a);
            if (bx && by) {
                if (*bx == *by) return std::nullopt;
                return diff(p, "expected " + show_bits(*bx) + ", got " + detail::excerpt(a_, a, 40) + " = " + show_bits(*by));
            }
            if (bx || by) return mismatch(e, a, p);
        }

        // Strings, in either spelling, compare by UTF-16 code units. Two plain strings are valid
        // UTF-8, where equal bytes and equal code units are the same thing.
        if (x.kind == NodeKind::string && y.kind == NodeKind::string)
            return x.text() == y.text() ? std::nullopt : mismatch(e, a, p);
        auto ue = units(e_, e);
        auto ua = units(a_, a);
        if (ue || ua) {
            if (ue && ua && *ue == *ua) return std::nullopt;
            return mismatch(e, a, p);
        }

        if (x.kind != y.kind) return mismatch(e, a, p);
        switch (x.kind) {
        case NodeKind::null: return std::nullopt;
        case NodeKind::boolean: return x.flag == y.flag ? std::nullopt : mismatch(e, a, p);
        case NodeKind::string: return std::nullopt;  // handled above
        case NodeKind::number: {
            if (x.flag && y.flag) {
                auto vx = detail::integer_value(x.text());
                auto vy = detail::integer_value(y.text());
                if (vx && vy) return *vx == *vy ? std::nullopt : mismatch(e, a, p);
            }
            return x.text() == y.text() ? std::nullopt : mismatch(e, a, p);
        }
        case NodeKind::array: {
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
        case NodeKind::object: {
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
                const bool fl = model::is_float_key(name);
                const bool same_ents =
                    name == model::name(model::DocKeys::ents) && ents_equal_without_tokens(e, a, ke + 1, found + 1);
                if (!same_ents)
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
