// Edits of a container's documents: in place, O(1) per value, with the writer's checks
// (DocList::set_*), a whole column rewritten by value (Container::rewrite_attr), and every
// document through one rebuild (DocList::edit_all).
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <stdexcept>
#include <string>

#include "ond/builder.hpp"
#include "ond/error.hpp"
#include "ond/reader.hpp"
#include "ond/view.hpp"
#include "ond/writer.hpp"

namespace ond {
namespace {

Container two_docs() {
    Container c;
    c.format = Format::ondb;
    DocBuilder a(c, "Apple buys Beats");
    a.token("Apple").lemma("Apple").pos("PROPN");
    a.token("buys").lemma("Buy").pos("VERB");
    a.token("Beats").lemma("Beat").pos("PROPN");
    a.entity(0, 1, "ORG", 0.5f);
    DocBuilder b(c, "Pears fall");
    b.token("Pears").lemma("Pear");
    b.token("fall").lemma("Fall");
    return c;
}

std::string code_of(auto&& f) {
    try {
        f();
    } catch (const Error& e) {
        return std::string(e.code()) + " " + e.path();
    } catch (const std::out_of_range&) {
        return "out_of_range";
    }
    return "none";
}

TEST(EditInPlace, EachSetterChangesOneValueAndChecksIt) {
    Container c = two_docs();
    const TokenColumns* cols = &c.docs.token_columns();
    c.set_attr(0, 1, TokenColumn::lemma, "buy");
    c.docs.set_head(0, 1, 2);
    c.docs.set_sent(0, 0, Sentence::start);
    c.docs.set_conf(0, 2, 0.25f);
    c.docs.set_entity_label(0, 0, c.strings.intern("COMPANY"));
    c.docs.set_entity_conf(0, 0, 1.0f);
    EXPECT_EQ(&c.docs.token_columns(), cols);
    const DocView d = c.doc(0);
    EXPECT_EQ(d.token(1).lemma(), "buy");
    EXPECT_EQ(d.token(1).head_index(), 2u);
    EXPECT_TRUE(d.token(0).starts_sentence());
    EXPECT_EQ(d.token(2).conf(), 0.25f);
    EXPECT_EQ(d.ents()[0].label(), "COMPANY");
    EXPECT_EQ(d.ents()[0].conf(), 1.0f);
    EXPECT_EQ(c.doc(1).token(0).lemma(), "Pear");  // the other document is untouched
    EXPECT_TRUE(same_content(decode(encode(c)), c));

    // Refusals change nothing.
    EXPECT_EQ(code_of([&] { c.docs.set_attr(0, 0, TokenColumn::pos, 999); }), "content.bad-string-id docs[0].tokens[0].pos");
    EXPECT_EQ(code_of([&] { c.docs.set_head(1, 0, 2); }), "content.head-out-of-range docs[1].tokens[0].head");
    EXPECT_EQ(code_of([&] { c.docs.set_conf(0, 0, 1.5f); }), "content.confidence-out-of-range docs[0].tokens[0].conf");
    EXPECT_EQ(code_of([&] { c.docs.set_sent(0, 0, static_cast<Sentence>(3)); }), "content.bad-sentence-value docs[0].tokens[0].sent");
    EXPECT_EQ(code_of([&] { c.docs.set_entity_conf(0, 0, -1.0f); }), "content.confidence-out-of-range docs[0].ents[0].conf");
    EXPECT_EQ(code_of([&] { c.docs.set_attr(0, 3, TokenColumn::pos, 0); }), "out_of_range");
    EXPECT_EQ(code_of([&] { c.docs.set_attr(2, 0, TokenColumn::pos, 0); }), "out_of_range");
    EXPECT_EQ(code_of([&] { c.docs.set_entity_label(1, 0, 0); }), "out_of_range");
    EXPECT_EQ(code_of([&] { c.docs.set_category_score(0, 0, 0.5f); }), "out_of_range");
    EXPECT_EQ(code_of([&] { c.docs.set_span_label(0, 0, 0, 0); }), "out_of_range");
    EXPECT_EQ(c.doc(0).token(0).pos(), "PROPN");
    EXPECT_EQ(c.doc(0).token(0).conf(), 1.0f);
    EXPECT_EQ(c.doc(1).token(0).head_index(), 0u);
}

TEST(EditInPlace, CategoriesAndSpansOfAnOndc) {
    Container c;
    DocBuilder b(c, "a b");
    b.token("a");
    b.token("b");
    b.category("news", 0.5f).span("sc", 0, 2, "X");
    c.docs.set_category_score(0, 0, 0.75f);
    c.docs.set_span_label(0, 0, 0, c.strings.intern("Y"));
    EXPECT_EQ(c.doc(0).category("news"), 0.75f);
    EXPECT_EQ(c.doc(0).span_group(0)[0].label(), "Y");
    EXPECT_EQ(code_of([&] { c.docs.set_category_score(0, 0, 2.0f); }), "content.score-out-of-range docs[0].cats[0].score");
    EXPECT_EQ(code_of([&] { c.docs.set_span_label(0, 0, 1, 0); }), "out_of_range");
}

TEST(EditInPlace, RewriteAColumnByValue) {
    Container c = two_docs();
    int calls = 0;
    c.rewrite_attr(TokenColumn::lemma, [&](std::string_view v) {
        ++calls;
        std::string s(v);
        for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return s;
    });
    EXPECT_EQ(calls, 5);  // once per distinct lemma
    std::string lemmas;
    for (const DocView d : c.doc_views())
        for (const TokenView t : d.tokens()) lemmas += std::string(t.lemma()) + " ";
    EXPECT_EQ(lemmas, "apple buy beat pear fall ");
    EXPECT_EQ(c.doc(0).token(0).pos(), "PROPN");  // other columns untouched
    EXPECT_TRUE(same_content(decode(encode(c)), c));
}

TEST(EditAll, RebuildsOnceAndKeepsTheListOnARefusal) {
    Container c = two_docs();
    c.docs.edit_all([&](std::size_t i, Doc& d) {
        d.tokens.column(TokenColumn::norm).assign(d.tokens.size(), c.strings.intern("n" + std::to_string(i)));
        if (i == 0) d.ents.clear();
    });
    EXPECT_EQ(c.doc(0).token(2).norm(), "n0");
    EXPECT_EQ(c.doc(1).token(1).norm(), "n1");
    EXPECT_TRUE(c.doc(0).ents().empty());
    EXPECT_EQ(c.docs.removals(), 0u);
    // A refused Doc (an id the store never handed out) leaves every document as it was.
    EXPECT_EQ(code_of([&] { c.docs.edit_all([](Doc& d) { d.tokens.column(TokenColumn::dep).assign(d.tokens.size(), 777); }); }),
              "content.bad-string-id tokens[0].dep");
    EXPECT_EQ(c.doc(1).token(1).norm(), "n1");
    EXPECT_EQ(c.doc(0).token(0).dep(), "");
    // Still bound to c's strings after the rebuild.
    Doc foreign;
    foreign.origin = 12345;
    EXPECT_EQ(code_of([&] { c.docs.push_back(foreign); }), "content.bad-string-id ");
}

TEST(EditAll, IsLinearWhereEditingEachWasQuadratic) {
    // 5,000 documents: edit() of each copies every later one (45 s in the report), edit_all
    // rebuilds once. The bound is loose (a slow machine); quadratic work would take minutes.
    Container c;
    c.format = Format::ondb;
    for (int i = 0; i < 5000; ++i) {
        DocBuilder b(c, "one two three four");
        for (const char* w : {"one", "two", "three", "four"}) b.token(w).lemma(w);
    }
    const auto t0 = std::chrono::steady_clock::now();
    c.docs.edit_all([&](Doc& d) { d.tokens.column(TokenColumn::pos).assign(d.tokens.size(), c.strings.intern("X")); });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 5.0);
    EXPECT_EQ(c.doc(4999).token(3).pos(), "X");
    EXPECT_EQ(c.doc(4999).token(3).lemma(), "four");
}

}  // namespace
}  // namespace ond
