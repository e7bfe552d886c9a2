// DocBuilder (ond/builder.hpp): the same Container as filling the columns by hand, UTF-16
// offsets on CJK and non-BMP text, sections consistent by construction, and each refusal's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "ond/ond.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

std::string builder_error_code(const std::function<void()>& f) {
    const auto e = catch_error(f);
    return e ? e->code : "none";
}

TEST(DocBuilder, SameContainerAsTheVerboseWay) {
    // The verbose way: parallel columns, offsets counted by hand, flags set apart.
    Container want;
    want.crc = true;
    Doc d;
    d.set_text("Apple buys a startup.");
    const char* pos[] = {"PROPN", "VERB", "DET", "NOUN", "PUNCT"};
    const std::uint32_t starts[] = {0, 6, 11, 13, 20}, lengths[] = {5, 4, 1, 7, 1};
    const std::int32_t heads[] = {1, 1, 3, 1, 1};
    for (std::size_t i = 0; i < 5; ++i) {
        add_token(want, d, starts[i], lengths[i], heads[i], {"", "", pos[i], "", "", ""},
                  i == 0 ? Sentence::start : Sentence::inside);
    }
    d.tokens.column(TokenColumn::lemma)[1] = want.strings.intern("buy");
    d.tokens.conf[3] = 0.5f;
    d.has_ents = true;
    d.ents.push_back(Entity{0, 1, want.strings.intern("ORG"), 1.0f});
    d.has_cats = true;
    d.cats.push_back(Category{want.strings.intern("news"), 0.9f});
    d.spans.push_back(SpanGroup{want.strings.intern("np"), {Span{2, 2, want.strings.intern("NP"), 1.0f}}});
    want.docs.push_back(d);

    Container got;
    got.crc = true;
    DocBuilder b(got, "Apple buys a startup.");
    b.token("Apple").pos("PROPN").head(1).sent(Sentence::start);
    b.token("buys").pos("VERB").lemma("buy").head(1).sent(Sentence::inside);
    b.token("a").pos("DET").head(3).sent(Sentence::inside);
    b.token("startup").pos("NOUN").head(1).sent(Sentence::inside).conf(0.5f);
    b.token(".").pos("PUNCT").head(1).sent(Sentence::inside);
    b.entity(0, 1, "ORG").category("news", 0.9f).span("np", 2, 2, "NP");

    EXPECT_TRUE(same_content(got, want));
    EXPECT_EQ(encode(got), encode(want));
    EXPECT_TRUE(same_content(decode(Bytes(encode(got))), want));
}

TEST(DocBuilder, Utf16OffsetsOnCjkAndNonBmpText) {
    Container c;
    DocBuilder b(c, "東京で 😀 and 𐌰𐌱 ok 😀");
    for (const char* w : {"東京", "で", "😀", "and", "𐌰", "𐌱", "ok", "😀"}) b.token(w);
    const TokenSlice t = c.docs[0].tokens;
    EXPECT_EQ(std::vector(t.start.begin(), t.start.end()), (std::vector<std::uint32_t>{0, 2, 4, 7, 11, 13, 16, 19}));
    EXPECT_EQ(std::vector(t.length.begin(), t.length.end()), (std::vector<std::uint32_t>{2, 1, 2, 3, 2, 2, 2, 2}));
    EXPECT_EQ(std::vector(t.head.begin(), t.head.end()),
              (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));  // roots until told
    // And back through the views.
    std::vector<std::string> texts;
    for (TokenView tok : c.doc(0).tokens()) texts.emplace_back(tok.text());
    EXPECT_EQ(texts, (std::vector<std::string>{"東京", "で", "😀", "and", "𐌰", "𐌱", "ok", "😀"}));
    EXPECT_NO_THROW(check_writable(c));
}

TEST(DocBuilder, RebuildsTheOffsetsOfTheCorpusDocuments) {
    // Every token of real multilingual, emoji and surrogate texts, added again by its byte span
    // (from the views) and by its word: the builder must find the file's UTF-16 offsets.
    const std::filesystem::path cases = OND_CORPUS_CASES;
    for (const char* name : {"valid/document/emoji-heavy.ondc", "valid/document/multilingual.ondc",
                             "valid/document/lone-surrogates-everywhere.ondc", "valid/text/cjk.ondc",
                             "valid/text/non-bmp-offsets.ondc", "valid/document/thousands-of-tokens.ondc"}) {
        SCOPED_TRACE(name);
        const Container c = decode(Bytes(load_file(cases / name)));
        const DocView doc = c.doc(0);
        Container by_span, by_word;
        DocBuilder spans(by_span, doc.text()), words(by_word, doc.text());
        for (TokenView tok : doc.tokens()) {
            const std::string_view text = tok.exact_text().value();
            spans.token_at(static_cast<std::size_t>(text.data() - doc.text().data()), text.size());
            words.token(text);
        }
        const TokenSlice want = c.docs[0].tokens, got_span = by_span.docs[0].tokens, got_word = by_word.docs[0].tokens;
        EXPECT_TRUE(std::ranges::equal(got_span.start, want.start));
        EXPECT_TRUE(std::ranges::equal(got_span.length, want.length));
        EXPECT_TRUE(std::ranges::equal(got_word.start, want.start));
        EXPECT_TRUE(std::ranges::equal(got_word.length, want.length));
    }
}

