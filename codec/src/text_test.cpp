// The text, section 2 (R16), and token offsets measured in UTF-16 code units (R18).
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

struct TextDoc {
    Ctr c;
    std::size_t text_at = 0, tokens_at = 0;
    TokLayout tok;
    TextDoc(const B& text, const std::vector<Tok>& toks) {
        c.add(1, strings_content({}));
        text_at = c.add(2, text);
        tokens_at = c.add(3, tokens_content(toks, {}, &tok));
    }
};

B utf16_text(std::u16string_view units) {
    B b;
    b.u8(1);
    for (char16_t u : units) b.u16(u);
    return b;
}

TEST(Text, R16_Utf8Text) {
    TextDoc d(text_content("caf\xC3\xA9 ok"), {{0, 4}, {1, 2}});
    Container c = Accept(d.c.build());
    EXPECT_EQ(c.docs[0].text, "caf\xC3\xA9 ok");
    EXPECT_EQ(c.docs[0].text_utf16_length, 7u);
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{0, 5}));
    EXPECT_TRUE(SameBytes(Encode(c), d.c.build()));
}

TEST(Text, R16_EmptyText) {
    TextDoc d(text_content(""), {});
    Container c = Accept(d.c.build());
    EXPECT_EQ(c.docs[0].text, "");
    EXPECT_EQ(c.docs[0].text_utf16_length, 0u);
    EXPECT_EQ(c.docs[0].tokens.size(), 0u);
    EXPECT_TRUE(SameBytes(Encode(c), d.c.build()));
    TextDoc u(B{}.u8(1), {});  // empty UTF-16 text: non-canonical
    EXPECT_TRUE(SameBytes(Encode(Accept(u.c.build())), d.c.build()));
}

TEST(Text, R16_BadEncodingByte) {
    for (std::uint32_t enc : {2u, 3u, 0x80u, 0xFFu}) {
        TextDoc d(B{}.u8(enc).raw("Hello world"), hello_tokens());
        EXPECT_TRUE(Rejects(d.c.build(), "text.bad-encoding", d.text_at)) << enc;
    }
}

TEST(Text, R16_InvalidUtf8AtTheBadByte) {
    TextDoc d(B{}.u8(0).raw("Hello w").raw({0xED, 0xB0, 0x80}).raw("ld"), {{0, 5}});
    EXPECT_TRUE(Rejects(d.c.build(), "text.invalid-utf8", d.text_at + 1 + 7));
    TextDoc e(B{}.u8(0).raw({0xC1, 0x81}), {});
    EXPECT_TRUE(Rejects(e.c.build(), "text.invalid-utf8", e.text_at + 1));
    TextDoc f(B{}.u8(0).raw("Hello world").raw({0xF0, 0x9F}), {});
    EXPECT_TRUE(Rejects(f.c.build(), "text.invalid-utf8", f.text_at + 12));
}

TEST(Text, R16_OddUtf16ByteCount) {
    // Reported at the odd last byte.
    TextDoc d(B{}.u8(1).raw({'H', 0, 'i'}), {});
    EXPECT_TRUE(Rejects(d.c.build(), "text.odd-utf16-length", d.text_at + 3));
    TextDoc e(B{}.u8(1).raw({'H'}), {});
    EXPECT_TRUE(Rejects(e.c.build(), "text.odd-utf16-length", e.text_at + 1));
}

TEST(Text, R16_Utf16WithLoneSurrogate) {
    // "a" U+D800 "b": UTF-16 is the only way to store it, so it is canonical.
    TextDoc d(utf16_text(std::u16string{u'a', 0xD800, u'b'}), {{0, 1}, {0, 1}, {0, 1}});
    const auto bytes = d.c.build();
    Container c = Accept(bytes);
    EXPECT_EQ(c.docs[0].text, "a\xED\xA0\x80" "b");
    EXPECT_EQ(c.docs[0].text_utf16_length, 3u);
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_TRUE(SameBytes(Encode(c), bytes));
}

TEST(Text, R16_Utf16ThatIsWellFormedIsNonCanonical) {
    TextDoc d(utf16_text(u"Hello world"), hello_tokens());
    Container c = Accept(d.c.build());
    EXPECT_EQ(c.docs[0].text, "Hello world");
    EXPECT_TRUE(SameBytes(Encode(c), HelloOndc().c.build()));
}

TEST(Text, R16_LeadingByteOrderMarkIsContent) {
    TextDoc d(text_content("\xEF\xBB\xBFHi"), {{0, 1}, {0, 2}});
    Container c = Accept(d.c.build());
    EXPECT_EQ(c.docs[0].text, "\xEF\xBB\xBFHi");
    EXPECT_EQ(c.docs[0].text_utf16_length, 3u);
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{0, 1}));
    EXPECT_TRUE(SameBytes(Encode(c), d.c.build()));
    TextDoc u(utf16_text(std::u16string{0xFEFF, u'H', u'i'}), {{0, 1}, {0, 2}});
    EXPECT_TRUE(SameBytes(Encode(Accept(u.c.build())), d.c.build()));
}

TEST(Text, R18_OffsetsCountUtf16CodeUnits) {
    // "a😀b": the emoji is 4 UTF-8 bytes and 2 UTF-16 units, so the text is 4 units long.
    TextDoc d(text_content("a\xF0\x9F\x98\x80" "b"), {{0, 1}, {0, 2}, {0, 1}});
    Container c = Accept(d.c.build());
    EXPECT_EQ(c.docs[0].text_utf16_length, 4u);
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{0, 1, 3}));
    EXPECT_EQ(std::vector(c.docs[0].tokens.length.begin(), c.docs[0].tokens.length.end()),
              (std::vector<std::uint32_t>{1, 2, 1}));
    // Five units would pass the end.
    TextDoc e(text_content("a\xF0\x9F\x98\x80" "b"), {{0, 1}, {0, 2}, {0, 2}});
    EXPECT_TRUE(Rejects(e.c.build(), "tokens.out-of-text", e.tokens_at + e.tok.gap[2]));
}

TEST(Text, R18_TokenMayEndInsideASurrogatePair) {
    TextDoc d(text_content("\xF0\x9F\x98\x80"), {{0, 1}, {0, 1}});
    Container c = Accept(d.c.build());
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{0, 1}));
    EXPECT_TRUE(SameBytes(Encode(c), d.c.build()));
}

TEST(Text, R18_TokenMayCoverOnlyWhitespace) {
    TextDoc d(text_content("a   b"), {{0, 1}, {0, 3}, {0, 1}});
    Container c = Accept(d.c.build());
    EXPECT_EQ(std::vector(c.docs[0].tokens.length.begin(), c.docs[0].tokens.length.end()),
              (std::vector<std::uint32_t>{1, 3, 1}));
}

TEST(Text, R8_TextSectionWithOnlyTheEncodingByte) {
    TextDoc d(B{}.u8(0), {});
    Container c = Accept(d.c.build());
    EXPECT_TRUE(c.docs[0].text.empty());
}

}  // namespace
}  // namespace ond
