// ONDB bins: section 5 and its records (R9-R11 for records, R13 against the shared table).
#include <gtest/gtest.h>

#include "ond/internal/check_switch.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// A record body: text and tokens (and optionally entities).
B record_body(std::string_view text, const std::vector<Tok>& toks, const std::vector<Ent>* ents = nullptr) {
    B r;
    r.section(2, text_content(text));
    r.section(3, tokens_content(toks));
    if (ents) r.section(4, entities_content(*ents));
    return r;
}

// Section 5 content from record bodies.
struct Records {
    B content;
    std::vector<std::size_t> rec;  // offset of each record's u32 length within the content
    explicit Records(const std::vector<B>& bodies, std::optional<std::uint32_t> count = {}) {
        content.u32(count ? *count : static_cast<std::uint32_t>(bodies.size()));
        for (const auto& b : bodies) {
            rec.push_back(content.size());
            content.u32(static_cast<std::uint32_t>(b.size())).append(b);
        }
    }
};

struct Bin {
    Ctr c{"ONDB"};
    std::size_t s5 = 0;  // absolute offset of section 5's content
    Bin(std::initializer_list<std::string_view> strs, const B& s5_content) {
        c.add(1, strings_content(strs));
        s5 = c.add(5, s5_content);
    }
    std::vector<std::uint8_t> bytes(bool crc = false) const { return c.build(crc); }
};

std::vector<Ent> one_ent() { return {{0, 1, 1, 0.5f}}; }

TEST(Records, DecodesEveryRecordAgainstTheSharedTable) {
    const auto ents = one_ent();
    Records r({record_body("Hello world", hello_tokens(), &ents), record_body("Hi", {{0, 2}}), record_body("", {})});
    Bin b({"PER"}, r.content);
    Container c = Accept(b.bytes());
    EXPECT_EQ(c.format, Format::ondb);
    ASSERT_EQ(c.docs.size(), 3u);
    EXPECT_EQ(c.docs[0].text, "Hello world");
    EXPECT_TRUE(c.docs[0].has_ents);
    EXPECT_EQ(c.strings.view(c.docs[0].ents[0].label), "PER");
    EXPECT_EQ(c.docs[1].text, "Hi");
    EXPECT_FALSE(c.docs[1].has_ents);
    EXPECT_EQ(std::vector(c.docs[1].tokens.length.begin(), c.docs[1].tokens.length.end()),
              (std::vector<std::uint32_t>{2}));
    EXPECT_EQ(c.docs[2].tokens.size(), 0u);
    for (const DocSlice d : c.docs) {
        EXPECT_FALSE(d.has_cats);
        EXPECT_TRUE(d.spans.empty());
    }
    Summary s = validate(view(b.bytes()));
    EXPECT_EQ(s.docs, 3u);
    EXPECT_EQ(s.tokens, 3u);
    EXPECT_EQ(s.strings, 1u);
    EXPECT_TRUE(SameBytes(Encode(c), b.bytes()));
    EXPECT_TRUE(SameBytes(Encode(Accept(b.bytes(true))), b.bytes(true)));
}

TEST(Records, R11_CountAboveSectionBytes) {
    // Two records need at least 8 bytes after the count; 7 are there.
    Bin b({}, B{}.u32(2).raw(std::string(7, '\0')));
    EXPECT_TRUE(Rejects(b.bytes(), "bin.count-exceeds-bytes", b.s5));
    Bin big({}, B{}.u32(0xFFFFFFFF).u32(0));
    EXPECT_TRUE(Rejects(big.bytes(), "bin.count-exceeds-bytes", big.s5));
}

TEST(Records, R11_CountFieldTruncated) {
    Bin b({}, B{}.raw({0, 0}));
    EXPECT_TRUE(Rejects(b.bytes(), "field.truncated", b.s5));
}