TEST(DocBuilder, TokensByByteSpanAndALoneSurrogate) {
    Container c;
    DocBuilder b(c, "x \xED\xA0\x80 y\xC3\xA9");  // "x", lone U+D800, "yé"
    b.token_at(0, 1);
    b.token_at(2, 3);
    b.token_at(6, 3);
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{0, 2, 4}));
    EXPECT_EQ(std::vector(c.docs[0].tokens.length.begin(), c.docs[0].tokens.length.end()),
              (std::vector<std::uint32_t>{1, 1, 2}));
    EXPECT_EQ(b.view()[2].text(), "y\xC3\xA9");
}

TEST(DocBuilder, SectionsAreConsistentByConstruction) {
    Container c;
    DocBuilder plain(c, "no annotation");
    plain.token("no");
    EXPECT_FALSE(c.docs[0].has_ents);
    EXPECT_FALSE(c.docs[0].has_cats);
    plain.token("annotation");

    DocBuilder annotated(c, "annotated, nothing found");  // the next document, once the first is done
    annotated.token("annotated");
    annotated.entities_annotated().categories_annotated().span_group("empty");
    const DocSlice d = c.docs[1];
    EXPECT_TRUE(d.has_ents && d.ents.empty());
    EXPECT_TRUE(d.has_cats && d.cats.empty());
    ASSERT_EQ(d.spans.size(), 1u);
    EXPECT_TRUE(d.spans[0].spans.empty());
    EXPECT_EQ(c.docs[0].tokens.size(), 2u);
    EXPECT_FALSE(c.docs[0].has_ents);
    EXPECT_FALSE(c.docs[0].has_cats);
}

TEST(DocBuilder, OnlyTheLastDocumentGrows) {
    // Builders one after another: each grows the container's last document.
    Container c;
    c.format = Format::ondb;
    DocBuilder first(c, "a b");
    first.token("a");
    DocBuilder second(c, "c d");
    second.token("c");
    // first's document is no longer the last: its calls throw and change nothing.
    EXPECT_THROW(first.token("b"), std::logic_error);
    EXPECT_THROW(first.entity(0, 1, "X"), std::logic_error);
    EXPECT_THROW(first.at(0).pos("X"), std::logic_error);
    EXPECT_EQ(c.docs[0].tokens.size(), 1u);
    EXPECT_FALSE(c.docs[0].has_ents);
    EXPECT_EQ(c.docs[0].tokens.attrs[static_cast<std::size_t>(TokenColumn::pos)][0], 0u);
    second.token("d");
    EXPECT_EQ(c.docs[1].tokens.size(), 2u);
    EXPECT_NO_THROW(check_writable(c));
}

TEST(DocBuilder, ADocumentRemovedIsNotTakenForAnother) {
    // Its document removed, a builder stops, even when another document takes its index.
    Container c;
    c.format = Format::ondb;
    DocBuilder gone(c, "a b");
    gone.token("a");
    c.docs.pop_back();
    c.docs.push_back(Doc{});
    EXPECT_THROW(gone.token("b"), std::logic_error);
    EXPECT_THROW((void)gone.size(), std::logic_error);
    EXPECT_EQ(c.docs[0].tokens.size(), 0u);
    // An edit of an earlier document puts every document back: a later builder goes on.
    Container d;
    d.format = Format::ondb;
    d.docs.push_back(Doc{});
    DocBuilder later(d, "x y");
    later.token("x");
    d.docs.edit(0, [](Doc& doc) { doc.set_text("edited"); });
    later.token("y");
    EXPECT_EQ(d.docs[0].text, "edited");
    EXPECT_EQ(d.docs[1].tokens.size(), 2u);
    EXPECT_NO_THROW(check_writable(d));
}

TEST(DocBuilder, AfterADocumentAddedByHand) {
    // The builder's document starts empty whatever the container's previous one holds.
    Container c;
    Doc hand;
    hand.has_cats = true;
    c.docs.push_back(hand);
    DocBuilder b(c, "a b");
    b.token("b").pos("X");
    EXPECT_TRUE(c.docs[0].has_cats);
    EXPECT_FALSE(c.docs[1].has_cats);
    EXPECT_EQ(std::vector(c.docs[1].tokens.start.begin(), c.docs[1].tokens.start.end()), std::vector<std::uint32_t>{2});
    EXPECT_EQ(c.doc(1)[0].pos(), "X");
}

