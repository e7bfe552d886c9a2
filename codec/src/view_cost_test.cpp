// The views' costs: a token's text by index is O(1) in an ASCII text (no walk), and TokenTexts
// indexes every token of any text after one walk (include/ond/view.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

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
