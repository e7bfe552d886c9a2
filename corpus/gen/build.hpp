// Content builders for the corpus cases: small readable helpers over the codec's model.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "ond/model.hpp"
#include "ond/splitmix64.hpp"

namespace ond::corpus::build {

// A fixed, portable pseudo-random sequence (splitmix64): the same on every machine. The corpus
// bytes depend on below()'s reduction (modulo).
class Rng : public SplitMix64 {
public:
    using SplitMix64::SplitMix64;
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
    // A confidence in (0, 1] on a 1/1024 grid, so its decimal form is short and exact.
    float conf() { return static_cast<float>(below(1024) + 1) / 1024.0f; }
};

Container ondc(bool crc = false);
Container ondb(bool crc = false);

// A standalone document with this text (WTF-8) and no tokens: fill it, then add it with
// c.docs.push_back (a container stores its documents in shared columns, see ond::DocList).
Doc new_doc(std::string_view text);
// Adds a document with this text (WTF-8) and no tokens.
void add_doc(Container& c, std::string_view text);

struct Attrs {
    std::string_view norm, lemma, pos, tag, dep, morph;
    Attrs(std::string_view n = {}, std::string_view l = {}, std::string_view p = {}, std::string_view t = {},
          std::string_view d = {}, std::string_view m = {})
        : norm(n), lemma(l), pos(p), tag(t), dep(d), morph(m) {}
};

// Appends one token; `head` is absolute (-1: the token itself, a root).
void add_token(Container& c, Doc& d, std::uint32_t start, std::uint32_t length, const Attrs& a = {},
               std::int32_t head = -1, Sentence sent = Sentence::unset, float conf = 1.0f);

struct Annot {
    bool attrs = true;       // fill all six columns
    bool heads = true;       // a tree per sentence (root in the middle)
    bool sents = true;       // sentence starts after . ! ? 。
    bool confs = false;      // random confidences (mode 1)
    std::uint64_t seed = 1;
};

// Tokens over each run of non-space code units of the text, with annotations as asked.
void tokenize(Container& c, Doc& d, const Annot& a = {});
// Adds a document with this text, tokenized as asked.
void add_tokenized(Container& c, std::string_view text, const Annot& a = {});

void add_ent(Container& c, Doc& d, std::uint32_t start, std::uint32_t length, std::string_view label,
             float conf = 1.0f);
void add_cat(Container& c, Doc& d, std::string_view label, float score);
SpanGroup& add_group(Container& c, Doc& d, std::string_view name);
void add_span(Container& c, SpanGroup& g, std::uint32_t start, std::uint32_t length, std::string_view label,
              float conf = 1.0f);

// Text with a lone surrogate, as WTF-8 (the model's form).
std::string wtf8(std::u16string_view units);

// A small complete document: tokens with all attributes, entities, categories, two span groups.
Container sample(bool crc = false);
// A plain tokenized document: text only tokenized, attributes and sentences, nothing else.
Container plain(std::string_view text, bool crc = false, const Annot& a = {});

}  // namespace ond::corpus::build