TEST(DocBuilder, RefusalsCarryContentCodes) {
    Container c;
    DocBuilder b(c, "one two one");
    b.token("one");
    EXPECT_EQ(builder_error_code([&] { b.token("three"); }), "content.token-out-of-text");
    EXPECT_EQ(builder_error_code([&] { b.token(""); }), "content.token-empty");
    EXPECT_EQ(builder_error_code([&] { b.token_at(0, 3); }), "content.token-order");
    EXPECT_EQ(builder_error_code([&] { b.token_at(8, 4); }), "content.token-out-of-text");
    b.token("one");  // the next occurrence: bytes 8..11
    EXPECT_EQ(c.docs[0].tokens.start[1], 8u);
    EXPECT_EQ(builder_error_code([&] { b.token("two"); }), "content.token-out-of-text");  // before the last token

    Container u;
    DocBuilder cut(u, "\xE6\x9D\xB1\xE4\xBA\xAC");  // 東京
    EXPECT_EQ(builder_error_code([&] { cut.token_at(1, 2); }), "content.invalid-string");
    EXPECT_EQ(builder_error_code([&] { cut.token_at(0, 4); }), "content.invalid-string");
    EXPECT_EQ(builder_error_code([&] { DocBuilder(u, "\xFF"); }), "content.invalid-string");
    EXPECT_EQ(u.docs.size(), 1u);  // the refused text added no document

    EXPECT_EQ(builder_error_code([&] { b.entity(0, 0, "X"); }), "content.entity-empty");
    EXPECT_EQ(builder_error_code([&] { b.entity(1, 2, "X"); }), "content.entity-out-of-range");
    EXPECT_EQ(builder_error_code([&] { b.entity(0, 1, ""); }), "content.label-empty");
    EXPECT_EQ(builder_error_code([&] { b.entity(0, 1, "X", 2.0f); }), "content.confidence-out-of-range");
    b.entity(0, 2, "X");
    EXPECT_EQ(builder_error_code([&] { b.entity(1, 1, "Y"); }), "content.entity-order");
    b.category("a", 0.5f);
    EXPECT_EQ(builder_error_code([&] { b.category("a", 0.25f); }), "content.duplicate-category");
    EXPECT_EQ(builder_error_code([&] { b.category("b", 1.5f); }), "content.score-out-of-range");
    EXPECT_EQ(builder_error_code([&] { b.span("g", 0, 0, "S"); }), "content.span-empty");
    EXPECT_EQ(builder_error_code([&] { b.span("g", 0, 3, "S"); }), "content.span-out-of-range");
    EXPECT_EQ(builder_error_code([&] { b.span("", 0, 1, "S"); }), "content.label-empty");
    EXPECT_EQ(builder_error_code([&] { b.at(0).conf(-1.0f); }), "content.confidence-out-of-range");
    EXPECT_THROW(b.at(2), std::out_of_range);

    Container bin;
    bin.format = Format::ondb;
    DocBuilder rec(bin, "r");
    rec.token("r");
    rec.entity(0, 1, "E");
    EXPECT_EQ(builder_error_code([&] { rec.category("c", 0.5f); }), "content.bin-extras");
    EXPECT_EQ(builder_error_code([&] { rec.span_group("g"); }), "content.bin-extras");
    EXPECT_NO_THROW(check_writable(bin));

    const auto e = catch_error([&] { b.token("zzz"); });
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->offset, no_offset);
}

std::string builder_error_path(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.path();
    }
    return "none";
}

TEST(DocBuilder, RefusalsNameTheFieldAsTheWriterDoes) {
    Container c;
    DocBuilder b(c, "one two");
    b.token("one");
    EXPECT_EQ(builder_error_path([&] { b.token("zzz"); }), "doc.tokens[1]");
    EXPECT_EQ(builder_error_path([&] { b.at(0).conf(2.0f); }), "doc.tokens[0].conf");
    EXPECT_EQ(builder_error_path([&] { b.entity(0, 1, ""); }), "doc.ents[0].label");
    EXPECT_EQ(builder_error_path([&] { b.category("c", -1.0f); }), "doc.cats[0].score");
    EXPECT_EQ(builder_error_path([&] { b.span("g", 0, 0, "S"); }), "doc.spans[0].spans[0]");

    Container bin;
    bin.format = Format::ondb;
    DocBuilder first(bin, "a");
    DocBuilder second(bin, "b");
    EXPECT_EQ(builder_error_path([&] { second.token("x"); }), "docs[1].tokens[0]");
    EXPECT_EQ(builder_error_path([&] { first.category("c", 0.5f); }), "docs[0]");

    Container alone;
    DocBuilder by_itself(alone, "a");
    EXPECT_EQ(builder_error_path([&] { by_itself.token("x"); }), "doc.tokens[0]");
}

}  // namespace
}  // namespace ond
