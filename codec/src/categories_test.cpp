// Categories, section 6 (R23, R4, R15).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "alloc_counter.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

B default_table() { return strings_content({"POS", "NEG", "", "POS"}); }

// The hello document with the given table (by default POS, NEG, a stored empty string and a
// second POS) and the categories given.
struct CatDoc {
    Ctr c;
    std::size_t cats_at = 0;
    explicit CatDoc(const std::vector<Cat>& cats, const B& table = default_table()) {
        c.add(1, table);
        c.add(2, text_content("Hello world"));
        c.add(3, tokens_content(hello_tokens()));
        cats_at = c.add(6, categories_content(cats));
    }
    std::vector<std::uint8_t> bytes() const { return c.build(); }
    // Every label here is a 1-byte varint: count, then 5 bytes per category.
    std::size_t label(std::size_t i) const { return cats_at + 1 + 5 * i; }
    std::size_t score(std::size_t i) const { return label(i) + 1; }
};

TEST(Categories, DecodesInWrittenOrder) {
    CatDoc d({{2, 0.25f}, {1, 0.75f}});
    Container c = Accept(d.bytes());
    const DocSlice doc = c.docs[0];
    EXPECT_TRUE(doc.has_cats);
    ASSERT_EQ(doc.cats.size(), 2u);
    EXPECT_EQ(c.strings.view(doc.cats[0].label), "NEG");
    EXPECT_EQ(doc.cats[0].score, 0.25f);
    EXPECT_EQ(c.strings.view(doc.cats[1].label), "POS");
    EXPECT_EQ(doc.cats[1].score, 0.75f);
}

TEST(Categories, R23_CountZeroIsSetAndEmpty) {
    CatDoc d({});
    Container c = Accept(d.bytes());
    EXPECT_TRUE(c.docs[0].has_cats);
    EXPECT_TRUE(c.docs[0].cats.empty());
    // Canonical: the (unused) table entries go, section 6 stays.
    HelloOndc canon;
    canon.c.add(6, categories_content({}));
    EXPECT_TRUE(SameBytes(Encode(c), canon.c.build()));
}

TEST(Categories, R23_SectionAbsentMeansNotSet) {
    Container c = Accept(HelloOndc().c.build());
    EXPECT_FALSE(c.docs[0].has_cats);
}

TEST(Categories, R23_CountAboveBytesOverFive) {
    HelloOndc h({"POS"});
    const std::size_t at = h.c.add(6, B{}.varint(2).raw(std::string(9, '\0')));
    EXPECT_TRUE(Rejects(h.c.build(), "categories.count-exceeds-bytes", at));
}

TEST(Categories, R23_LabelZeroIsMissing) {
    CatDoc d({{1, 0.5f}, {0, 0.5f}});
    EXPECT_TRUE(Rejects(d.bytes(), "categories.label-missing", d.label(1)));
}

TEST(Categories, R15_LabelNamingAStoredEmptyString) {
    CatDoc d({{3, 0.5f}});
    EXPECT_TRUE(Rejects(d.bytes(), "categories.label-empty", d.label(0)));
}

TEST(Categories, R13_LabelBeyondTheTable) {
    CatDoc d({{5, 0.5f}});
    EXPECT_TRUE(Rejects(d.bytes(), "table.index-out-of-range", d.label(0)));
}

TEST(Categories, R23_SameIndexTwice) {
    CatDoc d({{1, 0.5f}, {2, 0.5f}, {1, 0.25f}});
    EXPECT_TRUE(Rejects(d.bytes(), "categories.duplicate-label", d.label(2)));
}

TEST(Categories, R23_EqualStringsAtDifferentIndexes) {
    CatDoc d({{1, 0.5f}, {4, 0.5f}});  // both "POS"
    EXPECT_TRUE(Rejects(d.bytes(), "categories.duplicate-label", d.label(1)));
}

TEST(Categories, R5_EqualStringsInDifferentEncodings) {
    // "POS" stored once as UTF-8 and once as UTF-16: the same code units, so the same label.
    B table;
    table.varint(2).str("POS").str16(u"POS");
    CatDoc d({{1, 0.5f}, {2, 0.5f}}, table);
    EXPECT_TRUE(Rejects(d.bytes(), "categories.duplicate-label", d.label(1)));
}

TEST(Categories, R23_DistinctLabelsDifferingOnlyInASurrogate) {
    B table;
    table.varint(2).str16(std::u16string{u'A', 0xD800}).str16(std::u16string{u'A', 0xD801});
    CatDoc d({{1, 0.5f}, {2, 0.5f}}, table);
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].cats.size(), 2u);
    EXPECT_TRUE(SameBytes(Encode(c), d.bytes()));
}

// Telling labels apart does not copy them: a reader that checks two 4 MiB labels holds no more
// than a fraction of one (the dedupe set sees each label in place).
TEST(Categories, R23_LabelsAreComparedWithoutCopies) {
    const std::string a(4u << 20, 'a'), b(4u << 20, 'b');
    CatDoc d({{1, 0.5f}, {2, 0.25f}}, strings_content({a, b}));
    const std::vector<std::uint8_t> bytes = d.bytes();
    {
        ond::alloc::PeakScope peak;
        EXPECT_EQ(validate(view(bytes)).docs, 1u);
        EXPECT_LT(peak.peak(), 1u << 20);
    }
    {
        ond::alloc::PeakScope peak;
        std::uint64_t fields = 0;
        inspect(view(bytes), [&](const InspectEvent&) { ++fields; });
        EXPECT_GT(fields, 0u);
        EXPECT_LT(peak.peak(), 1u << 20);
    }
    // The same labels, both "a" x 4 MiB, are one label twice.
    CatDoc twice({{1, 0.5f}, {2, 0.25f}}, strings_content({a, a}));
    EXPECT_TRUE(Rejects(twice.bytes(), "categories.duplicate-label", twice.label(1)));
}

TEST(Categories, R4_ScoreOutOfRange) {
    for (float f : {std::nanf(""), -0.001f, 1.5f, std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
        CatDoc d({{1, 0.5f}, {2, f}});
        EXPECT_TRUE(Rejects(d.bytes(), "categories.score-out-of-range", d.score(1))) << float_bits(f);
    }
}

TEST(Categories, R4_BoundsAndNegativeZeroAreValid) {
    for (float f : {0.0f, -0.0f, 1.0f}) {
        HelloOndc h({"POS"});
        h.c.add(6, categories_content({{1, f}}));
        const auto bytes = h.c.build();
        Container c = Accept(bytes);
        EXPECT_EQ(float_bits(c.docs[0].cats[0].score), float_bits(f));
        EXPECT_TRUE(SameBytes(Encode(c), bytes));
    }
}

}  // namespace
}  // namespace ond
