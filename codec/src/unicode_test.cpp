// UTF-8 / WTF-8 / UTF-16 helpers (R5, R16: well-formed UTF-8 per RFC 3629; strings as UTF-16
// code units, lone surrogates included).
#include "ond/unicode.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ond::unicode {
namespace {

struct U8Result {
    std::optional<std::uint64_t> units;
    std::size_t err_at = ~std::size_t{0};
};

U8Result utf8(std::initializer_list<unsigned char> bytes) {
    std::vector<unsigned char> v(bytes);
    U8Result r;
    r.units = utf8_utf16_length(v.data(), v.size(), &r.err_at);
    return r;
}

U8Result utf8s(std::string_view s) {
    U8Result r;
    r.units = utf8_utf16_length(reinterpret_cast<const unsigned char*>(s.data()), s.size(), &r.err_at);
    return r;
}

TEST(Utf8, R5_LengthInUtf16CodeUnits) {
    EXPECT_EQ(utf8s("").units, 0u);
    EXPECT_EQ(utf8s("Hello world").units, 11u);
    EXPECT_EQ(utf8s("caf\xC3\xA9").units, 4u);               // U+00E9, 2 bytes, 1 unit
    EXPECT_EQ(utf8s("\xE2\x82\xAC").units, 1u);              // U+20AC, 3 bytes, 1 unit
    EXPECT_EQ(utf8s("\xF0\x9F\x98\x80").units, 2u);          // U+1F600, 4 bytes, a pair
    EXPECT_EQ(utf8s("\xEF\xBB\xBFx").units, 2u);             // a leading U+FEFF is content (R16)
    EXPECT_EQ(utf8s("\xF4\x8F\xBF\xBF").units, 2u);          // U+10FFFF, the last code point
    EXPECT_EQ(utf8s("\xED\x9F\xBF").units, 1u);              // U+D7FF, just below the surrogates
    EXPECT_EQ(utf8s("\xEE\x80\x80").units, 1u);              // U+E000, just above
    // Long ASCII runs (the fast path) mixed with multibyte sequences.
    std::string s(37, 'a');
    s += "\xC3\xA9";
    s += std::string(20, 'b');
    s += "\xF0\x9F\x98\x80";
    EXPECT_EQ(utf8s(s).units, 37u + 1 + 20 + 2);
}

TEST(Utf8, R5_OverlongFormsRejected) {
    auto r = utf8({'a', 0xC0, 0x80});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 1u);
    r = utf8({0xC1, 0xBF});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
    r = utf8({'x', 'y', 0xE0, 0x9F, 0xBF});  // U+07FF in 3 bytes
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 2u);
    r = utf8({0xF0, 0x8F, 0xBF, 0xBF});  // U+FFFF in 4 bytes
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
}

TEST(Utf8, R5_SurrogatesRejected) {
    auto r = utf8({'a', 'b', 'c', 0xED, 0xA0, 0x80});  // U+D800
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 3u);
    r = utf8({0xED, 0xBF, 0xBF});  // U+DFFF
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
    // A pair written as two 3-byte forms (CESU-8) is not UTF-8 either.
    r = utf8({0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
}

TEST(Utf8, R5_AboveU10FFFFRejected) {
    auto r = utf8({0xF4, 0x90, 0x80, 0x80});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
    r = utf8({'z', 0xF5, 0x80, 0x80, 0x80});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 1u);
    r = utf8({0xFF});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
}

TEST(Utf8, R5_TruncatedAndStraySequencesRejected) {
    auto r = utf8({'a', 0xC3});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 1u);
    r = utf8({0xE2, 0x82});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
    r = utf8({0xF0, 0x9F, 0x98, 'a'});
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 0u);
    r = utf8({'a', 'b', 0x80});  // a lone continuation byte
    EXPECT_FALSE(r.units);
    EXPECT_EQ(r.err_at, 2u);
    // A bad byte after a long ASCII run is found at its exact position.
    std::vector<unsigned char> v(19, 'q');
    v.push_back(0xBF);
    std::size_t at = 0;
    EXPECT_FALSE(utf8_utf16_length(v.data(), v.size(), &at));
    EXPECT_EQ(at, 19u);
}

TEST(Utf8, R5_AsciiRunsOfEveryLength) {
    // ASCII runs are checked words at a time, the last 1-7 bytes by a word that overlaps bytes
    // already checked: a stray byte is found at its place for every run length and place, and a
    // 2-byte sequence anywhere counts one unit. Exact-size buffers, so a read past one shows.
    for (std::size_t n = 1; n <= 72; ++n) {
        std::vector<unsigned char> v(n, 'a');
        EXPECT_EQ(utf8_utf16_length(v.data(), n, nullptr), n);
        for (std::size_t k = 0; k < n; ++k) {
            std::vector<unsigned char> w = v;
            w[k] = 0x80;
            std::size_t at = 0;
            EXPECT_FALSE(utf8_utf16_length(w.data(), n, &at)) << n << " " << k;
            EXPECT_EQ(at, k) << n;
            if (k + 1 < n) {
                w[k] = 0xC3;
                w[k + 1] = 0xA9;
                EXPECT_EQ(utf8_utf16_length(w.data(), n, nullptr), n - 1) << n << " " << k;
            }
        }
    }
}

