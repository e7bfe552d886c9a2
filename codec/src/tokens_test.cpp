// The tokens section, section 3 (R17-R21, R3 for token confidences).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// An ONDC with the given table, text and tokens section content.
struct TokDoc {
    Ctr c;
    std::size_t tokens_at = 0;
    TokLayout l;
    TokDoc(const std::vector<Tok>& toks, const std::optional<std::vector<float>>& confs = {},
           std::string_view text = "Hello world", std::initializer_list<std::string_view> strs = {}) {
        c.add(1, strings_content(strs));
        c.add(2, text_content(text));
        tokens_at = c.add(3, tokens_content(toks, confs, &l));
    }
    struct Raw {};
    TokDoc(Raw, const B& raw_tokens, std::string_view text = "Hello world") {
        c.add(1, strings_content({}));
        c.add(2, text_content(text));
        tokens_at = c.add(3, raw_tokens);
    }
    std::vector<std::uint8_t> bytes() const { return c.build(); }
};

std::vector<Tok> n_tokens(std::size_t n) {
    // n one-unit tokens over a text of n 'x's, all roots.
    return std::vector<Tok>(n, Tok{0, 1, {}, 0, 0});
}

TEST(Tokens, DecodesEveryColumn) {
    std::vector<Tok> toks = {
        {0, 5, {1, 2, 3, 4, 5, 6}, 1, 1},
        {1, 5, {7, 2, 0, 0, 0, 0}, 0, 2},
    };
    TokDoc d(toks, std::vector<float>{0.25f, 1.0f}, "Hello world",
             {"hello", "hi", "INTJ", "UH", "ROOT", "Mood=Ind", "world"});
    Container c = Accept(d.bytes());
    const TokenSlice t = c.docs[0].tokens;
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(std::vector(t.start.begin(), t.start.end()), (std::vector<std::uint32_t>{0, 6}));
    EXPECT_EQ(std::vector(t.length.begin(), t.length.end()), (std::vector<std::uint32_t>{5, 5}));
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::norm)[0]), "hello");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::lemma)[0]), "hi");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::pos)[0]), "INTJ");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::tag)[0]), "UH");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::dep)[0]), "ROOT");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::morph)[0]), "Mood=Ind");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::norm)[1]), "world");
    EXPECT_EQ(c.strings.view(t.column(TokenColumn::lemma)[1]), "hi");
    EXPECT_EQ(t.column(TokenColumn::pos)[1], 0u);
    EXPECT_EQ(std::vector(t.head.begin(), t.head.end()),
              (std::vector<std::int32_t>{1, 1}));  // absolute: token 1 is the root
    EXPECT_EQ(std::vector(t.sent.begin(), t.sent.end()), (std::vector<Sentence>{Sentence::start, Sentence::inside}));
    EXPECT_EQ(float_bits(t.conf[0]), float_bits(0.25f));
    EXPECT_EQ(float_bits(t.conf[1]), 0x3F800000u);
    // The table is not in first-use order (W3: all norms come before any lemma), so the
    // canonical bytes renumber it: hello, world, hi, INTJ, UH, ROOT, Mood=Ind.
    std::vector<Tok> canon_toks = {
        {0, 5, {1, 3, 4, 5, 6, 7}, 1, 1},
        {1, 5, {2, 3, 0, 0, 0, 0}, 0, 2},
    };
    TokDoc canon(canon_toks, std::vector<float>{0.25f, 1.0f}, "Hello world",
                 {"hello", "world", "hi", "INTJ", "UH", "ROOT", "Mood=Ind"});
    EXPECT_TRUE(SameBytes(Encode(c), canon.bytes()));
    EXPECT_TRUE(SameBytes(Encode(Accept(canon.bytes())), canon.bytes()));
}

