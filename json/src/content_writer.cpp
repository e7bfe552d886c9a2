// Content -> content JSON (to_json, write_json), keys from the content model.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "content_common.hpp"
#include "content_model.hpp"
#include "json_tape.hpp"
#include "ond/content_json.hpp"
#include "ond/unicode.hpp"

namespace ond::json {

namespace {

using C = model::ContainerKeys;
using D = model::DocKeys;
using T = model::TokenKeys;
using E = model::EntityKeys;
using K = model::CategoryKeys;
using G = model::SpanGroupKeys;
using S = model::SpanKeys;

class Writer {
public:
    // With a sink, the text goes out in pieces of about flush_size bytes as it is made, so the
    // writer holds no more than one piece whatever the size of the whole.
    Writer(const Container& c, bool pretty, const JsonSink* sink = nullptr) : c_(c), pretty_(pretty), sink_(sink) {}

    std::string run() {
        // One buffer for the whole text: growing it would copy it and touch new pages each time.
        out_.reserve(sink_ ? flush_size + 4096 : size_bound());
        out_ += '{';
        nl(1);
        key(C::format);
        out_ += c_.format == Format::ondc ? "\"ONDC\"" : "\"ONDB\"";
        comma(1);
        key(C::crc);
        out_ += c_.crc ? "true" : "false";
        comma(1);
        if (c_.format == Format::ondc) {
            if (c_.docs.size() != 1)
                throw JsonError("an ONDC container holds exactly one document, this one has " +
                                std::to_string(c_.docs.size()));
            key(C::doc);
            doc(c_.docs[0], 1);
        } else {
            key(C::docs);
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
    // A key of the content model (content_model.hpp).
    template <class Key>
        requires std::is_enum_v<Key>
    void key(Key k) {
        key(model::name(k));
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
    // A JSON number has no NaN or infinity: those go as {"f32bits": N}, the binary32 pattern.
    void flt(float f) {
        if (std::isfinite(f)) {
            out_ += format_float(f);
            return;
        }
        out_ += '{';
        key(model::F32BitsKeys::f32bits);
        num(std::bit_cast<std::uint32_t>(f));
        out_ += '}';
    }
    void str(std::string_view wtf8) {
        if (!unicode::wtf8_has_surrogate(wtf8)) {
            detail::append_quoted(out_, wtf8);
            return;
        }
        out_ += '{';
        key(model::Utf16Keys::utf16);
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
        if (!plain(id)) {
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
    // The members of token i, as the member-by-member code below writes them, made in a buffer
    // on the stack and appended at once (the common case: six short plain labels and a finite
    // confidence). False, with nothing written, for any other token.
    bool token_in_one_piece(const TokenSlice& t, std::size_t i) {
        constexpr std::size_t label_room = 512;
        std::string_view labels[token_column_count];
        std::size_t label_bytes = 0;
        for (std::size_t col = 0; col < token_column_count; ++col) {
            const StringId id = t.attrs[col][i];
            if (!c_.strings.contains(id) || !plain(id)) return false;
            labels[col] = c_.strings.view(id);
            label_bytes += labels[col].size();
        }
        const float conf = t.conf[i];
        if (label_bytes > label_room || !std::isfinite(conf)) return false;
        char buf[label_room + 384];  // the keys (under 120 bytes pretty), 5 numbers, 12 quotes
        char* p = buf;
        auto key_at = [&](T::Key k) {
            if (k != T::start) p = put(p, pretty_ ? ", " : ",");
            *p++ = '"';
            p = put(p, model::name(k));
            p = put(p, pretty_ ? "\": " : "\":");
        };
        key_at(T::start);
        p = std::to_chars(p, p + 10, t.start[i]).ptr;
        key_at(T::length);
        p = std::to_chars(p, p + 10, t.length[i]).ptr;
        for (std::size_t col = 0; col < token_column_count; ++col) {
            key_at(T::column(col));
            *p++ = '"';
            p = put(p, labels[col]);
            *p++ = '"';
        }
        key_at(T::head);
        p = std::to_chars(p, p + 11, t.head[i]).ptr;
        key_at(T::sent);
        p = std::to_chars(p, p + 3, static_cast<std::uint8_t>(t.sent[i])).ptr;
        key_at(T::conf);
        if (conf == 0.0f)
            p = put(p, std::signbit(conf) ? "-0.0" : "0.0");
        else
            p = std::to_chars(p, p + 32, conf).ptr;  // as format_float
        out_.append(buf, static_cast<std::size_t>(p - buf));
        maybe_flush();
        return true;
    }
    static char* put(char* p, std::string_view s) {
        std::memcpy(p, s.data(), s.size());
        return p + s.size();
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
    bool plain(StringId id) {
        if (plain_.empty()) plain_.assign(c_.strings.size(), unknown);
        if (plain_[id] == unknown) plain_[id] = is_plain(c_.strings.view(id)) ? yes : no;
        return plain_[id] == yes;
    }

    // At least the length of the text (usually within a few percent): the keys and punctuation
    // of each object, numbers at their widest, strings as they are (plain) or at the widest of
    // their escaped and {"utf16"} forms (12 bytes per byte covers "65535, " per unit and
    // "\u00XX" per byte). Reserving it is free where it overshoots: untouched pages stay unmapped.
    std::size_t size_bound() {
        constexpr std::size_t number = 11, floating = 24;  // "-2147483648"; {"f32bits":4294967295}
        auto string_bound = [](std::string_view v, bool is_plain) { return is_plain ? v.size() + 2 : 12 * v.size() + 16; };
        auto label = [&](StringId id) {
            if (!c_.strings.contains(id)) return std::size_t{0};  // refused when it is written
            return string_bound(c_.strings.view(id), plain(id));
        };
        std::size_t n = 128;
        for (const DocSlice d : c_.docs) {
            n += overhead<D>() + string_bound(d.text, is_plain(d.text));
            const TokenSlice& t = d.tokens;
            n += t.size() * (overhead<T>() + 4 * number + floating);
            for (const auto& col : t.attrs)
                for (std::size_t i = 0; i < col.size(); ++i) n += label(col[i]);
            for (const Entity& e : d.ents) n += overhead<E>() + 2 * number + floating + label(e.label);
            for (const Category& x : d.cats) n += overhead<K>() + floating + label(x.label);
            for (const SpanGroupSlice g : d.spans) {
                n += overhead<G>() + label(g.name);
                for (const Span& x : g.spans) n += overhead<S>() + 2 * number + floating + label(x.label);
            }
        }
        return n;
    }
    // An object's keys, quotes, colons, separators and braces, with the comma before it; pretty:
    // with the spaces after colons and commas, and its line's start (documents nest 5 deep).
    template <class Keys>
    std::size_t overhead() const {
        std::size_t n = 3;
        for (std::string_view k : Keys::names) n += k.size() + 4 + (pretty_ ? 2 : 0);  // "k": and ,
        return n + (pretty_ ? 2 + 2 * 6 : 0);
    }

    static constexpr std::uint8_t unknown = 0, yes = 1, no = 2;
    std::vector<std::uint8_t> plain_;  // per string id

    // A JSON array of n objects, each on its own line at `level` when pretty; item(i) writes the
    // members of the i-th.
    template <class F>
    void objects(std::size_t n, int level, F&& item) {
        out_ += '[';
        for (std::size_t i = 0; i < n; ++i) {
            if (i) out_ += ',';
            nl(level);
            out_ += '{';
            item(i);
            out_ += '}';
        }
        if (n) nl(level - 1);
        out_ += ']';
    }

    // The members of an entity or a span: the same four fields.
    template <class Keys, class X>
    void labelled_span(const X& x) {
        key(Keys::start); num(x.start); sep();
        key(Keys::length); num(x.length); sep();
        key(Keys::label); sid(x.label); sep();
        key(Keys::conf); flt(x.conf);
    }

    void doc(const DocSlice& d, int level) {
        out_ += '{';
        nl(level + 1);
        key(D::text);
        str(d.text);
        maybe_flush();
        comma(level + 1);

        key(D::tokens);
        const TokenSlice& t = d.tokens;
        objects(t.size(), level + 2, [&](std::size_t i) {
            if (token_in_one_piece(t, i)) return;
            key(T::start); num(t.start[i]); sep();
            key(T::length); num(t.length[i]); sep();
            for (std::size_t col = 0; col < token_column_count; ++col) {
                key(T::column(col));
                sid(t.attrs[col][i]);
                sep();
            }
            key(T::head); inum(t.head[i]); sep();
            key(T::sent); num(static_cast<std::uint8_t>(t.sent[i])); sep();
            key(T::conf); flt(t.conf[i]);
        });
        comma(level + 1);

        key(D::ents);
        if (!d.has_ents)
            out_ += "null";
        else
            objects(d.ents.size(), level + 2, [&](std::size_t i) { labelled_span<E>(d.ents[i]); });
        comma(level + 1);

        key(D::cats);
        if (!d.has_cats) {
            out_ += "null";
        } else {
            objects(d.cats.size(), level + 2, [&](std::size_t i) {
                key(K::label); sid(d.cats[i].label); sep();
                key(K::score); flt(d.cats[i].score);
            });
        }
        comma(level + 1);

        key(D::spans);
        objects(d.spans.size(), level + 2, [&](std::size_t g) {
            const SpanGroupSlice grp = d.spans[g];
            key(G::name); sid(grp.name); sep();
            key(G::spans);
            objects(grp.spans.size(), level + 3, [&](std::size_t i) { labelled_span<S>(grp.spans[i]); });
        });
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

}  // namespace ond::json
