// 4. The writer's size limits, reached through the size computation itself (no gigabyte strings).
#include <gtest/gtest.h>

#include "ond/ond.hpp"
#include "ond/internal/limits.hpp"

namespace {

using namespace ond::detail;

constexpr std::uint64_t gib = std::uint64_t{1} << 30;

TEST(WriterLimits, AStringIsMeasuredInTheFormItIsWrittenIn) {
    // 2^30 ASCII units and one lone surrogate: 2^30 + 3 bytes of WTF-8, 2^30 + 1 UTF-16 units,
    // written as UTF-16 (W1): 2^31 + 2 bytes, past what a string's length field holds.
    EXPECT_EQ(written_string_bytes(gib + 3, gib + 1, true), 2 * gib + 2);
    EXPECT_GT(written_string_bytes(gib + 3, gib + 1, true), max_string_bytes);
    // The same string without the surrogate is written as its UTF-8 and fits.
    EXPECT_EQ(written_string_bytes(gib, gib, false), gib);
    EXPECT_LE(written_string_bytes(gib, gib, false), max_string_bytes);
    // The largest that fits, each way.
    EXPECT_EQ(written_string_bytes(max_string_bytes, max_string_bytes, false), max_string_bytes);
    EXPECT_LE(written_string_bytes(3 * (gib - 1), gib - 1, true), max_string_bytes);
    EXPECT_GT(written_string_bytes(3 * gib, gib, true), max_string_bytes);
}

TEST(WriterLimits, TheTextSectionCountsItsEncodingByte) {
    EXPECT_EQ(text_section_bytes(max_section_bytes - 1), max_section_bytes);
    EXPECT_GT(text_section_bytes(max_section_bytes), max_section_bytes);
    // 2^31 ASCII units plus a lone surrogate fit a section as UTF-8 but not as the UTF-16 written.
    EXPECT_LE(text_section_bytes(2 * gib + 3), max_section_bytes);
    EXPECT_GT(text_section_bytes(written_string_bytes(2 * gib + 3, 2 * gib + 1, true)), max_section_bytes);
}

TEST(WriterLimits, ARefusalNamesTheField) {
    // A string id outside the store: the container refuses it where it is given, and the
    // writer (for a store replaced under its documents) names the field.
    ond::Container c;
    ond::Doc d;
    d.set_text("ab");
    d.tokens.resize(1);
    d.tokens.length[0] = 1;
    d.tokens.attrs[2][0] = 7;
    try {
        c.docs.push_back(d);
        FAIL() << "added";
    } catch (const ond::Error& e) {
        EXPECT_EQ(std::string(e.code()), "content.bad-string-id");
        EXPECT_EQ(e.path(), "tokens[0].pos");
    }
    for (int i = 0; i < 7; ++i) c.strings.append("s" + std::to_string(i));
    c.docs.push_back(d);
    c.strings = ond::StringStore();
    try {
        (void)ond::encode(c);
        FAIL() << "encoded";
    } catch (const ond::Error& e) {
        EXPECT_EQ(std::string(e.code()), "content.bad-string-id");
        EXPECT_EQ(e.path(), "doc.tokens[0].pos");
    }
}

}  // namespace
