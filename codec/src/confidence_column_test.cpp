// The confidence column (TokenColumns::conf) is kept only once a token of the list has a
// confidence other than 1.0: a list without one saves 4 bytes a token, and every way of reading
// a confidence (slices, views, to_doc, the writer) gives 1.0 for it. Every way of adding one
// (a read of mode 1, push_back, set_conf, the builder) makes the column, 1.0 for the rows before.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ond/builder.hpp"
#include "ond/doc_list.hpp"
#include "ond/reader.hpp"
#include "ond/view.hpp"
#include "ond/writer.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// Every confidence of the list, document by document, through the slices and the views.
std::vector<std::vector<float>> confidences_of(const Container& c) {
    std::vector<std::vector<float>> out;
    for (std::size_t d = 0; d < c.docs.size(); ++d) {
        std::vector<float> one;
        const DocSlice s = c.docs[d];
        for (std::size_t i = 0; i < s.tokens.size(); ++i) one.push_back(s.tokens.conf[i]);
        std::vector<float> through_views;
        for (const TokenView t : c.doc(d).tokens()) through_views.push_back(t.conf());
        EXPECT_EQ(through_views, one) << "document " << d;
        EXPECT_EQ(s.to_doc().tokens.conf, one) << "document " << d;
        out.push_back(one);
    }
    return out;
}

// A bin of three hello records; record `with_conf` (if any) carries mode 1 with 0.25 and 0.75.
std::vector<std::uint8_t> three_records(int with_conf) {
    std::vector<B> records;
    for (int k = 0; k < 3; ++k) {
        B r;
        r.section(2, text_content("Hello world"));
        r.section(3, k == with_conf ? tokens_content(hello_tokens(), std::vector<float>{0.25f, 0.75f})
                                    : tokens_content(hello_tokens()));
        records.push_back(r);
    }
    return bin_container(records, {}).build(false);  // no strings: the canonical bytes
}

TEST(ConfidenceColumn, AReadOfMode0KeepsNone) {
    const auto bytes = three_records(-1);
    const Container c = decode(view(bytes));
    EXPECT_TRUE(c.docs.token_columns().conf.empty());
    EXPECT_EQ(c.docs.token_columns().size(), 6u);
    EXPECT_EQ(c.docs[1].tokens.conf.stored(), nullptr);
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{1, 1}, {1, 1}, {1, 1}}));
    EXPECT_EQ(Encode(c), bytes);  // mode 0 again
}

TEST(ConfidenceColumn, AReadOfMode1MakesItWithOnesForTheRowsBefore) {
    for (int k = 0; k < 3; ++k) {
        const auto bytes = three_records(k);
        const Container c = decode(view(bytes));
        EXPECT_EQ(c.docs.token_columns().conf.size(), 6u) << k;
        std::vector<std::vector<float>> want{{1, 1}, {1, 1}, {1, 1}};
        want[static_cast<std::size_t>(k)] = {0.25f, 0.75f};
        EXPECT_EQ(confidences_of(c), want) << k;
        EXPECT_EQ(Encode(c), bytes) << k;  // the others still mode 0
    }
}

TEST(ConfidenceColumn, AReadIntoAUsedContainerFillsOnesWhereItKeepsTheColumn) {
    // The container kept a column from its first read; mode-0 records write 1.0 into it.
    Container c = decode(view(three_records(2)));
    ASSERT_FALSE(c.docs.token_columns().conf.empty());
    decode_into(view(three_records(0)), c);
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{0.25f, 0.75f}, {1, 1}, {1, 1}}));
    // A read that needs none leaves the column empty (its capacity is kept).
    decode_into(view(three_records(-1)), c);
    EXPECT_TRUE(c.docs.token_columns().conf.empty());
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{1, 1}, {1, 1}, {1, 1}}));
}

TEST(ConfidenceColumn, PushBackMakesItAtTheFirstValueOtherThanOne) {
    Container src = decode(view(three_records(1)));
    Container c;
    c.strings = src.strings;
    c.docs.push_back(src.docs[0].to_doc());
    EXPECT_TRUE(c.docs.token_columns().conf.empty());
    c.docs.push_back(src.docs[1].to_doc());
    EXPECT_EQ(c.docs.token_columns().conf.size(), 4u);
    c.docs.push_back(src.docs[2].to_doc());
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{1, 1}, {0.25f, 0.75f}, {1, 1}}));
}

TEST(ConfidenceColumn, SetConfMakesItOnlyForAValueOtherThanOne) {
    Container c = decode(view(three_records(-1)));
    c.docs.set_conf(1, 0, 1.0f);
    EXPECT_TRUE(c.docs.token_columns().conf.empty());
    c.docs.set_conf(2, 1, 0.5f);
    EXPECT_EQ(c.docs.token_columns().conf.size(), 6u);
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{1, 1}, {1, 1}, {1, 0.5f}}));
    // A refused value changes nothing, the column included.
    Container d = decode(view(three_records(-1)));
    EXPECT_THROW(d.docs.set_conf(0, 0, 2.0f), Error);
    EXPECT_TRUE(d.docs.token_columns().conf.empty());
}

TEST(ConfidenceColumn, TheBuilderMakesItOnlyForAValueOtherThanOne) {
    Container c;
    {
        DocBuilder b(c, "Hello world");
        b.token("Hello").conf(1.0f);
        b.token("world");
    }
    EXPECT_TRUE(c.docs.token_columns().conf.empty());
    {
        DocBuilder b(c, "Hello world");
        b.token("Hello");
        b.token("world").conf(0.125f);
    }
    {
        DocBuilder b(c, "Hello world");
        b.token("Hello");  // a new token in a list that keeps the column: 1.0 written
        b.token("world");
    }
    EXPECT_EQ(c.docs.token_columns().conf.size(), 6u);
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{1, 1}, {1, 0.125f}, {1, 1}}));
}

TEST(ConfidenceColumn, EditAllAndMergeKeepTheValues) {
    Container c = decode(view(three_records(-1)));
    c.docs.edit_all([](std::size_t i, Doc& d) {
        if (i == 2) d.tokens.conf[0] = 0.5f;
    });
    EXPECT_EQ(confidences_of(c), (std::vector<std::vector<float>>{{1, 1}, {1, 1}, {0.5f, 1}}));
    Container into = decode(view(three_records(-1)));
    merge(into, c);
    EXPECT_EQ(into.docs.token_columns().conf.size(), 12u);
    EXPECT_EQ(confidences_of(into)[5], (std::vector<float>{0.5f, 1}));
    EXPECT_EQ(confidences_of(into)[0], (std::vector<float>{1, 1}));
}

}  // namespace
}  // namespace ond