TEST(Tokens, IndexColumnsOfEveryLength) {
    // The six index columns are read as one run; each value must land in its column and row, and
    // an index past the table must be reported at its own varint, for documents of every size
    // (170 tokens is the longest run read through a buffer) and indexes of 1, 2 and 3 bytes.
    constexpr std::uint32_t table = 20000;
    B strs;
    strs.varint(table);
    for (std::uint32_t k = 0; k < table; ++k) strs.varint(2).raw("s");
    for (const std::size_t n : {1u, 2u, 31u, 169u, 170u, 171u, 400u}) {
        std::vector<Tok> toks(n, Tok{0, 1, {}, 0, 0});
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t c = 0; c < 6; ++c) {
                const std::uint32_t v = static_cast<std::uint32_t>(i * 37 + c * 11);
                toks[i].attrs[c] = (i + c) % 3 == 0 ? v % 128 : (i + c) % 3 == 1 ? v % 16384 : 16384 + v % (table - 16384);
            }
        auto build = [&](const std::vector<Tok>& ts, TokLayout* l) {
            Ctr c;
            c.add(1, strs);
            c.add(2, text_content(std::string(n, 'x')));
            const std::size_t at = c.add(3, tokens_content(ts, {}, l));
            return std::pair(c.build(), at);
        };
        TokLayout l;
        const Container got = Accept(build(toks, &l).first);
        const TokenSlice t = got.docs[0].tokens;
        ASSERT_EQ(t.size(), n);
        for (std::size_t c = 0; c < 6; ++c)
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(t.attrs[c][i], toks[i].attrs[c]) << n << " tokens, column " << c << ", row " << i;
        for (std::size_t c = 0; c < 6; ++c) {
            std::vector<Tok> bad = toks;
            const std::size_t i = (n - 1) * c / 5;
            bad[i].attrs[c] = table + 1;
            const auto [bytes, at] = build(bad, &l);
            EXPECT_TRUE(Rejects(bytes, "table.index-out-of-range", at + l.attrs[c][i])) << n << " tokens, column " << c;
        }
    }
}

TEST(Tokens, NoTokens) {
    TokDoc d(std::vector<Tok>{});
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].tokens.size(), 0u);
    // count 0, no sentence bytes, mode 0
    EXPECT_EQ(d.l.end, 2u);
    EXPECT_TRUE(SameBytes(Encode(c), d.bytes()));
}

// ---- R17 ---------------------------------------------------------------------------------

TEST(Tokens, R17_CountAboveTheMaximum) {
    TokDoc d(TokDoc::Raw{}, B{}.varint(33'554'433).raw(std::string(64, '\0')));
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.count-too-large", d.tokens_at));
    TokDoc e(TokDoc::Raw{}, B{}.varint(0xFFFFFFFF));
    EXPECT_TRUE(Rejects(e.bytes(), "tokens.count-too-large", e.tokens_at));
}

TEST(Tokens, R17_CountAtTheMaximumIsOnlyBoundByBytes) {
    // 33,554,432 is allowed by R17's first limit; this section is far too short for it.
    TokDoc d(TokDoc::Raw{}, B{}.varint(33'554'432).raw(std::string(64, '\0')));
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.count-exceeds-bytes", d.tokens_at));
}

TEST(Tokens, R17_NineBytesPerToken) {
    // 5 tokens need 45 bytes after the count; give 44.
    TokDoc d(TokDoc::Raw{}, B{}.varint(5).raw(std::string(44, '\0')), "xxxxx");
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.count-exceeds-bytes", d.tokens_at));
}

TEST(Tokens, R17_ExactlyNineBytesPerTokenPassesTheCountCheck) {
    // One token with gap, length, six attributes and a head is exactly 9 bytes; the sentence
    // byte that should follow is missing, so the fault is found later, at the section's end.
    B raw;
    raw.varint(1).varint(0).varint(1);
    for (int i = 0; i < 6; ++i) raw.varint(0);
    raw.svarint(0);
    TokDoc d(TokDoc::Raw{}, raw, "x");
    EXPECT_TRUE(Rejects(d.bytes(), "field.truncated", d.tokens_at + raw.size()));
}

