// RapidCheck generators for the property tests.
//
// Valid content is generated as a *spec* of plain numbers and code units, turned into a Container
// by to_container(). Every spec converts to valid content (tokens past the text, entities past
// the last token, duplicate labels are dropped; indexes are taken modulo what exists), so
// RapidCheck's default shrinking of the spec's vectors and numbers always gives valid, smaller
// content, and counter-examples print as that content (show()).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "ond/hex.hpp"
#include "ond/ond.hpp"

namespace ond::prop {

struct TokenSpec {
    std::uint32_t gap = 0, len = 1;
    std::vector<std::uint32_t> attrs;  // 6 vocabulary picks (0: not set)
    std::uint32_t head = 0;            // taken modulo the token count
    std::uint8_t sent = 0;             // 0..2
    float conf = 1.0f;
};
struct ItemSpec {  // an entity or a span: gap/first token, length, label pick, confidence
    std::uint32_t at = 0, len = 1, label = 0;
    float conf = 1.0f;
};
struct GroupSpec {
    std::uint32_t name = 0;
    std::vector<ItemSpec> spans;
};
struct CatSpec {
    std::uint32_t label = 0;
    float score = 0.5f;
};
struct DocSpec {
    std::u16string text;
    std::vector<TokenSpec> tokens;
    bool all_conf_one = true;
    bool has_ents = false;
    std::vector<ItemSpec> ents;
    bool has_cats = false;
    std::vector<CatSpec> cats;
    std::vector<GroupSpec> groups;
};
struct ContentSpec {
    bool ondb = false;
    bool crc = false;
    std::vector<std::u16string> vocab;  // non-empty strings
    std::vector<DocSpec> docs;
};

Container to_container(const ContentSpec& s);
std::string describe(const Container& c);

// A value in [lo, hi) drawn from the whole range whatever the current size (RapidCheck scales
// inRange with the size; choices and bit positions must not be), shrinking towards lo.
template <class T>
rc::Gen<T> full_range(T lo, T hi) {
    return rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

// Text: ASCII, multilingual, non-BMP pairs, lone surrogates of both kinds.
rc::Gen<std::u16string> gen_text();
// A vocabulary, small (a few strings) or large (hundreds, so indexes take two varint bytes).
rc::Gen<std::vector<std::u16string>> gen_vocab();
// Confidences in [0, 1], edge cases included: 0, 1, -0.0, subnormals, the float below 1.
rc::Gen<float> gen_confidence();
rc::Gen<DocSpec> gen_doc(bool with_extras);
// ONDC or ONDB (0 to many documents), with or without CRC.
rc::Gen<ContentSpec> gen_content();
rc::Gen<ContentSpec> gen_content(bool ondb, bool crc);

// Damage to valid bytes: a bit flip, a truncation, a splice of bytes from another encoding, a
// changed section length, count or index (a byte overwritten by a varint) -- optionally with
// the lengths left and the CRC recomputed so the damage reaches the deep checks.
struct Damaged {
    std::vector<std::byte> bytes;
    std::string what;
};
rc::Gen<Damaged> gen_damaged(const std::vector<std::byte>& valid, const std::vector<std::byte>& other);

// Containers declaring huge counts (tokens, strings, records, entities, categories, spans) or
// a huge body length, with few actual bytes.
rc::Gen<std::vector<std::byte>> gen_huge_counts();

}  // namespace ond::prop

namespace rc {
template <>
struct Arbitrary<ond::prop::ContentSpec> {
    static Gen<ond::prop::ContentSpec> arbitrary() { return ond::prop::gen_content(); }
};
}  // namespace rc

namespace ond::prop {
inline void showValue(const ContentSpec& s, std::ostream& os) { os << describe(to_container(s)); }
inline void showValue(const Damaged& d, std::ostream& os) {
    os << d.what << ", " << d.bytes.size() << " bytes:";
    for (std::byte b : d.bytes) os << ' ' << hex::of(static_cast<unsigned char>(b), 2);
}
}  // namespace ond::prop
