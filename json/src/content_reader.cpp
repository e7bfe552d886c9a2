// Content JSON -> content in one pass over the text, straight into the container (from_json's
// fast road). It reads content JSON as to_json writes it, keys in any order within a token,
// entity, category or span, and gives up (returns false) at anything else: a syntax error, a
// key it does not expect, a value out of range, or an order of keys whose strings would be
// interned in another order than the full reading interns them (a document's "tokens", "ents",
// "cats", "spans" out of that order; a span group's "spans" before its "name"). from_json then
// reads the text with the tape and the loader (content_loader.cpp), which give every error its
// message, so one reading defines what is accepted and this one only has to agree with it.
#include <bit>
#include <cstring>
#include <limits>

#include "content_common.hpp"
#include "content_model.hpp"
#include "content_reader.hpp"
#include "ond/content_json.hpp"
#include "ond/error.hpp"
#include "ond/unicode.hpp"

namespace ond::json::detail {

namespace {

struct GiveUp {};  // not on this reader's road: the full reading judges the text

[[noreturn]] void give_up() { throw GiveUp{}; }

int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Index of `key` in Keys::names, trying `hint` first (keys usually come in the writer's order).
template <class Keys>
std::size_t slot_of(std::string_view key, std::size_t hint) {
    if (hint < Keys::key_count && Keys::names[hint] == key) return hint;
    for (std::size_t s = 0; s < Keys::key_count; ++s)
        if (Keys::names[s] == key) return s;
    give_up();
}

class Reader {
public:
    Reader(std::string_view text, Container& c) : p_(text.data()), end_(text.data() + text.size()), c_(c) {}

    void run() {
        using K = model::ContainerKeys;
        std::uint32_t seen = 0;
        std::string_view format;
        members([&](std::string_view k) {
            const std::size_t s = mark<K>(k, seen, 0);
            if (s == K::format) format = string(format_);
            else if (s == K::crc) c_.crc = boolean();
            else if (s == K::doc) doc();
            else elements([&] { doc(); });
        });
        skip_ws();
        if (p_ != end_ || (seen & K::required) != K::required) give_up();
        const bool has_doc = seen & (1u << K::doc), has_docs = seen & (1u << K::docs);
        if (format == "ONDC" && has_doc && !has_docs) c_.format = Format::ondc;
        else if (format == "ONDB" && has_docs && !has_doc) c_.format = Format::ondb;
        else give_up();
    }

private:
    // Slot of key k in Keys, marked in `seen`; a second time or an unknown key gives up.
    template <class Keys>
    std::size_t mark(std::string_view k, std::uint32_t& seen, std::size_t hint) {
        const std::size_t s = slot_of<Keys>(k, hint);
        if (seen & (1u << s)) give_up();
        seen |= 1u << s;
        return s;
    }

    void skip_ws() {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }
    char peek() {
        skip_ws();
        if (p_ == end_) give_up();
        return *p_;
    }
    void expect(char c) {
        if (peek() != c) give_up();
        ++p_;
    }

    // Calls on(key) for each member of an object, the reader at the member's value.
    template <class F>
    void members(F&& on) {
        expect('{');
        if (peek() == '}') {
            ++p_;
            return;
        }
        for (;;) {
            expect('"');
            const char* k = p_;
            while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20 &&
                   static_cast<unsigned char>(*p_) < 0x80)
                ++p_;
            if (p_ == end_ || *p_ != '"') give_up();  // a key with an escape or non-ASCII is none of ours
            const std::string_view key(k, static_cast<std::size_t>(p_ - k));
            ++p_;
            expect(':');
            on(key);
            const char c = peek();
            ++p_;
            if (c == '}') return;
            if (c != ',') give_up();
        }
    }

    // Calls on() for each element of an array, the reader at the element.
    template <class F>
    void elements(F&& on) {
        expect('[');
        if (peek() == ']') {
            ++p_;
            return;
        }
        for (;;) {
            on();
            const char c = peek();
            ++p_;
            if (c == ']') return;
            if (c != ',') give_up();
        }
    }

    // A JSON string's value, valid UTF-8: a view of the text, or of `scratch` when it had escapes.
    std::string_view string(std::string& scratch) {
        expect('"');
        const char* s = p_;
        unsigned char high = 0;  // any byte >= 0x80
        for (;;) {
            if (p_ == end_) give_up();
            const auto ch = static_cast<unsigned char>(*p_);
            if (ch == '"' || ch == '\\') break;
            if (ch < 0x20) give_up();
            high |= ch;
            ++p_;
        }
        std::string_view v(s, static_cast<std::size_t>(p_ - s));
        if (*p_ == '\\') {
            scratch.assign(v);
            unescape(scratch);
            v = scratch;
            high = 0x80;
        }
        ++p_;  // closing quote
        if ((high & 0x80) &&
            !unicode::utf8_utf16_length(reinterpret_cast<const unsigned char*>(v.data()), v.size()))
            give_up();
        if (v.size() > 0xFFFFFFFFu) give_up();
        return v;
    }

    // The rest of a string with escapes, from the first backslash, appended to `out`.
    void unescape(std::string& out) {
        for (;;) {
            if (p_ == end_) give_up();
            const auto ch = static_cast<unsigned char>(*p_);
            if (ch == '"') return;
            if (ch < 0x20) give_up();
            ++p_;
            if (ch != '\\') {
                out.push_back(static_cast<char>(ch));
                continue;
            }
            if (p_ == end_) give_up();
            switch (*p_++) {
            case '"': out.push_back('"'); break;
            case '\\': out.push_back('\\'); break;
            case '/': out.push_back('/'); break;
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                std::uint32_t u = hex4();
                if (u >= 0xDC00 && u <= 0xDFFF) give_up();  // lone low surrogate
                if (u >= 0xD800 && u <= 0xDBFF) {
                    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') give_up();
                    p_ += 2;
                    const std::uint32_t v = hex4();
                    if (v < 0xDC00 || v > 0xDFFF) give_up();
                    u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
                }
                unicode::append_utf8(out, u);
                break;
            }
            default: give_up();
            }
        }
    }