// ---- R18 ---------------------------------------------------------------------------------

TEST(Tokens, R18_EmptyTokenRejected) {
    std::vector<Tok> toks = hello_tokens();
    toks[1].len = 0;
    TokDoc d(toks);
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.empty", d.tokens_at + d.l.len[1]));
    toks = hello_tokens();
    toks[0].len = 0;
    TokDoc e(toks);
    EXPECT_TRUE(Rejects(e.bytes(), "tokens.empty", e.tokens_at + e.l.len[0]));
}

TEST(Tokens, R18_TokenEndingAtTheTextEndIsValid) {
    TokDoc d({{0, 11}});
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].tokens.length[0], 11u);
}

TEST(Tokens, R18_TokenPastTheTextEndRejectedAtItsGap) {
    std::vector<Tok> toks = hello_tokens();
    toks[1].len = 6;  // 6..12 in an 11-unit text
    TokDoc d(toks);
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.out-of-text", d.tokens_at + d.l.gap[1]));
    toks = hello_tokens();
    toks[1].gap = 6;  // starts at the text's end
    TokDoc e(toks);
    EXPECT_TRUE(Rejects(e.bytes(), "tokens.out-of-text", e.tokens_at + e.l.gap[1]));
    TokDoc f({{0, 1}}, {}, "");  // any token in an empty text
    EXPECT_TRUE(Rejects(f.bytes(), "tokens.out-of-text", f.tokens_at + f.l.gap[0]));
}

TEST(Tokens, R18_StartArithmeticDoesNotWrap) {
    // previous end 5 + gap 0xFFFFFFFF is past 2^32: out of the text, never wrapped to 4.
    std::vector<Tok> toks = {{0, 5}, {0xFFFFFFFFu, 1}};
    TokDoc d(toks);
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.out-of-text", d.tokens_at + d.l.gap[1]));
    std::vector<Tok> lens = {{0, 5}, {0, 0xFFFFFFFFu}};
    TokDoc e(lens);
    EXPECT_TRUE(Rejects(e.bytes(), "tokens.out-of-text", e.tokens_at + e.l.gap[1]));
}

TEST(Tokens, R18_GapsAreFromThePreviousEnd) {
    TokDoc d({{2, 2}, {0, 1}, {3, 2}}, {}, "  ab c   de");
    Container c = Accept(d.bytes());
    EXPECT_EQ(std::vector(c.docs[0].tokens.start.begin(), c.docs[0].tokens.start.end()),
              (std::vector<std::uint32_t>{2, 4, 8}));
    EXPECT_EQ(std::vector(c.docs[0].tokens.length.begin(), c.docs[0].tokens.length.end()),
              (std::vector<std::uint32_t>{2, 1, 2}));
}

// ---- R19 ---------------------------------------------------------------------------------

TEST(Tokens, R19_HeadOnePastEndRejected) {
    std::vector<Tok> toks = hello_tokens();
    toks[1].head_delta = 1;  // token 1's head would be token 2 of 2
    TokDoc d(toks);
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.head-out-of-range", d.tokens_at + d.l.head[1]));
}

TEST(Tokens, R19_HeadBeforeFirstTokenRejected) {
    std::vector<Tok> toks = hello_tokens();
    toks[0].head_delta = -1;
    TokDoc d(toks);
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.head-out-of-range", d.tokens_at + d.l.head[0]));
}

TEST(Tokens, R19_ExtremeDeltasRejected) {
    for (std::int32_t delta : {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()}) {
        std::vector<Tok> toks = hello_tokens();
        toks[1].head_delta = delta;
        TokDoc d(toks);
        EXPECT_TRUE(Rejects(d.bytes(), "tokens.head-out-of-range", d.tokens_at + d.l.head[1])) << delta;
    }
}

