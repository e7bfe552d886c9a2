// Builds a Container from fuzzer-chosen values, for the writer and round-trip harnesses.
//
// Every choice is read through a provider (FuzzedDataProvider or fuzz::Provider); a provider
// that has run dry returns 0, and 0 always picks the simple, valid choice, so short inputs give
// small valid content. Larger values pick the edge cases the format cares about (non-BMP text,
// lone surrogates, -0.0, subnormals, long strings) and, more rarely, content a writer must
// refuse (overlapping tokens, heads outside the document, NaN, empty labels, duplicate names,
// ill-formed strings, string ids outside the store, categories in a bin, ...).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "ond/model.hpp"

namespace ond::fuzz {

template <class P>
class ContentBuilder {
public:
    explicit ContentBuilder(P& p) : p_(p) {}

    Container build() {
        Container c;
        c.format = pick(0, 3) == 3 ? Format::ondb : Format::ondc;
        c.crc = p_.ConsumeBool();
        const int vocab = pick(0, 9);
        for (int i = 0; i < vocab; ++i) add_string(c.strings);
        const int docs = c.format == Format::ondc ? 1 : pick(0, 4);
        std::vector<Doc> built;
        for (int i = 0; i < docs; ++i) built.push_back(build_doc(c));
        // A container refuses ids its store lacks: the store is padded for the push_backs, then
        // cut back, so that the rare ids outside it still reach the writer.
        const std::size_t real = c.strings.size();
        StringId top = 0;
        for (Doc& d : built) for_each_id(d, [&](StringId id) { top = std::max(top, id); });
        while (c.strings.size() <= top) c.strings.append("\x01");
        for (const Doc& d : built) c.docs.push_back(d);
        if (c.strings.size() > real) {
            StringStore kept;
            for (StringId i = 1; i < real; ++i) kept.append(c.strings.view(i));
            c.strings = std::move(kept);
        }
        return c;
    }

private:
    template <class F>
    static void for_each_id(const Doc& d, F&& f) {
        for (const auto& col : d.tokens.attrs)
            for (StringId id : col) f(id);
        for (const Entity& e : d.ents) f(e.label);
        for (const Category& k : d.cats) f(k.label);
        for (const SpanGroup& g : d.spans) {
            f(g.name);
            for (const Span& sp : g.spans) f(sp.label);
        }
    }

    int pick(int lo, int hi) { return p_.template ConsumeIntegralInRange<int>(lo, hi); }
    bool rare() { return pick(0, 31) == 31; }

    // Small pieces that the strings and texts are made of.
    static std::string_view piece(int k) {
        static const char* const pieces[] = {
            "a",        "Token",        " ",           "\xC3\xA9",        // é
            "\xE6\x97\xA5\xE6\x9C\xAC", // 日本
            "\xF0\x9F\x98\x80",         // U+1F600, a surrogate pair in UTF-16
            "\xED\xA0\x80",             // lone high surrogate U+D800
            "\xED\xBF\xBF",             // lone low surrogate U+DFFF
            "\xEF\xBB\xBF",             // U+FEFF
            "NOUN",     "\n",           "0",
        };
        return pieces[k % 12];
    }

    std::string make_string(bool allow_invalid) {
        std::string s;
        const int kind = pick(0, 7);
        if (kind == 7) {
            s.assign(static_cast<std::size_t>(pick(100, 300)), 'x');  // a length varint of 2 bytes
            return s;
        }
        const int parts = pick(1, 3);
        for (int i = 0; i < parts; ++i) {
            std::string_view pc = piece(pick(0, 11));
            if (!s.empty() && pc == "\xED\xBF\xBF" && s.size() >= 3 && s.compare(s.size() - 3, 3, "\xED\xA0\x80") == 0)
                pc = "a";  // a high then low surrogate would have to be one 4-byte sequence
            s += pc;
        }
        if (allow_invalid && rare()) s += static_cast<char>(pick(0x80, 0xFF));  // ill-formed
        return s;
    }

    void add_string(StringStore& st) {
        std::string s = make_string(true);
        const int how = pick(0, 15);
        if (how == 15)
            st.append(s);   // a duplicate value under a second id
        else if (how == 14)
            st.append("");  // a stored empty string at a non-zero id
        else
            st.intern(s);
    }

    StringId attr(const StringStore& st) {
        const int k = pick(0, 7);
        if (k == 0 || st.size() <= 1) return 0;
        if (k == 7 && rare()) return static_cast<StringId>(st.size() + static_cast<std::size_t>(pick(0, 3)));  // not in store
        return static_cast<StringId>(pick(1, static_cast<int>(st.size()) - 1));
    }
    StringId label(const StringStore& st) {
        if (rare()) return 0;  // an empty label
        if (st.size() <= 1) return 0;
        return static_cast<StringId>(pick(1, static_cast<int>(st.size()) - 1));
    }

