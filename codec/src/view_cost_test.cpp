// The views' costs: a token's text by index is O(1) in every text (no walk in an ASCII text, a
// walk of at most 64 units from the document's text index in any other), and TokenTexts
// indexes every token of any text after one walk (include/ond/view.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ond/builder.hpp"
#include "ond/unicode.hpp"
#include "ond/view.hpp"

namespace ond {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(ViewCost, TokenByIndexInAnAsciiTextDoesNotWalk) {
    // 100,000 tokens: by index, each text() used to walk from the start (9.5 s in the report).
    std::string text;
    for (int i = 0; i < 100000; ++i) text += "w" + std::to_string(i % 1000) + " ";
    Container c;
    DocBuilder b(c, text);
    std::size_t at = 0;
    for (int i = 0; i < 100000; ++i) {
        const std::size_t len = 1 + std::to_string(i % 1000).size();
        b.token_at(at, len);
        at += len + 1;
    }
    const DocView d = c.doc(0);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < d.size(); ++i) bytes += d[i].text().size();
    EXPECT_LT(seconds_since(t0), 0.5);  // a walk each would be ~10^10 steps
    EXPECT_EQ(bytes, text.size() - 100000);
    EXPECT_EQ(d[99999].text(), "w999");
    EXPECT_EQ(d[12345].exact_text(), "w345");
    EXPECT_EQ(d.slice().token_text(54321), "w321");
}

TEST(ViewCost, AsciiOffsetsAgreeWithTheWalk) {
    const std::string s = "hello, world";
    unicode::Utf16Offsets fast(s, s.size()), walk(s);
    for (std::uint64_t u = 0; u <= s.size() + 2; ++u) {
        EXPECT_EQ(fast.to_bytes(u), walk.to_bytes(u)) << u;
        EXPECT_EQ(fast.to_units(u), walk.to_units(u)) << u;
        EXPECT_EQ(fast.covering_view(u, 3), walk.covering_view(u, 3)) << u;
        EXPECT_EQ(fast.view(u, 2), walk.view(u, 2)) << u;
    }
    // Going back works too (no walk to restart).
    EXPECT_EQ(fast.to_bytes(3), 3u);
    // A length that says "not ASCII" walks: é is 2 bytes, 1 unit.
    const std::string e = "caf\xC3\xA9!";
    unicode::Utf16Offsets w(e, 5);
    EXPECT_EQ(w.to_bytes(4), 5u);
    EXPECT_EQ(w.to_bytes(5), 6u);
}

// One document of 100,000 tokens, each a word of `script` (a few characters of it and a number)
// and a space; the words, in order, are returned in `words`.
Container words_doc(const std::string& letter, std::vector<std::string>& words) {
    std::string text;
    std::vector<std::size_t> starts;
    for (int i = 0; i < 100000; ++i) {
        words.push_back(letter + std::to_string(i % 1000) + letter);
        starts.push_back(text.size());
        text += words.back() + " ";
    }
    Container c;
    DocBuilder b(c, text);
    for (std::size_t i = 0; i < words.size(); ++i) b.token_at(starts[i], words[i].size());
    return c;
}

// Issue 37: by index, a non-ASCII text's tokens took 23-37 s for 100,000 tokens (a walk from the
// start each); now every script is as fast as ASCII, and every token's text is its word.
TEST(ViewCost, TokenByIndexIsO1InEveryScript) {
    for (const std::string letter : {"w", "\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80"}) {  // ASCII, Latin, CJK, astral
        std::vector<std::string> words;
        const Container c = words_doc(letter, words);
        const DocView d = c.doc(0);
        ASSERT_EQ(d.size(), words.size());
        const auto t0 = std::chrono::steady_clock::now();
        std::size_t wrong = 0;
        for (std::size_t i = d.size(); i-- > 0;) wrong += d[i].text() != words[i];  // backwards: no walk to reuse
        EXPECT_LT(seconds_since(t0), 2.0) << letter;  // a walk from the start each: ~10^10 steps
        EXPECT_EQ(wrong, 0u) << letter;
        EXPECT_EQ(d[54321].exact_text(), words[54321]) << letter;
        EXPECT_EQ(d.slice().token_text(99999), words[99999]) << letter;
    }
}

