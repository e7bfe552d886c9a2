// The 12-byte header and the container's size and trailer (R6, R7).
#include <gtest/gtest.h>

#include <set>

#include "ond/internal/sections.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

std::vector<std::uint8_t> hello(bool crc = false) { return HelloOndc().c.build(crc); }

TEST(Header, ValidOndcWithAndWithoutTrailer) {
    Container c = Accept(hello());
    EXPECT_EQ(c.format, Format::ondc);
    EXPECT_FALSE(c.crc);
    ASSERT_EQ(c.docs.size(), 1u);
    EXPECT_EQ(c.docs[0].text, "Hello world");

    Container k = Accept(hello(true));
    EXPECT_TRUE(k.crc);
    EXPECT_TRUE(same_doc(c.docs[0], c.strings, k.docs[0], k.strings));

    Summary s = validate(view(hello(true)));
    EXPECT_EQ(s.format, Format::ondc);
    EXPECT_TRUE(s.crc);
    EXPECT_EQ(s.docs, 1u);
    EXPECT_EQ(s.tokens, 2u);
    EXPECT_EQ(s.strings, 0u);
}

TEST(Header, R6_TruncatedHeader) {
    const auto full = hello();
    for (std::size_t n : {0u, 1u, 4u, 11u}) {
        std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_TRUE(Rejects(cut, "header.truncated", n)) << n << " bytes";
    }
}

TEST(Header, R6_BadMagic) {
    for (const char* magic : {"ONDD", "ondc", "OND\0", "DCNO", "ONDX"}) {
        HelloOndc h;
        auto bytes = h.c.build();
        std::memcpy(bytes.data(), magic, 4);
        EXPECT_TRUE(Rejects(bytes, "header.bad-magic", 0)) << magic;
    }
}

TEST(Header, R6_BadVersion) {
    for (std::uint32_t v : {0, 2, 0x0100, 0xFFFF}) {
        EXPECT_TRUE(Rejects(HelloOndc().c.build(false, {}, v), "header.bad-version", 4)) << v;
    }
}

TEST(Header, R6_BadFlags) {
    for (std::uint32_t f : {2, 3, 0x8000, 0x0101, 0xFFFF}) {
        EXPECT_TRUE(Rejects(HelloOndc().c.build(false, {}, 1, f), "header.bad-flags", 6)) << f;
    }
}

TEST(Header, R6_FlagSetButNoTrailerIsTruncated) {
    // Flag bit 0 promises 4 more bytes than the buffer has.
    auto bytes = HelloOndc().c.build(false, {}, 1, 1u);
    EXPECT_TRUE(Rejects(bytes, "container.truncated", bytes.size()));
}

TEST(Header, R6_TrailerWithoutFlagIsTrailingBytes) {
    auto with = hello(true);
    with[6] = 0;  // clear the flag: the 4 CRC bytes are now extra
    EXPECT_TRUE(Rejects(with, "container.trailing-bytes", with.size() - 4));
}

TEST(Header, R6_BodyShorterThanDeclared) {
    HelloOndc h;
    auto bytes = h.c.build();
    auto longer = h.c.build(false, static_cast<std::uint32_t>(bytes.size() - kHeader + 1));
    EXPECT_TRUE(Rejects(longer, "container.truncated", longer.size()));
    // Every cut inside the body, with the declared length kept.
    for (std::size_t n = kHeader; n < bytes.size(); ++n) {
        std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_TRUE(Rejects(cut, "container.truncated", n)) << n;
    }
    auto crc = hello(true);
    crc.pop_back();
    EXPECT_TRUE(Rejects(crc, "container.truncated", crc.size()));
}

TEST(Header, R26_BufferReaderHasNoGibCapButStillNeedsTheBytes) {
    // 2 GiB declared in a small buffer: the buffer bounds it (container.truncated, not a stream code).
    auto bytes = HelloOndc().c.build(false, 0x80000000u);
    EXPECT_TRUE(Rejects(bytes, "container.truncated", bytes.size()));
}

TEST(Header, R6_BytesAfterTheEnd) {
    auto bytes = hello();
    const std::size_t end = bytes.size();
    bytes.push_back(0);
    EXPECT_TRUE(Rejects(bytes, "container.trailing-bytes", end));
    auto crc = hello(true);
    const std::size_t crc_end = crc.size();
    crc.insert(crc.end(), {'O', 'N', 'D', 'C'});
    EXPECT_TRUE(Rejects(crc, "container.trailing-bytes", crc_end));
    // A body length shorter than the sections: the rest is "after the end".
    HelloOndc h;
    auto full = h.c.build();
    auto shorter = h.c.build(false, static_cast<std::uint32_t>(full.size() - kHeader - 1));
    EXPECT_TRUE(Rejects(shorter, "container.trailing-bytes", full.size() - 1));
}