TEST(Wtf8, LoneSurrogatesAllowed) {
    EXPECT_EQ(wtf8_utf16_length("\xED\xA0\x80"), 1u);         // lone high
    EXPECT_EQ(wtf8_utf16_length("a\xED\xB0\x80" "b"), 3u);     // lone low
    EXPECT_EQ(wtf8_utf16_length("\xED\xB0\x80\xED\xA0\x80"), 2u);  // low then high: two lone units
    EXPECT_EQ(wtf8_utf16_length("\xED\xA0\x80x\xED\xB0\x80"), 3u); // high, 'x', low: not a pair
    EXPECT_EQ(wtf8_utf16_length("\xF0\x9F\x98\x80"), 2u);
    EXPECT_EQ(wtf8_utf16_length(""), 0u);
}

TEST(Wtf8, PairAsTwoThreeByteFormsRejected) {
    // High followed by low must be written as one 4-byte sequence, so the encoding stays 1:1.
    EXPECT_FALSE(wtf8_utf16_length("\xED\xA0\xBD\xED\xB8\x80"));
    EXPECT_FALSE(wtf8_utf16_length("\xC0\x80"));
    EXPECT_FALSE(wtf8_utf16_length("\xF4\x90\x80\x80"));
    EXPECT_FALSE(wtf8_utf16_length("\xE2\x82"));
}

TEST(Wtf8, HasSurrogate) {
    EXPECT_FALSE(wtf8_has_surrogate("plain \xF0\x9F\x98\x80 text"));
    EXPECT_FALSE(wtf8_has_surrogate("\xED\x9F\xBF"));
    EXPECT_TRUE(wtf8_has_surrogate("ab\xED\xA0\x80"));
    EXPECT_TRUE(wtf8_has_surrogate("\xED\xBF\xBF"));
}

TEST(Wtf8, FromUtf16) {
    EXPECT_EQ(wtf8_from_utf16(u"Hi"), "Hi");
    EXPECT_EQ(wtf8_from_utf16(u"\u00E9\u20AC"), "\xC3\xA9\xE2\x82\xAC");
    // A valid pair becomes one 4-byte sequence.
    EXPECT_EQ(wtf8_from_utf16(std::u16string{0xD83D, 0xDE00}), "\xF0\x9F\x98\x80");
    // Lone surrogates become their 3-byte forms.
    EXPECT_EQ(wtf8_from_utf16(std::u16string{0xD800}), "\xED\xA0\x80");
    EXPECT_EQ(wtf8_from_utf16(std::u16string{0xDC00, 0xD800}), "\xED\xB0\x80\xED\xA0\x80");
    EXPECT_EQ(wtf8_from_utf16(std::u16string{u'a', 0xD83D}), "a\xED\xA0\xBD");
    EXPECT_EQ(wtf8_from_utf16(std::u16string{0x0000}), std::string(1, '\0'));
}

TEST(Wtf8, FromUtf16LittleEndianBytes) {
    const unsigned char le[] = {0x48, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xDC};
    std::string out = "x";
    append_wtf8_from_utf16le(out, le, 4);
    EXPECT_EQ(out, "xH\xF0\x9F\x98\x80\xED\xB0\x80");
}

TEST(Wtf8, RoundTripThroughUtf16) {
    const std::vector<std::u16string> cases = {
        u"", u"Hello", u"\u00E9t\u00E9", std::u16string{0xD83D, 0xDE00, u'!'}, std::u16string{0xD800},
        std::u16string{0xDFFF, u'x', 0xDBFF}, std::u16string{0xDC00, 0xD800, 0xDC00},
    };
    for (const auto& u : cases) {
        const std::string w = wtf8_from_utf16(u);
        ASSERT_TRUE(wtf8_utf16_length(w));
        EXPECT_EQ(*wtf8_utf16_length(w), u.size());
        EXPECT_EQ(utf16_from_wtf8(w), u);
        std::string le;
        append_utf16le_from_wtf8(le, w);
        ASSERT_EQ(le.size(), u.size() * 2);
        for (std::size_t i = 0; i < u.size(); ++i) {
            EXPECT_EQ(static_cast<unsigned char>(le[2 * i]), u[i] & 0xFF);
            EXPECT_EQ(static_cast<unsigned char>(le[2 * i + 1]), u[i] >> 8);
        }
    }
}

}  // namespace
}  // namespace ond::unicode
