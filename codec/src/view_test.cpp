// The views (ond/view.hpp): token text on CJK, emoji and split surrogate pairs, attributes,
// heads, entities, categories and span groups, checked against the corpus files' known content.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <ranges>
#include <string>
#include <vector>

#include "ond/ond.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

const std::filesystem::path view_cases_dir = OND_CORPUS_CASES;

Container load_view_case(const char* name) { return decode(Bytes(load_file(view_cases_dir / name))); }

std::vector<std::string> texts_of(DocView doc) {
    std::vector<std::string> out;
    for (TokenView tok : doc.tokens()) out.emplace_back(tok.text());
    return out;
}

TEST(DocView, CjkTokensTextAndAttributes) {
    const Container c = load_view_case("valid/text/cjk.ondc");  // "東京 は 大きい。"
    const DocView doc = c.doc(0);
    EXPECT_EQ(doc.text(), "東京 は 大きい。");
    ASSERT_EQ(doc.size(), 3u);
    EXPECT_EQ(texts_of(doc), (std::vector<std::string>{"東京", "は", "大きい。"}));
    std::vector<std::string> pos, deps, morphs;
    for (TokenView tok : doc.tokens()) {
        pos.emplace_back(tok.pos());
        deps.emplace_back(tok.dep());
        morphs.emplace_back(tok.morph());
        EXPECT_EQ(tok.text(), tok.norm());
        EXPECT_EQ(tok.lemma(), tok.norm());
        EXPECT_EQ(tok.head_index(), 1u);
        EXPECT_EQ(tok.head().text(), "は");
        EXPECT_EQ(tok.conf(), 1.0f);
    }
    EXPECT_EQ(pos, (std::vector<std::string>{"ADJ", "VERB", "NOUN"}));
    EXPECT_EQ(deps, (std::vector<std::string>{"nsubj", "ROOT", "obl"}));
    EXPECT_EQ(morphs, (std::vector<std::string>{"", "", "Number=Sing"}));
    EXPECT_EQ(doc[0].sent(), Sentence::start);
    EXPECT_TRUE(doc[0].starts_sentence());
    EXPECT_EQ(doc[2].sent(), Sentence::inside);
    EXPECT_TRUE(doc[1].is_root());
    EXPECT_FALSE(doc[2].is_root());
    EXPECT_EQ(doc[2].attr(TokenColumn::tag), "NN");
    EXPECT_EQ(doc[2].start(), 5u);
    EXPECT_EQ(doc[2].length(), 4u);
    EXPECT_EQ(doc.token(2).text(), "大きい。");  // by index: walks from the start
    EXPECT_FALSE(doc.has_ents());
    EXPECT_TRUE(doc.ents().empty());
    EXPECT_FALSE(doc.has_cats());
}

TEST(DocView, NonBmpTokensAreViewsOfTheText) {
    const Container c = load_view_case("valid/text/non-bmp-offsets.ondc");
    const DocView doc = c.doc(0);
    EXPECT_EQ(texts_of(doc), (std::vector<std::string>{"😀", "smile", "𐌰", "gothic", "👍🏽", "ok."}));
    for (TokenView tok : doc.tokens()) {
        EXPECT_EQ(tok.exact_text(), tok.text());
        EXPECT_GE(tok.text().data(), doc.text().data());
        EXPECT_LE(tok.text().data() + tok.text().size(), doc.text().data() + doc.text().size());
    }
}

TEST(DocView, TokensThatSplitASurrogatePairGetTheWholePair) {
    // "😀😁" in three tokens: the first half of 😀; its second half and the first of 😁; the rest.
    const Container c = load_view_case("valid/text/token-inside-surrogate-pair.ondc");
    const DocView doc = c.doc(0);
    EXPECT_EQ(texts_of(doc), (std::vector<std::string>{"😀", "😀😁", "😁"}));
    for (TokenView tok : doc.tokens()) EXPECT_EQ(tok.exact_text(), std::nullopt) << tok.index();
    EXPECT_EQ(doc.token(1).text(), "😀😁");
}

