// The smaller traps of the API (issue 26), each a test that failed before its fix, and the
// non-throwing forms of the builder and of the calls that had none.
#include <gtest/gtest.h>

#include <filesystem>
#include <type_traits>
#include <unistd.h>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

TEST(Traps, TokensResizeMakesRootsAsTheBuilderDoes) {
    Doc d;
    d.set_text("a b c");
    d.tokens.resize(1);
    d.tokens.head[0] = 0;
    d.tokens.resize(3);  // before: heads 0, 0 (every new token pointing at token 0)
    EXPECT_EQ(d.tokens.head, (std::vector<std::int32_t>{0, 1, 2}));
    EXPECT_EQ(d.tokens.conf, (std::vector<float>{1.0f, 1.0f, 1.0f}));
    Container built;
    DocBuilder b(built, "a b c");
    b.token("a");
    b.token("b");
    b.token("c");
    const DocSlice s = built.docs[0];
    EXPECT_TRUE(std::equal(d.tokens.head.begin(), d.tokens.head.end(), s.tokens.head.begin()));
}

TEST(Traps, TextLengthCannotGoStale) {
    // Before: a field, set by set_text and left behind by an assignment to text.
    Doc d;
    d.set_text("abc");
    d.text = "abc\xF0\x9F\x98\x80";  // + one emoji: 2 UTF-16 units
    EXPECT_EQ(d.text_utf16_length(), 5u);
    Container c;
    c.docs.push_back(d);
    EXPECT_EQ(c.docs[0].text_utf16_length, 5u);
    EXPECT_EQ(c.docs.to_doc(0).text_utf16_length(), 5u);
    d.text = "\xff";
    EXPECT_EQ(d.text_utf16_length(), 0u);  // not WTF-8
}

