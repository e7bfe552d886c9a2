#include "workload.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "ond/unicode.hpp"
#include "ond/writer.hpp"

namespace ond::bench {
namespace {

constexpr std::uint32_t vocabulary_size = 5000;
constexpr double zipf_exponent = 1.0;

constexpr std::array<std::string_view, 17> upos = {
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM",
    "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"};
constexpr std::array<std::string_view, 38> deps = {
    "acl", "acomp", "advcl", "advmod", "agent", "amod", "appos", "attr", "aux", "auxpass",
    "case", "cc", "ccomp", "compound", "conj", "csubj", "dative", "dep", "det", "dobj",
    "expl", "intj", "mark", "meta", "neg", "nmod", "npadvmod", "nsubj", "nsubjpass", "nummod",
    "oprd", "parataxis", "pcomp", "pobj", "poss", "prep", "punct", "xcomp"};
constexpr std::array<std::string_view, 18> ent_labels = {
    "CARDINAL", "DATE", "EVENT", "FAC", "GPE", "LANGUAGE", "LAW", "LOC", "MONEY",
    "NORP", "ORDINAL", "ORG", "PERCENT", "PERSON", "PRODUCT", "QUANTITY", "TIME", "WORK_OF_ART"};
constexpr std::array<std::string_view, 10> cat_labels = {
    "POSITIVE", "NEGATIVE", "NEUTRAL", "SPORTS", "POLITICS", "SCIENCE", "BUSINESS", "HEALTH", "TRAVEL", "OTHER"};
constexpr std::array<std::string_view, 4> span_labels = {"NP", "VP", "PP", "CLAUSE"};
constexpr std::array<std::string_view, 12> morph_features = {
    "Number=Sing", "Number=Plur", "Tense=Past", "Tense=Pres", "VerbForm=Fin", "VerbForm=Inf",
    "Person=3", "Degree=Pos", "Case=Nom", "Definite=Def", "PronType=Prs", "Mood=Ind"};

enum class Script : std::uint8_t { latin, cyrillic, greek, cjk, astral, punct };

struct Word {
    std::string surface;      // as it appears mid-sentence
    std::string capitalised;  // at the start of a sentence (== surface when the script has no case)
    std::string lemma;
    std::string_view pos;
    std::string tag;
    std::string morph;
    Script script = Script::latin;
};

std::string latin_word(Rng& rng, std::uint32_t rank, bool accents) {
    static constexpr std::string_view onsets[] = {"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p",
                                                  "r", "s", "t", "v", "w", "st", "th", "sh", "ch", "pr", "tr", "gr", ""};
    static constexpr std::string_view vowels[] = {"a", "e", "i", "o", "u", "ea", "ou", "ai", "y"};
    static constexpr std::string_view codas[] = {"", "", "n", "r", "s", "t", "l", "nd", "ng", "ck"};
    const std::uint32_t syllables = rank < 100 ? rng.range(1, 2) : rng.range(1, 4);
    std::string w;
    for (std::uint32_t s = 0; s < syllables; ++s) {
        w += onsets[rng.below(std::size(onsets))];
        if (accents && rng.chance(0.15)) {
            static constexpr std::uint32_t accented[] = {0xE9, 0xE8, 0xFC, 0xF6, 0xE4, 0xE7, 0xF1, 0x151};
            unicode::append_utf8(w, accented[rng.below(std::size(accented))]);
        } else {
            w += vowels[rng.below(std::size(vowels))];
        }
        w += codas[rng.below(std::size(codas))];
    }
    return w;
}

std::string script_word(Rng& rng, Script script) {
    std::string w;
    switch (script) {
        case Script::cyrillic:
            for (std::uint32_t i = 0, n = rng.range(2, 8); i < n; ++i) unicode::append_utf8(w, 0x430 + rng.below(32));
            break;
        case Script::greek:
            for (std::uint32_t i = 0, n = rng.range(2, 8); i < n; ++i) unicode::append_utf8(w, 0x3B1 + rng.below(24));
            break;
        case Script::cjk:
            for (std::uint32_t i = 0, n = rng.range(1, 3); i < n; ++i)
                unicode::append_utf8(w, rng.chance(0.8) ? 0x4E00 + rng.below(0x5000) : 0x3041 + rng.below(0x56));
            break;
        case Script::astral:  // emoji and CJK Extension B: surrogate pairs in UTF-16
            for (std::uint32_t i = 0, n = rng.range(1, 2); i < n; ++i)
                unicode::append_utf8(w, rng.chance(0.5) ? 0x1F600 + rng.below(0x50) : 0x20000 + rng.below(0xA6D0));
            break;
        default:
            break;
    }
    return w;
}

std::string capitalise(const std::string& w, Script script) {
    std::string out = w;
    if (script == Script::latin && !out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
    if (script == Script::cyrillic && out.size() >= 2) {  // U+0430..U+044F -> U+0410..U+042F
        std::string rest = out.substr(2);
        const auto b0 = static_cast<unsigned char>(out[0]), b1 = static_cast<unsigned char>(out[1]);
        const std::uint32_t cp = ((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu);
        out.clear();
        unicode::append_utf8(out, cp - 0x20);
        out += rest;
    }
    return out;
}

std::string lemma_of(const std::string& w, Script script) {
    if (script != Script::latin || w.size() < 4) return w;
    if (w.ends_with("s")) return w.substr(0, w.size() - 1);
    if (w.ends_with("ed")) return w.substr(0, w.size() - 2);
    return w;
}

struct Vocabulary {
    std::vector<Word> words;
    std::vector<double> cdf;  // Zipf over ranks
    Word comma, period, ideographic_period;

    const Word& draw(Rng& rng) const {
        const double u = rng.unit_double();
        const auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
        const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(it - cdf.begin()), words.size() - 1);
        return words[i];
    }
};

Word punctuation(std::string_view text) {
    Word w;
    w.surface.assign(text.data(), text.size());
    w.capitalised = w.surface;
    w.lemma = w.surface;
    w.pos = "PUNCT";
    w.tag = std::string(text == "," ? "," : ".");
    w.script = Script::punct;
    return w;
}

Vocabulary make_vocabulary(Rng& rng, bool multilingual) {
    Vocabulary v;
    std::unordered_set<std::string> seen;
    while (v.words.size() < vocabulary_size) {
        const auto rank = static_cast<std::uint32_t>(v.words.size());
        Word w;
        if (multilingual) {
            const double u = rng.unit_double();
            w.script = u < 0.40 ? Script::latin : u < 0.55 ? Script::cyrillic : u < 0.65 ? Script::greek
                       : u < 0.90 ? Script::cjk : Script::astral;
        }
        w.surface = w.script == Script::latin ? latin_word(rng, rank, multilingual) : script_word(rng, w.script);
        if (!seen.insert(w.surface).second) continue;
        w.capitalised = capitalise(w.surface, w.script);
        w.lemma = lemma_of(w.surface, w.script);
        w.pos = upos[rng.below(upos.size() - 1)];  // never PUNCT for words
        if (w.pos == "PUNCT") w.pos = "X";
        w.tag = std::string(w.pos.substr(0, 2)) + std::to_string(rng.below(4));
        const std::uint32_t features = rng.below(4);
        for (std::uint32_t f = 0; f < features; ++f) {
            if (!w.morph.empty()) w.morph += '|';
            w.morph += morph_features[rng.below(morph_features.size())];
        }
        v.words.push_back(std::move(w));
    }
    double sum = 0;
    v.cdf.resize(v.words.size());
    for (std::size_t r = 0; r < v.words.size(); ++r) v.cdf[r] = (sum += 1.0 / std::pow(static_cast<double>(r + 1), zipf_exponent));
    for (double& c : v.cdf) c /= sum;
    v.comma = punctuation(",");
    v.period = punctuation(".");
    v.ideographic_period = punctuation("\xE3\x80\x82");  // U+3002
    return v;
}

bool no_space_between(const Word& prev, const Word& next) {
    if (next.script == Script::punct) return true;  // "word," "word."
    const bool pc = prev.script == Script::cjk || prev.script == Script::astral;
    const bool nc = next.script == Script::cjk || next.script == Script::astral;
    return pc && nc;
}

struct DocPlan {
    std::vector<const Word*> words;
    std::vector<bool> sentence_start;
};

// Draws a document of `n` tokens: sentences of 6-18 tokens, each ending in a period.
DocPlan plan_doc(Rng& rng, const Vocabulary& v, std::uint32_t n) {
    DocPlan p;
    p.words.reserve(n);
    p.sentence_start.reserve(n);
    while (p.words.size() < n) {
        const std::uint32_t len = std::min<std::uint32_t>(rng.range(6, 18), n - static_cast<std::uint32_t>(p.words.size()));
        for (std::uint32_t i = 0; i < len; ++i) {
            const Word* w;
            if (i + 1 == len && len > 1) {
                const Word* prev = p.words.back();
                w = (prev->script == Script::cjk || prev->script == Script::astral) ? &v.ideographic_period : &v.period;
            } else if (i > 1 && i + 2 < len && rng.chance(0.06)) {
                w = &v.comma;
            } else {
                w = &v.draw(rng);
            }
            p.words.push_back(w);
            p.sentence_start.push_back(i == 0);
        }
    }
    return p;
}

std::uint32_t utf16_length(const std::string& s) {
    const auto len = unicode::utf8_utf16_length(reinterpret_cast<const unsigned char*>(s.data()), s.size());
    if (!len) throw std::logic_error("workload generator made invalid UTF-8");
    return static_cast<std::uint32_t>(*len);
}

struct Options {
    bool confidences = false;
    bool entities = false;
};

Doc build_doc(Rng& rng, const DocPlan& plan, StringStore& strings, const Options& opt) {
    Doc d;
    const std::size_t n = plan.words.size();
    d.tokens.resize(n);
    std::string text;
    std::uint32_t pos16 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Word& w = *plan.words[i];
        if (i > 0 && !no_space_between(*plan.words[i - 1], w)) {
            text += ' ';
            ++pos16;
        }
        const std::string& surface = plan.sentence_start[i] ? w.capitalised : w.surface;
        const std::uint32_t len16 = utf16_length(surface);
        d.tokens.start[i] = pos16;
        d.tokens.length[i] = len16;
        text += surface;
        pos16 += len16;
        std::string norm = surface;
        if (w.script == Script::latin) std::transform(norm.begin(), norm.end(), norm.begin(), [](char ch) {
            return (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch + 32) : ch;
        });
        d.tokens.column(TokenColumn::norm)[i] = strings.intern(norm);
        d.tokens.column(TokenColumn::lemma)[i] = strings.intern(w.lemma);
        d.tokens.column(TokenColumn::pos)[i] = strings.intern(w.pos);
        d.tokens.column(TokenColumn::tag)[i] = strings.intern(w.tag);
        d.tokens.column(TokenColumn::morph)[i] = strings.intern(w.morph);
        d.tokens.conf[i] = opt.confidences ? rng.unit() : 1.0f;
    }
    // Heads and dependency labels, sentence by sentence: one root, the rest point nearby.
    for (std::size_t s = 0; s < n;) {
        std::size_t e = s + 1;
        while (e < n && !plan.sentence_start[e]) ++e;
        const std::size_t root = s + rng.below(static_cast<std::uint32_t>(e - s));
        for (std::size_t i = s; i < e; ++i) {
            d.tokens.sent[i] = i == s ? Sentence::start : Sentence::inside;
            std::string_view dep;
            if (i == root) {
                d.tokens.head[i] = static_cast<std::int32_t>(i);
                dep = "ROOT";
            } else {
                std::int64_t h;
                do {
                    h = static_cast<std::int64_t>(i) + static_cast<std::int64_t>(rng.range(0, 8)) - 4;
                } while (h < static_cast<std::int64_t>(s) || h >= static_cast<std::int64_t>(e) || h == static_cast<std::int64_t>(i));
                if (rng.chance(0.3)) h = static_cast<std::int64_t>(root);
                d.tokens.head[i] = static_cast<std::int32_t>(h);
                dep = plan.words[i]->script == Script::punct ? "punct" : deps[rng.below(deps.size())];
            }
            d.tokens.column(TokenColumn::dep)[i] = strings.intern(dep);
        }
        s = e;
    }
    d.set_text(text);
    if (opt.entities) {
        d.has_ents = true;
        for (std::size_t i = 0; i < n;) {
            if (plan.words[i]->script != Script::punct && rng.chance(0.08)) {
                const std::uint32_t len = std::min<std::uint32_t>(rng.range(1, 3), static_cast<std::uint32_t>(n - i));
                d.ents.push_back(Entity{static_cast<std::uint32_t>(i), len, strings.intern(ent_labels[rng.below(ent_labels.size())]), rng.unit()});
                i += len;
            } else {
                ++i;
            }
        }
    }
    return d;
}

// Copies a document into another string store (for the one-document-per-container variants).
Doc copy_doc(const DocSlice& src, const StringStore& from, StringStore& to) {
    Doc d = src.to_doc();
    auto remap = [&](StringId& id) { id = to.intern(from.view(id)); };
    for (auto& col : d.tokens.attrs)
        for (StringId& id : col) remap(id);
    for (Entity& e : d.ents) remap(e.label);
    for (Category& c : d.cats) remap(c.label);
    for (SpanGroup& g : d.spans) {
        remap(g.name);
        for (Span& s : g.spans) remap(s.label);
    }
    d.origin = to.id();  // its ids now index `to`
    return d;
}

// Categories and two span groups, for the ONDC variant of (c).
void add_cats_and_spans(Rng& rng, Doc& d, StringStore& strings) {
    d.has_cats = true;
    const std::uint32_t ncats = rng.range(2, 5);
    const std::uint32_t first = rng.below(cat_labels.size());
    for (std::uint32_t k = 0; k < ncats; ++k)
        d.cats.push_back(Category{strings.intern(cat_labels[(first + k) % cat_labels.size()]), rng.unit()});
    const auto n = static_cast<std::uint32_t>(d.tokens.size());
    if (n == 0) return;
    for (std::string_view name : {std::string_view("sc"), std::string_view("chunks")}) {
        SpanGroup g;
        g.name = strings.intern(name);
        const std::uint32_t count = std::max<std::uint32_t>(1, n / 8);
        for (std::uint32_t k = 0; k < count; ++k) {
            const std::uint32_t start = rng.below(n);
            const std::uint32_t len = std::min(rng.range(1, 4), n - start);
            g.spans.push_back(Span{start, len, strings.intern(span_labels[rng.below(span_labels.size())]), rng.unit()});
        }
        d.spans.push_back(std::move(g));
    }
}

void append_bytes(std::vector<std::byte>& out, const std::vector<std::byte>& more) {
    out.insert(out.end(), more.begin(), more.end());
}

}  // namespace

const char* describe(Kind kind) {
    switch (kind) {
        case Kind::a: return "ONDB, 1,000 docs x ~30 tokens, Zipf vocabulary of 5,000 words, 6 attributes, heads, sentences";
        case Kind::b: return "one ONDC of 1,000,000 tokens";
        case Kind::c: return "(a) + token confidences + entities; ONDC stream variant adds categories and span groups";
        case Kind::d: return "(a) with multilingual text (Latin, Cyrillic, Greek, CJK, non-BMP)";
    }
    return "?";
}

Workload make_workload(Kind kind, bool crc, double scale, const std::string& name, bool bin_only) {
    Workload w;
    w.kind = kind;
    w.crc = crc;
    w.name = (name.empty() ? std::string(1, static_cast<char>(kind)) : name) + (crc ? "/crc" : "/nocrc");
    // The content does not depend on `crc`: both variants draw from the same seed.
    Rng rng(workload_seed ^ (static_cast<std::uint64_t>(kind) << 56));
    const Vocabulary vocab = make_vocabulary(rng, kind == Kind::d);
    Options opt;
    opt.confidences = opt.entities = kind == Kind::c;

    Container& c = w.content;
    c.crc = crc;
    if (kind == Kind::b) {
        c.format = Format::ondc;
        const auto n = static_cast<std::uint32_t>(std::max(1000.0, 1'000'000.0 * scale));
        c.docs.push_back(build_doc(rng, plan_doc(rng, vocab, n), c.strings, opt));
    } else {
        c.format = Format::ondb;
        const auto ndocs = static_cast<std::uint32_t>(std::max(10.0, 1000.0 * scale));
        for (std::uint32_t i = 0; i < ndocs; ++i)
            c.docs.push_back(build_doc(rng, plan_doc(rng, vocab, rng.range(20, 40)), c.strings, opt));
    }
    w.bytes = ond::encode(c);
    w.docs = c.docs.size();
    for (const DocSlice d : c.docs) {
        w.tokens += d.tokens.size();
        w.all_text += d.text;
    }
    if (bin_only) return w;
    if (kind == Kind::b) {
        w.stream = w.bytes;
        w.stream_docs = 1;
        w.stream_max_container = w.bytes.size();
    } else {
        for (const DocSlice d : c.docs) {
            Container one;
            one.format = Format::ondc;
            one.crc = crc;
            Doc copy = copy_doc(d, c.strings, one.strings);
            if (kind == Kind::c) add_cats_and_spans(rng, copy, one.strings);
            one.docs.push_back(copy);
            const std::vector<std::byte> bytes = ond::encode(one);
            w.stream_max_container = std::max<std::uint64_t>(w.stream_max_container, bytes.size());
            append_bytes(w.stream, bytes);
            ++w.stream_docs;
        }
    }
    return w;
}

}  // namespace ond::bench