TEST(DocView, TheEmojiHeavyFileAgreesWithTokenTextOneByOne) {
    for (const char* name : {"valid/document/emoji-heavy.ondc", "valid/document/multilingual.ondc",
                             "valid/document/lone-surrogates-everywhere.ondc"}) {
        SCOPED_TRACE(name);
        const Container c = load_view_case(name);
        const DocView doc = c.doc(0);
        ASSERT_GT(doc.size(), 4u);
        std::size_t i = 0;
        for (TokenView tok : doc.tokens()) {
            ASSERT_EQ(tok.index(), i);
            const auto alone = c.docs[0].token_text(i);
            EXPECT_EQ(tok.exact_text(), alone) << i;
            if (alone) {
                EXPECT_EQ(tok.text(), *alone) << i;
            }
            ++i;
        }
        EXPECT_EQ(i, doc.size());
    }
}

TEST(DocView, TokenViewsKeptPastTheirLoopStillGiveTheirText) {
    // Each view carries its own copy of the walk, so it needs the doc, not the range or iterator.
    const Container c = load_view_case("valid/text/non-bmp-offsets.ondc");
    std::vector<TokenView> kept;
    for (TokenView tok : c.doc(0).tokens()) kept.push_back(tok);
    std::vector<std::string> texts;
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) texts.emplace_back(it->text());
    EXPECT_EQ(texts, (std::vector<std::string>{"ok.", "👍🏽", "gothic", "𐌰", "smile", "😀"}));
}

TEST(DocView, OutOfOrderTokensStillGetTheirText) {
    // Hand-built (the writer would refuse the order), so the walk has to go back.
    Container c = ondc("東京 😀 ok");
    c.docs.edit(0, [&](Doc& d) {
        add_token(c, d, 6, 2, 0);  // "ok"
        add_token(c, d, 0, 2, 0);  // "東京"
        add_token(c, d, 3, 2, 0);  // "😀"
        add_token(c, d, 0, 1, 0);  // "東"
        add_token(c, d, 7, 5, 0);  // past the end of the text: only "k"
    });
    EXPECT_EQ(texts_of(c.doc(0)), (std::vector<std::string>{"ok", "東京", "😀", "東", "k"}));
    EXPECT_EQ(c.doc(0)[4].exact_text(), std::nullopt);
}

TEST(DocView, EntitiesCategoriesAndSpanGroups) {
    Container c = ondc("Apple buys a startup in 東京.");
    c.docs.edit(0, [&](Doc& d) {
        for (auto [s, n] : {std::pair{0, 5}, {6, 4}, {11, 1}, {13, 7}, {21, 2}, {24, 2}, {26, 1}})
            add_token(c, d, static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(n), 0);
        d.has_ents = true;
        d.ents = {{0, 1, c.strings.intern("ORG"), 0.75f}, {5, 2, c.strings.intern("GPE"), 1.0f}};
        d.has_cats = true;
        d.cats = {{c.strings.intern("news"), 0.9f}, {c.strings.intern("tech"), 0.5f}};
        d.spans = {{c.strings.intern("np"), {{2, 2, c.strings.intern("NP"), 1.0f}}}};
    });

    const DocView doc = c.doc(0);
    ASSERT_EQ(doc.ents().size(), 2u);
    std::vector<std::string> ents;
    for (EntityView e : doc.ents()) ents.push_back(std::string(e.label()) + ":" + std::string(e.text()));
    EXPECT_EQ(ents, (std::vector<std::string>{"ORG:Apple", "GPE:東京."}));
    EXPECT_EQ(doc.ents()[0].conf(), 0.75f);
    EXPECT_EQ(doc.ents()[1].first_token(), 5u);
    EXPECT_EQ(doc.ents()[1].size(), 2u);
    std::vector<std::string> ent_tokens;
    for (TokenView tok : doc.ents()[1].tokens()) ent_tokens.emplace_back(tok.text());
    EXPECT_EQ(ent_tokens, (std::vector<std::string>{"東京", "."}));

    ASSERT_EQ(doc.cats().size(), 2u);
    EXPECT_EQ(doc.cats()[1].label, "tech");
    EXPECT_EQ(doc.cats()[1].score, 0.5f);
    EXPECT_EQ(doc.category("news"), 0.9f);
    EXPECT_EQ(doc.category("sport"), std::nullopt);

    ASSERT_EQ(doc.span_group_count(), 1u);
    EXPECT_EQ(doc.span_group(0).name(), "np");
    const auto np = doc.span_group("np");
    ASSERT_TRUE(np.has_value());
    EXPECT_EQ((*np)[0].label(), "NP");
    EXPECT_EQ((*np)[0].text(), "a startup");
    for (SpanView s : np->spans()) EXPECT_EQ(s.size(), 2u);
    EXPECT_EQ(doc.span_group("vp"), std::nullopt);
}

