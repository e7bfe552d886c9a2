#include "build.hpp"

#include "ond/unicode.hpp"

namespace ond::corpus::build {

Container ondc(bool crc) {
    Container c;
    c.format = Format::ondc;
    c.crc = crc;
    return c;
}

Container ondb(bool crc) {
    Container c;
    c.format = Format::ondb;
    c.crc = crc;
    return c;
}

Doc new_doc(std::string_view text) {
    Doc d;
    d.set_text(text);
    return d;
}

void add_doc(Container& c, std::string_view text) { c.docs.push_back(new_doc(text)); }

void add_token(Container& c, Doc& d, std::uint32_t start, std::uint32_t length, const Attrs& a, std::int32_t head,
               Sentence sent, float conf) {
    Tokens& t = d.tokens;
    const auto i = static_cast<std::int32_t>(t.size());
    t.start.push_back(start);
    t.length.push_back(length);
    const std::string_view vals[6] = {a.norm, a.lemma, a.pos, a.tag, a.dep, a.morph};
    for (std::size_t k = 0; k < token_column_count; ++k) t.attrs[k].push_back(c.strings.intern(vals[k]));
    t.head.push_back(head < 0 ? i : head);
    t.sent.push_back(sent);
    t.conf.push_back(conf);
}

namespace {

bool is_space(char16_t u) { return u == u' ' || u == u'\t' || u == u'\n' || u == u'\r' || u == u'\u3000'; }
bool ends_sentence(char16_t u) { return u == u'.' || u == u'!' || u == u'?' || u == u'\u3002'; }

std::string ascii_lower(std::string s) {
    for (char& ch : s)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    return s;
}

}  // namespace

void tokenize(Container& c, Doc& d, const Annot& a) {
    const std::u16string u = unicode::utf16_from_wtf8(d.text);
    Rng rng(a.seed);
    static const char* const pos_list[] = {"NOUN", "VERB", "ADJ", "DET", "ADP", "PRON", "ADV"};
    static const char* const dep_list[] = {"nsubj", "obj", "amod", "det", "case", "obl", "advmod"};
    struct W {
        std::uint32_t start, len;
        bool last_in_sentence;
    };
    std::vector<W> words;
    for (std::size_t i = 0; i < u.size();) {
        if (is_space(u[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < u.size() && !is_space(u[j])) ++j;
        words.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j - i), ends_sentence(u[j - 1])});
        i = j;
    }
    const std::size_t base = d.tokens.size();
    std::size_t sent_start = 0;
    for (std::size_t w = 0; w < words.size(); ++w) {
        if (w > 0 && words[w - 1].last_in_sentence) sent_start = w;
        std::size_t sent_last = sent_start;
        while (sent_last + 1 < words.size() && !words[sent_last].last_in_sentence) ++sent_last;
        const std::size_t root = sent_start + (sent_last - sent_start) / 2;

        const std::string form = unicode::wtf8_from_utf16(std::u16string_view(u).substr(words[w].start, words[w].len));
        std::string norm, lemma, pos, tag, dep, morph;
        if (a.attrs) {
            norm = ascii_lower(form);
            lemma = norm.size() > 3 && norm.back() == 's' ? norm.substr(0, norm.size() - 1) : norm;
            const char16_t first = u[words[w].start];
            if (words[w].len == 1 && (ends_sentence(first) || first == u',' || first == u'\u3001'))
                pos = "PUNCT";
            else if (first >= u'0' && first <= u'9')
                pos = "NUM";
            else if (first >= u'A' && first <= u'Z')
                pos = "PROPN";
            else
                pos = pos_list[rng.below(7)];
            tag = pos == "NOUN" ? (lemma != norm ? "NNS" : "NN") : pos.substr(0, 2);
            dep = w == root ? "ROOT" : dep_list[rng.below(7)];
            morph = pos == "NOUN" ? (lemma != norm ? "Number=Plur" : "Number=Sing") : "";
        }
        const auto head = a.heads ? static_cast<std::int32_t>(base + root) : static_cast<std::int32_t>(base + w);
        const Sentence s = !a.sents ? Sentence::unset : (w == sent_start ? Sentence::start : Sentence::inside);
        const float conf = a.confs ? rng.conf() : 1.0f;
        add_token(c, d, words[w].start, words[w].len, Attrs{norm, lemma, pos, tag, dep, morph}, head, s, conf);
    }
}

void add_tokenized(Container& c, std::string_view text, const Annot& a) {
    Doc d = new_doc(text);
    tokenize(c, d, a);
    c.docs.push_back(d);
}

void add_ent(Container& c, Doc& d, std::uint32_t start, std::uint32_t length, std::string_view label, float conf) {
    d.has_ents = true;
    d.ents.push_back(Entity{start, length, c.strings.intern(label), conf});
}

void add_cat(Container& c, Doc& d, std::string_view label, float score) {
    d.has_cats = true;
    d.cats.push_back(Category{c.strings.intern(label), score});
}

SpanGroup& add_group(Container& c, Doc& d, std::string_view name) {
    SpanGroup& g = d.spans.emplace_back();
    g.name = c.strings.intern(name);
    return g;
}

void add_span(Container& c, SpanGroup& g, std::uint32_t start, std::uint32_t length, std::string_view label,
              float conf) {
    g.spans.push_back(Span{start, length, c.strings.intern(label), conf});
}

std::string wtf8(std::u16string_view units) { return unicode::wtf8_from_utf16(units); }

Container sample(bool crc) {
    Container c = ondc(crc);
    Doc d = new_doc("Ada Lovelace met Charles Babbage in London. They wrote notes.");
    tokenize(c, d, Annot{true, true, true, true, 7});
    add_ent(c, d, 0, 2, "PERSON", 0.9375f);
    add_ent(c, d, 3, 2, "PERSON", 0.875f);
    add_ent(c, d, 6, 1, "GPE", 1.0f);
    add_cat(c, d, "history", 0.75f);
    add_cat(c, d, "science", 0.25f);
    SpanGroup& g = add_group(c, d, "sc");
    add_span(c, g, 0, 2, "PERSON", 0.5f);
    add_span(c, g, 1, 4, "EVENT", 0.25f);
    SpanGroup& g2 = add_group(c, d, "quotes");
    add_span(c, g2, 7, 3, "CLAIM", 1.0f);
    c.docs.push_back(d);
    return c;
}

Container plain(std::string_view text, bool crc, const Annot& a) {
    Container c = ondc(crc);
    add_tokenized(c, text, a);
    return c;
}

}  // namespace ond::corpus::build