TEST(Header, R7_CrcOfEverythingBeforeTheTrailer) {
    // The builder's reference CRC and the codec's agree with the standard check value.
    const char* check = "123456789";
    EXPECT_EQ(ref_crc32(reinterpret_cast<const std::uint8_t*>(check), 9), 0xCBF43926u);
    EXPECT_EQ(detail::crc32(reinterpret_cast<const std::uint8_t*>(check), 9), 0xCBF43926u);
    // Incremental use continues a running CRC.
    const auto* p = reinterpret_cast<const std::uint8_t*>(check);
    EXPECT_EQ(detail::crc32(p + 4, 5, detail::crc32(p, 4)), 0xCBF43926u);
    EXPECT_EQ(detail::crc32(p, 0), 0u);
}

TEST(Header, R7_MismatchAtTrailerOffset) {
    auto bytes = hello(true);
    const std::size_t trailer = bytes.size() - 4;
    for (std::size_t k = 0; k < 4; ++k) {
        auto bad = bytes;
        bad[trailer + k] ^= 0x01;
        EXPECT_TRUE(Rejects(bad, "crc.mismatch", trailer)) << "trailer byte " << k;
    }
}

TEST(Header, R7_CrcCoversHeaderAndBody) {
    // A change that leaves the container otherwise valid: the content of an unknown section.
    HelloOndc h;
    const std::size_t unknown = h.c.add(9, B{}.raw("abc"));
    auto bytes = h.c.build(true);
    Accept(bytes);
    auto bad = bytes;
    bad[unknown + 1] = 'x';
    EXPECT_TRUE(Rejects(bad, "crc.mismatch", bytes.size() - 4));
    // A change in the text (still valid UTF-8, same length).
    auto bad_text = bytes;
    bad_text[h.text_at + 1] = 'J';
    EXPECT_TRUE(Rejects(bad_text, "crc.mismatch", bytes.size() - 4));
}

TEST(Header, R7_ContentErrorsComeBeforeTheCrc) {
    // A fault in the body is reported as itself even when the CRC (now stale) would also fail.
    HelloOndc h;
    auto bytes = h.c.build(true);
    bytes[h.text_at] = 7;  // encoding byte
    EXPECT_TRUE(Rejects(bytes, "text.bad-encoding", h.text_at));
}

}  // namespace
}  // namespace ond

namespace ond {
namespace {

TEST(ErrorTable, CodesAreUniqueAndFindable) {
    std::set<std::string_view> codes;
    for (const ErrorInfo& e : error_table()) {
        EXPECT_TRUE(codes.insert(e.code).second) << e.code;
        EXPECT_NE(e.code.find('.'), std::string_view::npos) << e.code;
        EXPECT_FALSE(e.rule.empty()) << e.code;
        EXPECT_EQ(&error_info(e.errc), &e);
        ASSERT_TRUE(find_error(e.code));
        EXPECT_EQ(find_error(e.code)->errc, e.errc);
        // Writer codes are exactly the content.* ones.
        EXPECT_EQ(e.verdict == ErrorVerdict::content, e.code.rfind("content.", 0) == 0) << e.code;
    }
    EXPECT_EQ(find_error("no.such-code"), nullptr);
}

TEST(ErrorTable, ErrorCarriesCodeRuleAndOffset) {
    Error e(Errc::tokens_head_out_of_range, 1037, "token 3 has head 9");
    EXPECT_EQ(e.code(), "tokens.head-out-of-range");
    EXPECT_EQ(e.rule(), "R19");
    EXPECT_EQ(e.verdict(), ErrorVerdict::invalid);
    EXPECT_EQ(e.offset(), 1037u);
    EXPECT_EQ(std::string(e.what()), "invalid at byte 1037: tokens.head-out-of-range (R19): token 3 has head 9");
    Error w(Errc::content_label_empty, no_offset, "", "doc.ents[0].label");
    EXPECT_EQ(w.path(), "doc.ents[0].label");
    EXPECT_NE(std::string(w.what()).find("doc.ents[0].label"), std::string::npos);
    EXPECT_EQ(Error(Errc::tokens_sentence_padding, 0, "").verdict(), ErrorVerdict::implementation_defined);
}

}  // namespace
}  // namespace ond
