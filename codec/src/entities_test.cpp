// Entities, section 4 (R22, R15, R3).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ond/internal/check_switch.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// "Hello big world": 3 tokens; table PER, LOC, "" (a stored empty string at index 3).
struct EntDoc {
    Ctr c;
    std::size_t ents_at = 0;
    std::vector<std::size_t> item;  // offset of each entity's first byte in the section
    EntDoc(const std::vector<Ent>& ents, std::uint32_t ntok = 3) {
        c.add(1, strings_content({"PER", "LOC", ""}));
        c.add(2, text_content("Hello big world"));
        std::vector<Tok> toks = {{0, 5}, {1, 3}, {1, 5}};
        toks.resize(ntok);
        c.add(3, tokens_content(toks));
        B b;
        b.varint(ents.size());
        for (const auto& e : ents) {
            item.push_back(b.size());
            b.varint(e.gap).varint(e.len).varint(e.label).f32(e.conf);
        }
        ents_at = c.add(4, b);
    }
    std::vector<std::uint8_t> bytes() const { return c.build(); }
    // Offsets of an entity's fields (all values here are 1-byte varints).
    std::size_t gap(std::size_t i) const { return ents_at + item[i]; }
    std::size_t len(std::size_t i) const { return gap(i) + 1; }
    std::size_t label(std::size_t i) const { return gap(i) + 2; }
    std::size_t conf(std::size_t i) const { return gap(i) + 3; }
};

TEST(Entities, DecodesAbsoluteStarts) {
    EntDoc d({{0, 1, 1, 0.5f}, {1, 1, 2, 1.0f}});
    Container c = Accept(d.bytes());
    const DocSlice doc = c.docs[0];
    EXPECT_TRUE(doc.has_ents);
    ASSERT_EQ(doc.ents.size(), 2u);
    EXPECT_EQ(doc.ents[0].start, 0u);
    EXPECT_EQ(doc.ents[0].length, 1u);
    EXPECT_EQ(c.strings.view(doc.ents[0].label), "PER");
    EXPECT_EQ(doc.ents[0].conf, 0.5f);
    EXPECT_EQ(doc.ents[1].start, 2u);  // gap 1 from the previous end (1)
    EXPECT_EQ(c.strings.view(doc.ents[1].label), "LOC");
}

TEST(Entities, AdjacentEntitiesAreValid) {
    // Gap 0: the next entity starts where the previous ends. Order and non-overlap are built
    // into the encoding (gaps are unsigned), so no byte sequence can express an overlap.
    EntDoc d({{0, 2, 1, 1.0f}, {0, 1, 2, 1.0f}});
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].ents[1].start, 2u);
}

TEST(Entities, R22_SectionAbsentMeansNotAnnotated) {
    Container c = Accept(HelloOndc().c.build());
    EXPECT_FALSE(c.docs[0].has_ents);
    EXPECT_TRUE(c.docs[0].ents.empty());
}

TEST(Entities, R22_CountZeroIsAnnotatedWithNoEntities) {
    EntDoc d({});
    Container c = Accept(d.bytes());
    EXPECT_TRUE(c.docs[0].has_ents);
    EXPECT_TRUE(c.docs[0].ents.empty());
}

TEST(Entities, R22_SectionWithoutTokensIsImplementationDefined) {
    // No token can carry an entity tag, so "present only when entity annotation is set" cannot
    // hold: the reference refuses the section (revision 2), at its count.
    EntDoc e({}, 0);
    EXPECT_TRUE(Rejects(e.bytes(), "entities.without-tokens", e.ents_at));
    EXPECT_EQ(error_info(Errc::entities_without_tokens).verdict, ErrorVerdict::implementation_defined);
    // Relaxed, it reads as an accepting reader does: annotated, no entities; the writer leaves
    // the section out again (W2).
    detail::RelaxedChecks relaxed{Errc::entities_without_tokens};
    Container k = Accept(e.bytes());
    EXPECT_TRUE(k.docs[0].has_ents);
    EXPECT_TRUE(k.docs[0].ents.empty());
    Ctr canonical;  // no section 4, and the table loses the strings nothing uses
    canonical.add(1, strings_content({}));
    canonical.add(2, text_content("Hello big world"));
    canonical.add(3, tokens_content({}));
    EXPECT_TRUE(SameBytes(Encode(k), canonical.build()));
}

TEST(Entities, R22_WithoutTokensInvalidFaultsComeFirst) {
    // An entity in a document without tokens ends past the last token: invalid, whatever the
    // section's presence; bytes after a count of 0 are the section's trailing bytes.
    EntDoc one({{0, 1, 1, 0.5f}}, 0);
    EXPECT_TRUE(Rejects(one.bytes(), "entities.out-of-range", one.gap(0)));
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content("Hello"));
    c.add(3, tokens_content({}));
    const std::size_t at = c.add(4, B{}.varint(0).u8(7));
    EXPECT_TRUE(Rejects(c.build(), "section.trailing-bytes", at + 1));
}