TEST(Tokens, R19_CyclesAndMultipleRootsAreValid) {
    // Token 0 -> 1, 1 -> 0 (a cycle), 2 and 3 are roots.
    std::vector<Tok> toks = {{0, 1, {}, 1}, {0, 1, {}, -1}, {0, 1, {}, 0}, {0, 1, {}, 0}};
    TokDoc d(toks, {}, "abcd");
    Container c = Accept(d.bytes());
    EXPECT_EQ(std::vector(c.docs[0].tokens.head.begin(), c.docs[0].tokens.head.end()),
              (std::vector<std::int32_t>{1, 0, 2, 3}));
    EXPECT_TRUE(SameBytes(Encode(c), d.bytes()));
}

TEST(Tokens, R2_HeadDeltasAreZigZag) {
    // Deltas +3 and -3 among 4 tokens: zig-zag 6 and 5.
    std::vector<Tok> toks = {{0, 1, {}, 3}, {0, 1, {}, 0}, {0, 1, {}, 0}, {0, 1, {}, -3}};
    TokDoc d(toks, {}, "abcd");
    EXPECT_EQ(d.c.build()[d.tokens_at + d.l.head[0]], 6);
    EXPECT_EQ(d.c.build()[d.tokens_at + d.l.head[3]], 5);
    Container c = Accept(d.bytes());
    EXPECT_EQ(std::vector(c.docs[0].tokens.head.begin(), c.docs[0].tokens.head.end()),
              (std::vector<std::int32_t>{3, 1, 2, 0}));
}

// ---- R20 ---------------------------------------------------------------------------------

TEST(Tokens, R20_SentenceBitsLowFirst) {
    std::vector<Tok> toks = n_tokens(6);
    const std::uint8_t values[] = {1, 2, 0, 2, 1, 0};
    for (std::size_t i = 0; i < 6; ++i) toks[i].sent = values[i];
    TokDoc d(toks, {}, "xxxxxx");
    const auto bytes = d.bytes();
    // Token 0 in bits 0-1: 0b10'00'10'01 = 0x89, then 0b01.
    EXPECT_EQ(bytes[d.tokens_at + d.l.sent], 0x89);
    EXPECT_EQ(bytes[d.tokens_at + d.l.sent + 1], 0x01);
    Container c = Accept(bytes);
    const auto& s = c.docs[0].tokens.sent;
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(static_cast<int>(s[i]), values[i]) << i;
    // Whole bytes of marks are widened by a table, the last marks one by one: every value at
    // every place of a byte.
    for (std::size_t shift = 0; shift < 3; ++shift) {
        std::vector<Tok> many = n_tokens(13);
        for (std::size_t i = 0; i < many.size(); ++i) many[i].sent = static_cast<std::uint8_t>((i + shift) % 3);
        TokDoc m(many, {}, "xxxxxxxxxxxxx");
        const Container got = Accept(m.bytes());
        for (std::size_t i = 0; i < many.size(); ++i)
            EXPECT_EQ(static_cast<std::size_t>(got.docs[0].tokens.sent[i]), (i + shift) % 3) << shift << " " << i;
    }
}

TEST(Tokens, R20_ValueThreeRejectedAtItsByte) {
    std::vector<Tok> toks = n_tokens(6);
    toks[5].sent = 3;
    TokDoc d(toks, {}, "xxxxxx");
    EXPECT_TRUE(Rejects(d.bytes(), "tokens.bad-sentence-value", d.tokens_at + d.l.sent + 1));
    toks = n_tokens(6);
    toks[2].sent = 3;
    TokDoc e(toks, {}, "xxxxxx");
    EXPECT_TRUE(Rejects(e.bytes(), "tokens.bad-sentence-value", e.tokens_at + e.l.sent));
}