TEST(Records, R11_RecordLengthPastTheSection) {
    Records r({record_body("Hi", {{0, 2}}), record_body("Yo", {{0, 2}})});
    // The second record claims one byte more than section 5 holds.
    const std::size_t len_at = r.rec[1];
    const std::uint32_t real = static_cast<std::uint32_t>(r.content.size() - len_at - 4);
    B patched = r.content;
    patched[len_at] = static_cast<std::uint8_t>(real + 1);
    Bin b({}, patched);
    EXPECT_TRUE(Rejects(b.bytes(), "bin.record-length-out-of-range", b.s5 + len_at));
}

TEST(Records, R11_RecordsMustFillTheSection) {
    Records r({record_body("Hi", {{0, 2}})});
    B content = r.content;
    const std::size_t end = content.size();
    content.raw({0, 0, 0});
    Bin b({}, content);
    EXPECT_TRUE(Rejects(b.bytes(), "bin.trailing-bytes", b.s5 + end));
    // Count 0 with a record's bytes present.
    Records k({record_body("Hi", {{0, 2}})}, 0u);
    Bin z({}, k.content);
    EXPECT_TRUE(Rejects(z.bytes(), "bin.trailing-bytes", z.s5 + 4));
}

TEST(Records, R11_SectionShorterThanTheBodyIsSectionAfterRecords) {
    // Bytes after section 5 inside the body (here too few for a section frame).
    Ctr c("ONDB");
    c.add(1, strings_content({}));
    c.add(5, B{}.u32(0));
    const std::size_t after = c.add_raw(B{}.raw({0, 0}));
    EXPECT_TRUE(Rejects(c.build(), "bin.section-after-records", after));
}

TEST(Records, R10_RecordMissingText) {
    B body;
    const std::size_t three = body.size();
    body.section(3, tokens_content({}));
    Records r({body});
    Bin b({}, r.content);
    EXPECT_TRUE(Rejects(b.bytes(), "section.missing", b.s5 + r.rec[0] + 4 + three));
}

TEST(Records, R10_RecordMissingTokens) {
    B body;
    body.section(2, text_content("Hi"));
    Records r({body, record_body("Yo", {{0, 2}})});
    Bin b({}, r.content);
    // At the end of the first record's body (no later section passes id 3).
    EXPECT_TRUE(Rejects(b.bytes(), "section.missing", b.s5 + r.rec[1]));
    B with4;
    with4.section(2, text_content("Hi"));
    const std::size_t four = with4.size();
    with4.section(4, entities_content({}));
    Records k({with4});
    Bin b4({}, k.content);
    EXPECT_TRUE(Rejects(b4.bytes(), "section.missing", b4.s5 + k.rec[0] + 4 + four));
}

TEST(Records, R10_EmptyRecord) {
    Records r({B{}});
    Bin b({}, r.content);
    EXPECT_TRUE(Rejects(b.bytes(), "section.missing", b.s5 + 8));
}

TEST(Records, R9_UnknownSectionInsideARecordIsSkipped) {
    B body = record_body("Hi", {{0, 2}});
    body.section(8, B{}.raw("junk"));
    body.section(0xFF, B{});
    Records r({body});
    Bin b({}, r.content);
    Container c = Accept(b.bytes());
    ASSERT_EQ(c.docs.size(), 1u);
    EXPECT_EQ(c.docs[0].text, "Hi");
    Bin canon({}, Records({record_body("Hi", {{0, 2}})}).content);
    EXPECT_TRUE(SameBytes(Encode(c), canon.bytes()));
}