TEST(DocView, EntityAndSpanTextsOfTheCorpusDocuments) {
    // Through the ranges (one walk) and one by one (a walk each): the same text, which runs from
    // the first token's text to the last's.
    for (const char* name : {"valid/document/emoji-heavy.ondc", "valid/document/multilingual.ondc",
                             "valid/document/thousands-of-tokens.ondc"}) {
        SCOPED_TRACE(name);
        const Container c = load_view_case(name);
        const DocView doc = c.doc(0);
        ASSERT_FALSE(doc.ents().empty());
        std::size_t i = 0;
        for (EntityView e : doc.ents()) {
            const std::string_view first = doc.token(e.first_token()).text();
            const std::string_view last = doc.token(e.first_token() + e.size() - 1).text();
            EXPECT_EQ(e.text(), doc.ents()[i].text());
            EXPECT_EQ(e.text().data(), first.data());
            EXPECT_EQ(e.text().data() + e.text().size(), last.data() + last.size());
            EXPECT_EQ(e.label(), doc.str(c.docs[0].ents[i].label));
            ++i;
        }
        ASSERT_GT(doc.span_group_count(), 0u);
        const SpanGroupView group = doc.span_group(0);
        i = 0;
        for (SpanView s : group.spans()) EXPECT_EQ(s.text(), group[i++].text());
    }
    const Container multilingual = load_view_case("valid/document/multilingual.ondc");
    EXPECT_EQ(multilingual.doc(0).category("経済"), 0.7558594f);
}

TEST(DocView, RangesOutliveTheViewTheyCameFrom) {
    Container c = ondc("a b");
    c.docs.edit(0, [&](Doc& d) {
        add_token(c, d, 0, 1, 0);
        d.has_ents = true;
        d.ents = {{0, 1, c.strings.intern("X"), 1.0f}};
    });
    std::vector<std::string> labels;
    for (EntityView e : c.doc(0).ents()) labels.emplace_back(e.label());  // c.doc(0) is a temporary
    EXPECT_EQ(labels, std::vector<std::string>{"X"});
}

TEST(DocView, AContainersDocumentsAsViews) {
    const Container c = load_view_case("valid/bin/three-records.ondb");
    ASSERT_EQ(c.docs.size(), 3u);
    std::size_t n = 0, tokens = 0;
    for (DocView doc : c.doc_views()) {
        EXPECT_EQ(doc.index(), n);  // a view of the container's own document n, not a copy
        EXPECT_EQ(doc.slice().text.data(), c.docs[n].text.data());
        EXPECT_EQ(doc.slice().tokens.start.data(), c.docs[n].tokens.start.data());
        EXPECT_EQ(&doc.strings(), &c.strings);
        tokens += doc.size();
        ++n;
    }
    EXPECT_EQ(n, 3u);
    EXPECT_EQ(tokens, validate(Bytes(load_file(view_cases_dir / "valid/bin/three-records.ondb"))).tokens);
    EXPECT_EQ(c.doc_views().size(), 3u);
}