TEST(Tokens, R20_NonZeroPaddingRejected) {
    for (std::uint32_t pad : {0x04u, 0x40u, 0xFCu}) {
        TokDoc d(n_tokens(5), {}, "xxxxx");  // the second byte holds 1 value and 6 bits of padding
        auto bytes = d.bytes();
        bytes[d.tokens_at + d.l.sent + 1] = static_cast<std::uint8_t>(pad);
        EXPECT_TRUE(Rejects(bytes, "tokens.sentence-padding", d.tokens_at + d.l.sent + 1)) << pad;
    }
    TokDoc d(hello_tokens());
    auto bytes = d.bytes();
    bytes[d.tokens_at + d.l.sent] |= 0x30;  // token 2's slot, of 2 tokens
    EXPECT_TRUE(Rejects(bytes, "tokens.sentence-padding", d.tokens_at + d.l.sent));
}

TEST(Tokens, R20_PaddingValueThreeIsPaddingNotAValue) {
    // Bits past the last token are padding even when they read as 3.
    TokDoc d(n_tokens(1), {}, "x");
    auto bytes = d.bytes();
    bytes[d.tokens_at + d.l.sent] = 0xC0;
    EXPECT_TRUE(Rejects(bytes, "tokens.sentence-padding", d.tokens_at + d.l.sent));
}

TEST(Tokens, R20_FullLastByteHasNoPadding) {
    std::vector<Tok> toks = n_tokens(4);
    for (auto& t : toks) t.sent = 2;
    TokDoc d(toks, {}, "xxxx");
    EXPECT_EQ(d.bytes()[d.tokens_at + d.l.sent], 0xAA);
    EXPECT_EQ(d.l.mode, d.l.sent + 1);
    Accept(d.bytes());
}

// ---- R21 and R3 --------------------------------------------------------------------------

TEST(Tokens, R21_BadConfidenceMode) {
    for (std::uint32_t mode : {2u, 0x80u, 0xFFu}) {
        TokDoc d(hello_tokens());
        auto bytes = d.bytes();
        bytes[d.tokens_at + d.l.mode] = static_cast<std::uint8_t>(mode);
        EXPECT_TRUE(Rejects(bytes, "tokens.bad-confidence-mode", d.tokens_at + d.l.mode)) << mode;
    }
}

TEST(Tokens, R21_ModeZeroMeansAllOne) {
    Container c = Accept(TokDoc(hello_tokens()).bytes());
    for (float f : c.docs[0].tokens.conf) EXPECT_EQ(float_bits(f), 0x3F800000u);
}

TEST(Tokens, R21_ModeOneAllOneIsNonCanonical) {
    TokDoc d(hello_tokens(), std::vector<float>{1.0f, 1.0f});
    Container c = Accept(d.bytes());
    EXPECT_EQ(std::vector(c.docs[0].tokens.conf.begin(), c.docs[0].tokens.conf.end()),
              (std::vector<float>{1.0f, 1.0f}));
    EXPECT_TRUE(SameBytes(Encode(c), HelloOndc().c.build()));
}

TEST(Tokens, R21_ModeOneWithNoTokensIsNonCanonical) {
    TokDoc d(std::vector<Tok>{}, std::vector<float>{});
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].tokens.size(), 0u);
    EXPECT_TRUE(SameBytes(Encode(c), TokDoc(std::vector<Tok>{}).bytes()));
}

TEST(Tokens, R21_ModeOneFloatsMissing) {
    TokDoc d(hello_tokens(), std::vector<float>{0.5f});  // one float for two tokens
    EXPECT_TRUE(Rejects(d.bytes(), "field.truncated", d.tokens_at + d.l.conf[0]));
}

TEST(Tokens, R3_ConfidenceOutOfRangeAtItsFloat) {
    const float bad[] = {std::nanf(""), -std::nanf(""), -0.1f, 1.0000001f, std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::denorm_min()};
    for (float f : bad) {
        TokDoc d(hello_tokens(), std::vector<float>{0.5f, f});
        EXPECT_TRUE(Rejects(d.bytes(), "tokens.confidence-out-of-range", d.tokens_at + d.l.conf[1])) << float_bits(f);
    }
}