TEST(Traps, BuilderTokenMatchesWholeTokensOnly) {
    Container c;
    DocBuilder b(c, "He played a game");
    b.token("He");
    EXPECT_EQ(b.token("a").index(), 1u);
    EXPECT_EQ(c.docs[0].tokens.start[1], 10u);  // before: 5, the "a" inside "played"
    b.token("game");
    // Adjacent to the previous token a piece of a word is still a token: "do" then "n't".
    Container d;
    DocBuilder dont(d, "I don't know");
    dont.token("I");
    dont.token("do");
    dont.token("n't");
    EXPECT_EQ(d.docs[0].tokens.start[2], 4u);
    // A word only found inside another is not there.
    Container e;
    DocBuilder only_inside(e, "played");
    auto got = catch_error([&] { (void)only_inside.token("a"); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "content.token-out-of-text");
    // Punctuation and non-ASCII text need no boundary.
    Container f;
    DocBuilder p(f, "startup. 東京で");
    p.token("startup");
    p.token(".");
    p.token("東京");
    p.token("で");
    EXPECT_EQ(f.docs[0].tokens.start[3], 11u);
}

TEST(Traps, SaveFileIsLoadFilesConverse) {
    const auto dir = std::filesystem::temp_directory_path() / ("ond_save_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto bytes = encode(ondc("hello"));
    save_file(dir / "a.ondc", Bytes(bytes));
    EXPECT_EQ(load_file(dir / "a.ondc"), bytes);
    save_file(dir / "a.ondc", Bytes(bytes).first(12));  // replaces, not appends
    EXPECT_EQ(load_file(dir / "a.ondc").size(), 12u);
    std::error_code ec;
    save_file(dir, Bytes(bytes), ec);  // a directory
    EXPECT_TRUE(ec);
    EXPECT_THROW(save_file(dir / "no" / "such" / "x", Bytes(bytes)), std::filesystem::filesystem_error);
    std::filesystem::remove_all(dir);
}

TEST(Traps, DocAndDocsAreTwoKindsSaidInTheirTypes) {
    Container c = ondc("hello");
    static_assert(std::is_same_v<decltype(c.doc(0)), DocView>);
    static_assert(std::is_same_v<decltype(c.docs[0]), DocSlice>);
    EXPECT_EQ(c.doc(0).text(), c.docs[0].text);
}

TEST(NoThrow, BuilderKeepsItsFirstError) {
    Container c;
    DocBuilder b(c, "Apple buys a startup", no_throw);
    b.token("Apple").pos("PROPN");
    EXPECT_TRUE(b.status());
    b.token("banana").pos("NOUN");  // not in the text: the error is kept, pos() does nothing
    b.token("buys").pos("VERB");    // after the error: nothing
    b.entity(0, 1, "ORG");
    const Status s = b.status();
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code(), "content.token-out-of-text");
    EXPECT_EQ(s.error().path(), "doc.tokens[1]");
    ASSERT_EQ(c.docs.size(), 1u);
    EXPECT_EQ(c.docs[0].tokens.size(), 1u);
    EXPECT_EQ(c.doc(0)[0].pos(), "PROPN");
    EXPECT_FALSE(c.docs[0].has_ents);
    // A token setter's own error.
    Container d;
    DocBuilder t(d, "a b", no_throw);
    t.token("a").conf(2.0f).pos("X");
    ASSERT_FALSE(t.status());
    EXPECT_EQ(t.status().error().code(), "content.confidence-out-of-range");
    EXPECT_EQ(d.doc(0)[0].pos(), "");
    // The text refused: no document added.
    Container e;
    DocBuilder bad(e, "\xff", no_throw);
    bad.token("x");
    ASSERT_FALSE(bad.status());
    EXPECT_EQ(bad.status().error().code(), "content.invalid-string");
    EXPECT_TRUE(e.docs.empty());
    // The throwing builder still throws, and goes on after a caught refusal.
    Container f;
    DocBuilder thrower(f, "a b");
    EXPECT_THROW(thrower.token("z"), Error);
    thrower.token("b");
    EXPECT_TRUE(thrower.status());
}

TEST(NoThrow, EditsMergeAndTextHaveTryForms) {
    Container c = ondc("hello");
    add_token(c, 0, 0, 5, 0);
    EXPECT_EQ(try_set_head(c.docs, 0, 0, 7).error().code(), "content.head-out-of-range");
    EXPECT_EQ(try_set_conf(c.docs, 0, 0, -1.0f).error().code(), "content.confidence-out-of-range");
    EXPECT_EQ(try_set_attr(c.docs, 0, 0, TokenColumn::pos, 99).error().code(), "content.bad-string-id");
    EXPECT_TRUE(try_set_attr(c, 0, 0, TokenColumn::pos, "INTJ"));
    EXPECT_EQ(c.doc(0)[0].pos(), "INTJ");
    const Status edited = try_edit(c.docs, 0, [](Doc& d) { d.tokens.head.pop_back(); });
    ASSERT_FALSE(edited);
    EXPECT_EQ(edited.error().code(), "content.inconsistent");
    EXPECT_EQ(c.docs[0].tokens.size(), 1u);  // left as it was
    Doc d;
    EXPECT_EQ(try_set_text(d, "\xc3").error().code(), "content.invalid-string");
    Container bin;
    bin.format = Format::ondb;
    EXPECT_TRUE(try_merge(bin, c));
    EXPECT_EQ(bin.docs.size(), 1u);
    Container with_cats = ondc("x");
    with_cats.docs.edit(0, [&](Doc& x) { x.cats.push_back({with_cats.strings.intern("C"), 0.5f}); });
    auto packed = try_pack(std::span<const Container>(&with_cats, 1));
    ASSERT_TRUE(packed);  // packing keeps the categories; the writer refuses them in a bin
    EXPECT_EQ(try_encode(*packed).error().code(), "content.bin-extras");
    auto parts = try_split(bin, 1, Format::ondc);
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->size(), 1u);
    std::vector<std::byte> out;
    EXPECT_TRUE(try_encode_append(c, out));
    EXPECT_EQ(out, encode(c));
    EXPECT_TRUE(try_check_writable(c));
}

}  // namespace
}  // namespace ond