TEST(Entities, R22_RelaxingOtherChecksKeepsThisOne) {
    EntDoc e({}, 0);
    detail::RelaxedChecks relaxed{Errc::spans_no_groups, Errc::section_misplaced};
    EXPECT_TRUE(Rejects(e.bytes(), "entities.without-tokens", e.ents_at));
    EXPECT_THROW(detail::RelaxedChecks({Errc::entities_out_of_range}), std::invalid_argument);
}

TEST(Entities, R22_CountAboveBytesOverSeven) {
    // 2 entities need 14 bytes after the count; 13 are there.
    HelloOndc h({"PER"});
    const std::size_t at = h.c.add(4, B{}.varint(2).raw(std::string(13, '\0')));
    EXPECT_TRUE(Rejects(h.c.build(), "entities.count-exceeds-bytes", at));
    HelloOndc g({"PER"});
    const std::size_t at2 = g.c.add(4, B{}.varint(0xFFFFFFFF).raw(std::string(7, '\0')));
    EXPECT_TRUE(Rejects(g.c.build(), "entities.count-exceeds-bytes", at2));
}

TEST(Entities, R22_EmptyEntity) {
    EntDoc d({{0, 1, 1, 1.0f}, {0, 0, 1, 1.0f}});
    EXPECT_TRUE(Rejects(d.bytes(), "entities.empty", d.len(1)));
}

TEST(Entities, R22_EndPastTheLastToken) {
    EntDoc d({{1, 3, 1, 1.0f}});  // tokens 1..4 of 3
    EXPECT_TRUE(Rejects(d.bytes(), "entities.out-of-range", d.gap(0)));
    EntDoc e({{0, 2, 1, 1.0f}, {1, 1, 2, 1.0f}});  // second starts at 3 of 3
    EXPECT_TRUE(Rejects(e.bytes(), "entities.out-of-range", e.gap(1)));
    EntDoc f({{0, 1, 1, 1.0f}}, 0);  // any entity with no tokens
    EXPECT_TRUE(Rejects(f.bytes(), "entities.out-of-range", f.gap(0)));
}

TEST(Entities, R22_EndExactlyAtTheTokenCount) {
    EntDoc d({{0, 3, 1, 1.0f}});
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].ents[0].length, 3u);
}

TEST(Entities, R22_ArithmeticDoesNotWrap) {
    // end 1 + gap 0xFFFFFFFF + length 2 would wrap to 2 in 32 bits.
    HelloOndc h({"PER"});
    B b;
    b.varint(2).varint(0).varint(1).varint(1).f32(1.0f);
    const std::size_t second = b.size();
    b.varint(0xFFFFFFFF).varint(2).varint(1).f32(1.0f);
    const std::size_t at = h.c.add(4, b);
    EXPECT_TRUE(Rejects(h.c.build(), "entities.out-of-range", at + second));
}

TEST(Entities, R15_LabelZeroIsMissing) {
    EntDoc d({{0, 1, 0, 1.0f}});
    EXPECT_TRUE(Rejects(d.bytes(), "entities.label-missing", d.label(0)));
}

TEST(Entities, R15_LabelNamingAStoredEmptyString) {
    EntDoc d({{0, 1, 3, 1.0f}});
    EXPECT_TRUE(Rejects(d.bytes(), "entities.label-empty", d.label(0)));
}

TEST(Entities, R13_LabelBeyondTheTable) {
    EntDoc d({{0, 1, 4, 1.0f}});
    EXPECT_TRUE(Rejects(d.bytes(), "table.index-out-of-range", d.label(0)));
}

TEST(Entities, R3_ConfidenceOutOfRange) {
    for (float f : {std::nanf(""), -0.5f, 2.0f, std::numeric_limits<float>::infinity()}) {
        EntDoc d({{0, 1, 1, 1.0f}, {0, 1, 2, f}});
        EXPECT_TRUE(Rejects(d.bytes(), "entities.confidence-out-of-range", d.conf(1))) << float_bits(f);
    }
}

TEST(Entities, R3_NegativeZeroKeepsItsSign) {
    HelloOndc h({"PER"});
    h.c.add(4, entities_content({{0, 1, 1, -0.0f}}));
    const auto bytes = h.c.build();
    Container c = Accept(bytes);
    EXPECT_EQ(float_bits(c.docs[0].ents[0].conf), 0x80000000u);
    EXPECT_TRUE(SameBytes(Encode(c), bytes));
}

TEST(Entities, R1_TruncatedEntityInsideTheSection) {
    // The count check passes (7 bytes), but the float is cut by the section end.
    HelloOndc h({"PER"});
    const std::size_t at = h.c.add(4, B{}.varint(1).varint(0).varint(1).varint(1).raw({0, 0, 0}).u8(0));
    // gap, len, label: 3 bytes; 4 bytes remain for the float: this one is valid
    Accept(h.c.build());
    HelloOndc g({"PER"});
    const std::size_t at2 = g.c.add(4, B{}.varint(1).raw({0x80, 0x00}).varint(1).varint(1).raw({0, 0, 0x80}));
    // overlong gap (2 bytes): 7 bytes in all, but the float is one byte short
    EXPECT_TRUE(Rejects(g.c.build(), "field.truncated", at2 + 5));
    (void)at;
}

}  // namespace
}  // namespace ond