TEST(Records, R9_CategoriesInARecordRelaxedAreSkippedOrRead) {
    // Section 6 in a record: the reference refuses it; relaxed, it is skipped, or (R9's other
    // reading) read as the record's categories.
    B body = record_body("Hi", {{0, 2}});
    body.section(6, categories_content({{1, 0.25f}}));
    Records r({body});
    Bin b({"topic"}, r.content);
    const auto refused = catch_error([&] { (void)decode(view(b.bytes())); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code, "section.misplaced");
    {
        detail::RelaxedChecks skip{Errc::section_misplaced};
        Container c = Accept(b.bytes());
        EXPECT_FALSE(c.docs[0].has_cats);
        EXPECT_TRUE(c.docs[0].cats.empty());
    }
    detail::RelaxedChecks read{{Errc::section_misplaced}, true};
    Container c = Accept(b.bytes());
    ASSERT_TRUE(c.docs[0].has_cats);
    ASSERT_EQ(c.docs[0].cats.size(), 1u);
    EXPECT_EQ(c.strings.view(c.docs[0].cats[0].label), "topic");
    EXPECT_EQ(c.docs[0].cats[0].score, 0.25f);
}

TEST(Records, R9_ReadingRecordExtrasNeedsTheCheckRelaxed) {
    B body = record_body("Hi", {{0, 2}});
    body.section(7, span_groups_content({{1, {}}}));
    Records r({body});
    Bin b({"g"}, r.content);
    detail::RelaxedChecks extras_only{std::vector<Errc>{}, true};
    const auto refused = catch_error([&] { (void)decode(view(b.bytes())); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code, "section.misplaced");
    detail::RelaxedChecks read{{Errc::section_misplaced}, true};
    Container c = Accept(b.bytes());
    ASSERT_EQ(c.docs[0].spans.size(), 1u);
    EXPECT_EQ(c.strings.view(c.docs[0].spans[0].name), "g");
}

TEST(Records, R8_SectionLengthPastTheRecordEnd) {
    // Section 3's length fits in section 5 but not in its record.
    B body;
    body.section(2, text_content("Hi"));
    const std::size_t three = body.size();
    body.u8(3).u32(100).append(tokens_content({{0, 2}}));
    Records r({body, record_body("Yo", {{0, 2}})});
    // Make the record length cover only what it has; section 3 claims 100 bytes.
    Bin b({}, r.content);
    EXPECT_TRUE(Rejects(b.bytes(), "section.length-out-of-range", b.s5 + r.rec[0] + 4 + three + 1));
}

TEST(Records, R8_OrderIsPerRecord) {
    // Each record starts its own id sequence.
    Records r({record_body("Hi", {{0, 2}}), record_body("Yo", {{0, 2}})});
    Bin b({}, r.content);
    EXPECT_EQ(Accept(b.bytes()).docs.size(), 2u);
    B body = record_body("Hi", {{0, 2}});
    const std::size_t again = body.size();
    body.section(3, tokens_content({{0, 2}}));
    Records k({body});
    Bin bad({}, k.content);
    EXPECT_TRUE(Rejects(bad.bytes(), "section.out-of-order", bad.s5 + k.rec[0] + 4 + again));
}

TEST(Records, R13_IndexCheckedAgainstTheSharedTable) {
    const std::vector<Ent> ents = {{0, 1, 2, 1.0f}};
    B body = record_body("Hi", {{0, 2}}, &ents);
    Records r({body});
    Bin b({"PER"}, r.content);
    // record: u32, section 2 (5 + 3), section 3 (5 + content), section 4 frame, count, gap, len
    const std::size_t s4_content = r.rec[0] + 4 + body.size() - entities_content(ents).size();
    EXPECT_TRUE(Rejects(b.bytes(), "table.index-out-of-range", b.s5 + s4_content + 3));
}

TEST(Records, R6_TruncatedInsideARecordIsContainerTruncated) {
    Bin b({}, Records({record_body("Hello world", hello_tokens())}).content);
    auto bytes = b.bytes(true);
    bytes.resize(bytes.size() - 9);
    EXPECT_TRUE(Rejects(bytes, "container.truncated", bytes.size()));
}

TEST(Records, R7_CrcCheckedAfterTheLastRecord) {
    Bin b({}, Records({record_body("Hi", {{0, 2}}), record_body("Yo", {{0, 2}})}).content);
    auto bytes = b.bytes(true);
    bytes.back() ^= 0xFF;
    EXPECT_TRUE(Rejects(bytes, "crc.mismatch", bytes.size() - 4));
}

}  // namespace
}  // namespace ond