    std::uint32_t hex4() {
        if (end_ - p_ < 4) give_up();
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const int h = hex_digit(p_[k]);
            if (h < 0) give_up();
            v = v * 16 + static_cast<std::uint32_t>(h);
        }
        p_ += 4;
        return v;
    }

    // A JSON number's text (RFC 8259 grammar); `integer` when it has no fraction and no exponent.
    std::string_view number(bool& integer) {
        skip_ws();
        const char* s = p_;
        auto digit = [&] { return p_ != end_ && *p_ >= '0' && *p_ <= '9'; };
        auto digits = [&] {
            if (!digit()) give_up();
            while (digit()) ++p_;
        };
        if (p_ != end_ && *p_ == '-') ++p_;
        if (p_ != end_ && *p_ == '0') {
            ++p_;
            if (digit()) give_up();
        } else {
            digits();
        }
        integer = true;
        if (p_ != end_ && *p_ == '.') {
            integer = false;
            ++p_;
            digits();
        }
        if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
            integer = false;
            ++p_;
            if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
            digits();
        }
        return std::string_view(s, static_cast<std::size_t>(p_ - s));
    }

    std::int64_t integer(std::int64_t lo, std::int64_t hi) {
        bool is_integer = false;
        const std::string_view t = number(is_integer);
        const auto v = is_integer ? integer_value(t) : std::nullopt;
        if (!v || *v < lo || *v > hi) give_up();
        return *v;
    }
    std::uint32_t u32() { return static_cast<std::uint32_t>(integer(0, 0xFFFFFFFFll)); }

    // A number, or {"f32bits": N}.
    float floating() {
        if (peek() == '{') {
            using K = model::F32BitsKeys;
            std::uint32_t seen = 0, bits = 0;
            members([&](std::string_view k) {
                mark<K>(k, seen, 0);
                bits = u32();
            });
            if (seen != K::required) give_up();
            return std::bit_cast<float>(bits);
        }
        bool is_integer = false;
        return float_of_json_number(number(is_integer));
    }

    bool boolean() {
        skip_ws();
        if (end_ - p_ >= 4 && std::memcmp(p_, "true", 4) == 0) {
            p_ += 4;
            return true;
        }
        if (end_ - p_ >= 5 && std::memcmp(p_, "false", 5) == 0) {
            p_ += 5;
            return false;
        }
        give_up();
    }
    // Consumes null when it is next.
    bool null() {
        if (peek() != 'n') return false;
        if (end_ - p_ < 4 || std::memcmp(p_, "null", 4) != 0) give_up();
        p_ += 4;
        return true;
    }

    // A content string, plain or {"utf16": [...]}, as WTF-8 (a view of the text or of `scratch`).
    std::string_view content_string(std::string& scratch) {
        if (peek() != '{') return string(scratch);
        using K = model::Utf16Keys;
        std::uint32_t seen = 0;
        units_.clear();
        members([&](std::string_view k) {
            mark<K>(k, seen, 0);
            elements([&] { units_.push_back(static_cast<char16_t>(integer(0, 0xFFFF))); });
        });
        if (seen != K::required) give_up();
        scratch = unicode::wtf8_from_utf16(units_);
        return scratch;
    }

    StringId label() { return c_.strings.intern(content_string(scratch_[0])); }

    // An entity's or a span's four members.
    template <class Keys, class X>
    void labelled_span(X& x) {
        std::uint32_t seen = 0;
        std::size_t hint = 0;
        members([&](std::string_view k) {
            const std::size_t s = mark<Keys>(k, seen, hint);
            hint = s + 1;
            if (s == Keys::start) x.start = u32();
            else if (s == Keys::length) x.length = u32();
            else if (s == Keys::label) x.label = label();
            else x.conf = floating();
        });
        if (seen != Keys::required) give_up();
    }

    void tokens() {
        using T = model::TokenKeys;
        Tokens& t = doc_.tokens;
        elements([&] {
            std::uint32_t seen = 0;
            std::size_t hint = 0;
            std::uint32_t start = 0, length = 0;
            std::int64_t head = 0, sent = 0;
            float conf = 0;
            std::string_view labels[token_column_count];
            members([&](std::string_view k) {
                const std::size_t s = mark<T>(k, seen, hint);
                hint = s + 1;
                switch (s) {
                case T::start: start = u32(); break;
                case T::length: length = u32(); break;
                case T::head: head = integer(std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()); break;
                case T::sent: sent = integer(0, 255); break;
                case T::conf: conf = floating(); break;
                default: labels[s - T::norm] = content_string(scratch_[s - T::norm]); break;
                }
            });
            if (seen != T::required) give_up();
            t.start.push_back(start);
            t.length.push_back(length);
            // Interned in column order, as the full reading interns them.
            for (std::size_t col = 0; col < token_column_count; ++col) t.attrs[col].push_back(c_.strings.intern(labels[col]));
            t.head.push_back(static_cast<std::int32_t>(head));
            t.sent.push_back(static_cast<Sentence>(sent));
            t.conf.push_back(conf);
        });
    }

    void span_groups() {
        using G = model::SpanGroupKeys;
        elements([&] {
            std::uint32_t seen = 0;
            SpanGroup& g = doc_.spans.emplace_back();
            members([&](std::string_view k) {
                if (mark<G>(k, seen, 0) == G::name) {
                    g.name = label();
                } else {
                    if (!(seen & (1u << G::name))) give_up();  // its labels would be interned before the name
                    elements([&] { labelled_span<model::SpanKeys>(g.spans.emplace_back()); });
                }
            });
            if (seen != G::required) give_up();
        });
    }

    void doc() {
        using D = model::DocKeys;
        Doc& d = doc_;
        d.text.clear();
        d.tokens.clear();
        d.has_ents = d.has_cats = false;
        d.ents.clear();
        d.cats.clear();
        d.spans.clear();
        std::uint32_t seen = 0;
        std::size_t last = 0;  // the last of tokens, ents, cats, spans read: they must come in that order
        members([&](std::string_view k) {
            const std::size_t s = mark<D>(k, seen, last + 1);
            if (s == D::text) {
                d.set_text(content_string(scratch_[0]));
                return;
            }
            if (s < last) give_up();
            last = s;
            if (s == D::tokens) {
                tokens();
            } else if (s == D::ents) {
                if (null()) return;
                d.has_ents = true;
                elements([&] { labelled_span<model::EntityKeys>(d.ents.emplace_back()); });
            } else if (s == D::cats) {
                if (null()) return;
                d.has_cats = true;
                elements([&] {
                    using C = model::CategoryKeys;
                    std::uint32_t cseen = 0;
                    Category& x = d.cats.emplace_back();
                    members([&](std::string_view ck) {
                        if (mark<C>(ck, cseen, 0) == C::label) x.label = label();
                        else x.score = floating();
                    });
                    if (cseen != C::required) give_up();
                });
            } else {
                span_groups();
            }
        });
        if (seen != D::required) give_up();
        c_.docs.push_back(d);
    }

    const char* p_;
    const char* end_;
    Container& c_;
    Doc doc_;  // the document being read, its buffers reused from one to the next
    std::string scratch_[token_column_count];  // a token's strings that had escapes, one per column
    std::u16string units_;
    std::string format_;  // the format's name, when it had escapes
};

}  // namespace

bool read_content(std::string_view text, Container& c) {
    try {
        Reader(text, c).run();
        return true;
    } catch (const GiveUp&) {
    } catch (const Error&) {
        // Doc::set_text refused the text (content.too-large): the full reading raises it again.
    } catch (const JsonError&) {
        // Never from a number this reader checked; the full reading says what it is.
    }
    return false;
}

}  // namespace ond::json::detail