// The views' ranges are standard ranges (checked when this file compiles) ...
static_assert(std::forward_iterator<TokenRange::iterator>);
static_assert(std::ranges::forward_range<TokenRange>);
static_assert(std::ranges::forward_range<DocViewRange>);
static_assert(std::ranges::forward_range<decltype(std::declval<DocView>().ents())>);
static_assert(std::input_iterator<DocBinReader::iterator>);
static_assert(std::input_iterator<StreamReader::iterator>);

// ... and the standard algorithms and views give the documents' own content through them.
TEST(DocView, StandardAlgorithmsReadTheRanges) {
    const Container cjk = load_view_case("valid/text/cjk.ondc");  // "東京 は 大きい。"
    const DocView doc = cjk.doc(0);
    const TokenRange tokens = doc.tokens();
    EXPECT_EQ(std::ranges::distance(tokens), 3);
    const auto wa = std::ranges::find_if(tokens, [](TokenView t) { return t.text() == "は"; });
    ASSERT_NE(wa, tokens.end());
    EXPECT_EQ(std::ranges::distance(tokens.begin(), wa), 1);
    std::vector<std::string> texts;
    // An algorithm, not std::views::transform: clang 14 cannot pipe a view over libstdc++ 12's ranges.
    std::ranges::transform(tokens, std::back_inserter(texts), [](TokenView t) { return std::string(t.text()); });
    EXPECT_EQ(texts, (std::vector<std::string>{"東京", "は", "大きい。"}));
    EXPECT_TRUE(std::ranges::empty(doc.ents()));

    const Container bin = load_view_case("valid/bin/three-records.ondb");
    EXPECT_EQ(std::ranges::distance(bin.doc_views()), 3);
    std::vector<std::size_t> indices;
    std::ranges::transform(bin.doc_views(), std::back_inserter(indices), [](DocView d) { return d.index(); });
    EXPECT_EQ(indices, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(Utf16OffsetsCovering, WidensOnlyWhereAPairIsSplit) {
    // "a" (1 unit, 1 byte), "😀" (2, 4), "東" (1, 3), lone U+D800 (1, 3).
    const std::string s = "a\xF0\x9F\x98\x80\xE6\x9D\xB1\xED\xA0\x80";
    unicode::Utf16Offsets at(s);
    EXPECT_EQ(at.to_bytes_rounded(2, false), 1u);  // inside the pair: its start ...
    EXPECT_EQ(at.to_bytes_rounded(2, true), 5u);   // ... or its end
    EXPECT_EQ(at.to_bytes_rounded(3, false), 5u);  // on a boundary both agree
    EXPECT_EQ(at.to_bytes_rounded(3, true), 5u);
    EXPECT_EQ(at.to_bytes_rounded(99, true), s.size());  // past the end: the end
    EXPECT_EQ(at.covering_view(0, 2), "a\xF0\x9F\x98\x80");
    EXPECT_EQ(at.covering_view(2, 2), "\xF0\x9F\x98\x80\xE6\x9D\xB1");
    EXPECT_EQ(at.covering_view(4, 1), "\xED\xA0\x80");  // a lone surrogate is a character of its own
    EXPECT_EQ(at.covering_view(1, 2), "\xF0\x9F\x98\x80");
    EXPECT_EQ(at.covering_view(5, 3), "");
    EXPECT_EQ(at.covering_view(0, ~std::uint64_t{0}), s);
}

TEST(SummaryText, AsTheToolWordsIt) {
    EXPECT_EQ(to_string(validate(Bytes(load_file(view_cases_dir / "valid/text/cjk.ondc")))),
              "ONDC, 1 document, 3 tokens, no crc");
    EXPECT_EQ(to_string(validate(Bytes(load_file(view_cases_dir / "valid/bin/three-records-crc.ondb")))),
              "ONDB, 3 documents, 10 tokens, crc");
    EXPECT_EQ(to_string(Format::ondb), "ONDB");
}

}  // namespace
}  // namespace ond