TEST(Tokens, R3_BoundsNegativeZeroAndSubnormalsAreValid) {
    const float good[] = {0.0f, -0.0f, 1.0f, std::numeric_limits<float>::denorm_min(), 0.99999994f};
    for (float f : good) {
        TokDoc d(hello_tokens(), std::vector<float>{f, 0.5f});
        const auto bytes = d.bytes();
        Container c = Accept(bytes);
        EXPECT_EQ(float_bits(c.docs[0].tokens.conf[0]), float_bits(f));
        EXPECT_TRUE(SameBytes(Encode(c), bytes)) << float_bits(f);  // bits survive the round trip
    }
}

TEST(Tokens, R8_TrailingBytesAfterTheConfidences) {
    B raw = tokens_content(hello_tokens(), std::vector<float>{0.5f, 0.5f});
    const std::size_t end = raw.size();
    raw.u8(0);
    TokDoc d(TokDoc::Raw{}, raw);
    EXPECT_TRUE(Rejects(d.bytes(), "section.trailing-bytes", d.tokens_at + end));
}

TEST(Tokens, R8_SectionCutBeforeTheModeByte) {
    B full = tokens_content(hello_tokens());
    B cut;
    for (std::size_t i = 0; i + 1 < full.size(); ++i) cut.u8(full.vec()[i]);
    TokDoc d(TokDoc::Raw{}, cut);
    EXPECT_TRUE(Rejects(d.bytes(), "field.truncated", d.tokens_at + cut.size()));
}

TEST(Tokens, R1_TruncatedVarintInsideTheSection) {
    // The last head's varint is cut by the section's end (its continuation byte is last).
    std::vector<Tok> toks = n_tokens(1);
    B raw;
    raw.varint(1).varint(0).varint(1);
    for (int i = 0; i < 6; ++i) raw.varint(0);
    const std::size_t head = raw.size();
    raw.u8(0x80).u8(0x80);  // 2-byte prefix, continuation set
    // pad the count check (9 bytes) is met; then the head runs into the section end
    TokDoc d(TokDoc::Raw{}, raw, "x");
    EXPECT_TRUE(Rejects(d.bytes(), "varint.truncated", d.tokens_at + head));
}

}  // namespace
}  // namespace ond

namespace ond {
namespace {

using namespace ond::test;

TEST(Tokens, R1_VarintFaultsInsideASection) {
    // The token count as a 5-byte varint with a 5th byte above 0x0F, and with its continuation
    // bit set: both found at the varint's first byte, the section's first byte.
    for (auto [fifth, code] : {std::pair<std::uint8_t, const char*>{0x10, "varint.overflow"},
                               std::pair<std::uint8_t, const char*>{0x81, "varint.too-long"}}) {
        Ctr c;
        c.add(1, strings_content({}));
        c.add(2, text_content("Hello world"));
        const std::size_t at = c.add(3, B{0xFF, 0xFF, 0xFF, 0xFF}.u8(fifth).raw(std::string(20, '\0')));
        EXPECT_TRUE(Rejects(c.build(), code, at)) << code;
    }
}

TEST(Tokens, R1_OverlongVarintsAreNonCanonical) {
    // Count 2 as 82 00 and token 0's length 5 as 85 80 00: accepted, re-encoded minimally.
    B raw;
    raw.raw({0x82, 0x00}).varint(0).raw({0x85, 0x80, 0x00}).varint(1).varint(5);
    for (int i = 0; i < 12; ++i) raw.varint(0);
    raw.svarint(0).svarint(-1).u8(0x09).u8(0);
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content("Hello world"));
    c.add(3, raw);
    Container got = Accept(c.build());
    EXPECT_EQ(std::vector(got.docs[0].tokens.length.begin(), got.docs[0].tokens.length.end()),
              (std::vector<std::uint32_t>{5, 5}));
    EXPECT_TRUE(SameBytes(Encode(got), HelloOndc().c.build()));
}

}  // namespace
}  // namespace ond