    float confidence() {
        switch (pick(0, 15)) {
            case 0: return 1.0f;
            case 1: return 0.0f;
            case 2: return -0.0f;
            case 3: return 0.5f;
            case 4: return std::numeric_limits<float>::denorm_min();
            case 5: return std::numeric_limits<float>::min() / 2.0f;  // subnormal
            case 6: return 0.99999994f;
            case 7: return static_cast<float>(pick(0, 1000)) / 1000.0f;
            case 8: return std::numeric_limits<float>::min();
            default:
                if (!rare()) return 0.25f;
                switch (pick(0, 4)) {
                    case 0: return std::numeric_limits<float>::quiet_NaN();
                    case 1: return 1.0000001f;
                    case 2: return -std::numeric_limits<float>::denorm_min();
                    case 3: return std::numeric_limits<float>::infinity();
                    default: return -0.5f;
                }
        }
    }

    Doc build_doc(Container& c) {
        Doc d;
        std::string text;
        const int parts = pick(0, 8);
        for (int i = 0; i < parts; ++i) {
            std::string_view pc = piece(pick(0, 11));
            if (pc == "\xED\xBF\xBF" && text.size() >= 3 && text.compare(text.size() - 3, 3, "\xED\xA0\x80") == 0) pc = " ";
            text += pc;
        }
        if (rare()) {
            text += static_cast<char>(pick(0x80, 0xFF));  // ill-formed: the writer must refuse
            d.text = text;
        } else {
            d.set_text(text);
        }
        // Ill-formed text has no UTF-16 length: its byte count stands in for the tokens' offsets.
        const std::uint32_t len = d.text_utf16_length() ? d.text_utf16_length() : static_cast<std::uint32_t>(text.size());
        Tokens& t = d.tokens;
        const int n = pick(0, 12);
        std::uint32_t pos = 0;
        const bool all_one = pick(0, 1) == 0;
        for (int i = 0; i < n; ++i) {
            std::uint32_t gap = static_cast<std::uint32_t>(pick(0, 2));
            std::uint32_t l = static_cast<std::uint32_t>(pick(1, 3));
            if (rare()) l = 0;
            std::uint32_t start = pos + gap;
            if (rare() && pos > 0) start = pos - 1;  // overlaps the previous token
            if (start + l > len && !rare()) {
                if (len == 0 || pos >= len) break;  // keep tokens inside the text
                start = pos;
                l = len - pos < l ? len - pos : l;
                if (l == 0) break;
            }
            t.start.push_back(start);
            t.length.push_back(l);
            pos = start + l;
        }
        const std::size_t count = t.start.size();
        for (auto& col : t.attrs)
            for (std::size_t i = 0; i < count; ++i) col.push_back(attr(c.strings));
        for (std::size_t i = 0; i < count; ++i) {
            std::int64_t h = static_cast<std::int64_t>(i);
            const int k = pick(0, 3);
            if (k == 1) h = pick(0, static_cast<int>(count) - 1);
            if (k == 2 && rare()) h = pick(0, 1) ? static_cast<std::int64_t>(count) : -1;
            t.head.push_back(static_cast<std::int32_t>(h));
            int s = pick(0, 2);
            if (rare()) s = 3;
            t.sent.push_back(static_cast<Sentence>(s));
            t.conf.push_back(all_one ? 1.0f : confidence());
        }
        // Entities: optional section; in text order, maybe gapped.
        d.has_ents = pick(0, 2) != 0;
        if (d.has_ents) {
            const int ne = pick(0, 4);
            std::uint32_t at = 0;
            for (int i = 0; i < ne; ++i) {
                Entity e;
                e.start = at + static_cast<std::uint32_t>(pick(0, 2));
                e.length = static_cast<std::uint32_t>(pick(1, 2));
                if (rare()) e.length = 0;
                if (rare() && at > 0) e.start = at - 1;  // overlaps
                if (e.start + e.length > count && !rare()) break;
                e.label = label(c.strings);
                e.conf = confidence();
                d.ents.push_back(e);
                at = e.start + e.length;
            }
        }
        // Categories and span groups: ONDC only, except rarely (a bin's writer must refuse them).
        const bool extras = c.format == Format::ondc || rare();
        if (extras && pick(0, 1) == 1) {
            d.has_cats = true;
            const int nc = pick(0, 3);
            for (int i = 0; i < nc; ++i) {
                Category k;
                k.label = label(c.strings);
                k.score = confidence();
                d.cats.push_back(k);  // duplicates are possible when the vocabulary is small
            }
        }
        if (extras && pick(0, 2) == 2) {
            const int ng = pick(1, 2);
            for (int g = 0; g < ng; ++g) {
                SpanGroup grp;
                grp.name = label(c.strings);
                const int ns = pick(0, 3);
                for (int i = 0; i < ns; ++i) {
                    Span sp;
                    sp.start = count ? static_cast<std::uint32_t>(pick(0, static_cast<int>(count) - 1)) : 0;
                    sp.length = static_cast<std::uint32_t>(pick(1, 3));
                    if (rare()) sp.length = 0;
                    if (sp.start + sp.length > count && !rare()) continue;
                    sp.label = label(c.strings);
                    sp.conf = confidence();
                    grp.spans.push_back(sp);
                }
                d.spans.push_back(std::move(grp));
            }
        }
        return d;
    }

    P& p_;
};

}  // namespace ond::fuzz