// Tokens of one UTF-16 unit at every offset of a text of surrogate pairs whose pairs straddle the
// index's samples (every 64 units; the text starts with three ASCII letters, so pairs start at
// units 3, 7, ..., 63, and sample 64 falls between the halves of one): by index, each gives what the in-order walk gives.
TEST(ViewCost, TokenByIndexAgreesWithTheWalkAtSurrogatePairsAndSamples) {
    std::string text = "aaa";
    for (int i = 0; i < 200; ++i) text += i % 3 == 0 ? "\xF0\x9F\x98\x80" : i % 3 == 1 ? "\xE2\x82\xAC" : "z";
    const std::optional<std::uint64_t> units = unicode::wtf8_utf16_length(text);
    ASSERT_TRUE(units);
    Container c;
    Doc d;
    d.set_text(text);
    d.tokens.resize(*units);
    for (std::uint32_t u = 0; u < *units; ++u) {
        d.tokens.start[u] = u;
        d.tokens.length[u] = 1;
    }
    c.docs.push_back(d);
    const DocView v = c.doc(0);
    std::vector<std::string> walked;
    std::vector<std::optional<std::string_view>> exact;
    for (const TokenView t : v.tokens()) {
        walked.emplace_back(t.text());
        exact.push_back(t.exact_text());
    }
    ASSERT_EQ(walked.size(), *units);
    std::size_t split_pairs = 0;
    for (std::size_t i = walked.size(); i-- > 0;) {
        EXPECT_EQ(v[i].text(), walked[i]) << i;
        EXPECT_EQ(v[i].exact_text(), exact[i]) << i;
        split_pairs += !exact[i].has_value();
    }
    EXPECT_EQ(split_pairs, 2u * 67);  // each half of each of the 67 pairs
    EXPECT_EQ(v[2].text(), "a");
    EXPECT_EQ(v[3].text(), "\xF0\x9F\x98\x80");  // the first half of a pair: the whole pair
    EXPECT_EQ(v[4].text(), "\xF0\x9F\x98\x80");  // the second half: the same
    EXPECT_EQ(v[5].text(), "\xE2\x82\xAC");
    EXPECT_EQ(v[6].exact_text(), "z");
    EXPECT_EQ(v[63].text(), "\xF0\x9F\x98\x80");
    EXPECT_EQ(v[64].text(), "\xF0\x9F\x98\x80");
    EXPECT_FALSE(v[64].exact_text());
    EXPECT_EQ(v[65].exact_text(), "\xE2\x82\xAC");
    EXPECT_EQ(v[walked.size() - 1].exact_text(), "\xE2\x82\xAC");
}

// Replacing a document drops its text index: the next token by index reads the new text.
TEST(ViewCost, AReplacedDocumentIsIndexedAfresh) {
    std::vector<std::string> words;
    Container c = words_doc("\xC3\xA9", words);
    EXPECT_EQ(c.doc(0)[500].text(), words[500]);  // builds the index
    c.docs.edit(0, [](Doc& d) { d.set_text("\xE6\x97\xA5" + d.text.substr(2)); });  // same units, one byte more
    EXPECT_EQ(c.doc(0)[0].text(), "\xE6\x97\xA5" "0\xC3\xA9");
    EXPECT_EQ(c.doc(0)[500].text(), words[500]);
    Container copy = c;  // a copy indexes its own text
    EXPECT_EQ(copy.doc(0)[99999].text(), words[99999]);
}

TEST(ViewCost, TokenTextsIndexEveryTokenOfAnyText) {
    // "x" U+1F600 "y" with tokens splitting the pair, and a CJK run: no ASCII shortcut.
    Container c;
    DocBuilder b(c, "x\xF0\x9F\x98\x80y \xE6\x97\xA5\xE6\x9C\xAC");
    b.token_at(0, 1);
    b.token_at(1, 4);
    b.token_at(5, 1);
    b.token_at(7, 3);
    b.token_at(10, 3);
    const DocView d = c.doc(0);
    const TokenTexts texts(d);
    ASSERT_EQ(texts.size(), d.size());
    for (std::size_t i = 0; i < d.size(); ++i) EXPECT_EQ(texts[i], d[i].text()) << i;
    EXPECT_EQ(texts[1], "\xF0\x9F\x98\x80");
    EXPECT_EQ(texts[4], "\xE6\x9C\xAC");
}

}  // namespace
}  // namespace ond
