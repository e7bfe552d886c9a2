// Span groups, section 7 (R24, R15, R3).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ond/internal/check_switch.hpp"
#include "alloc_counter.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// "Hello big world" (3 tokens), table: sc, ents, "", X, Y; then section 7 as given. Offsets of
// each group's name and span count and each span's first byte are recorded (1-byte varints).
struct SpanDoc {
    Ctr c;
    std::size_t at = 0;
    std::vector<std::size_t> name, count;
    std::vector<std::vector<std::size_t>> span;
    explicit SpanDoc(const std::vector<Grp>& groups, std::uint32_t ntok = 3) {
        c.add(1, strings_content({"sc", "ents", "", "X", "Y"}));
        c.add(2, text_content("Hello big world"));
        std::vector<Tok> toks = {{0, 5}, {1, 3}, {1, 5}};
        toks.resize(ntok);
        c.add(3, tokens_content(toks));
        B b;
        b.varint(groups.size());
        for (const auto& g : groups) {
            name.push_back(b.size());
            b.varint(g.name);
            count.push_back(b.size());
            b.varint(g.spans.size());
            span.emplace_back();
            for (const auto& s : g.spans) {
                span.back().push_back(b.size());
                b.varint(s.start).varint(s.len).varint(s.label).f32(s.conf);
            }
        }
        at = c.add(7, b);
        for (auto& x : name) x += at;
        for (auto& x : count) x += at;
        for (auto& g : span)
            for (auto& x : g) x += at;
    }
    std::vector<std::uint8_t> bytes() const { return c.build(); }
};

TEST(SpanGroups, DecodesGroupsAndOverlappingSpans) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 2, 4, 0.5f}, {1, 2, 5, 1.0f}}}, {2, {}}});
    Container c = Accept(d.bytes());
    const DocSlice doc = c.docs[0];
    ASSERT_EQ(doc.spans.size(), 2u);
    EXPECT_EQ(c.strings.view(doc.spans[0].name), "sc");
    ASSERT_EQ(doc.spans[0].spans.size(), 2u);
    const Span& a = doc.spans[0].spans[0];
    const Span& b = doc.spans[0].spans[1];
    EXPECT_EQ(a.start, 0u);
    EXPECT_EQ(a.length, 2u);
    EXPECT_EQ(c.strings.view(a.label), "X");
    EXPECT_EQ(a.conf, 0.5f);
    EXPECT_EQ(b.start, 1u);  // absolute, overlapping the first
    EXPECT_EQ(c.strings.view(b.label), "Y");
    EXPECT_EQ(c.strings.view(doc.spans[1].name), "ents");
    EXPECT_TRUE(doc.spans[1].spans.empty());  // a group with zero spans is valid
}

TEST(SpanGroups, R24_SpansKeepTheirWrittenOrder) {
    SpanDoc d(std::vector<Grp>{{1, {{2, 1, 4, 1.0f}, {0, 3, 5, 1.0f}, {0, 1, 4, 1.0f}}}});
    Container c = Accept(d.bytes());
    const auto& s = c.docs[0].spans[0].spans;
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].start, 2u);
    EXPECT_EQ(s[1].start, 0u);
    EXPECT_EQ(s[1].length, 3u);
    EXPECT_EQ(s[2].start, 0u);
}

TEST(SpanGroups, R24_ZeroGroupsIsImplementationDefined) {
    // "Present only when a document has a span group": a section 7 with no groups contradicts it
    // (revision 2). The reference refuses it at the group count.
    SpanDoc d({});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.no-groups", d.at));
    EXPECT_EQ(error_info(Errc::spans_no_groups).verdict, ErrorVerdict::implementation_defined);
    // Relaxed: no span groups, and the writer leaves section 7 out.
    detail::RelaxedChecks relaxed{Errc::spans_no_groups};
    Container c = Accept(d.bytes());
    EXPECT_TRUE(c.docs[0].spans.empty());
    Ctr canon;
    canon.add(1, strings_content({}));
    canon.add(2, text_content("Hello big world"));
    canon.add(3, tokens_content({{0, 5}, {1, 3}, {1, 5}}));
    EXPECT_TRUE(SameBytes(Encode(c), canon.build()));
}

TEST(SpanGroups, R24_ZeroGroupsWithBytesLeftIsTrailingBytes) {
    HelloOndc h({"sc"});
    const std::size_t at = h.c.add(7, B{}.varint(0).u8(1));
    EXPECT_TRUE(Rejects(h.c.build(), "section.trailing-bytes", at + 1));
}

TEST(SpanGroups, R24_DuplicateNamesRelaxedReadAndWrittenAsTheyAre) {
    SpanDoc d(std::vector<Grp>{{1, {}}, {1, {}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.duplicate-group-name", d.name[1]));
    Container c;
    {
        detail::RelaxedChecks relaxed{Errc::spans_duplicate_group_name};
        c = Accept(d.bytes());
    }
    ASSERT_EQ(c.docs[0].spans.size(), 2u);
    EXPECT_EQ(c.docs[0].spans[0].name, c.docs[0].spans[1].name);
    EXPECT_TRUE(Refuses(c, "content.duplicate-group", "doc.spans[1].name"));
    std::vector<std::uint8_t> bytes;
    {
        detail::RelaxedChecks writes{Errc::content_duplicate_group};
        bytes = Encode(c);  // the content as it is
    }
    const auto got = catch_error([&] { (void)decode(view(bytes)); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "spans.duplicate-group-name");
    detail::RelaxedChecks reads{Errc::spans_duplicate_group_name};
    EXPECT_TRUE(same_content(Accept(bytes), c));
    EXPECT_EQ(detail::reader_check_of(Errc::content_duplicate_group), Errc::spans_duplicate_group_name);
    EXPECT_EQ(detail::reader_check_of(Errc::content_span_empty), std::nullopt);
}

TEST(SpanGroups, R24_GroupCountAboveBytesOverTwo) {
    HelloOndc h({"sc"});
    const std::size_t at = h.c.add(7, B{}.varint(3).raw({1, 0, 1, 0, 1}));
    EXPECT_TRUE(Rejects(h.c.build(), "spans.group-count-exceeds-bytes", at));
}

TEST(SpanGroups, R24_SpanCountAboveRemainingOverSeven) {
    HelloOndc h({"sc", "X"});
    B b;
    b.varint(1).varint(1);
    const std::size_t count = b.size();
    b.varint(2).raw(std::string(13, '\0'));
    const std::size_t at = h.c.add(7, b);
    EXPECT_TRUE(Rejects(h.c.build(), "spans.count-exceeds-bytes", at + count));
}

TEST(SpanGroups, R24_GroupNameZeroIsMissing) {
    SpanDoc d(std::vector<Grp>{{1, {}}, {0, {}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.group-name-missing", d.name[1]));
}

TEST(SpanGroups, R15_GroupNameNamingAStoredEmptyString) {
    SpanDoc d(std::vector<Grp>{{3, {}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.group-name-empty", d.name[0]));
}

TEST(SpanGroups, R13_GroupNameBeyondTheTable) {
    SpanDoc d(std::vector<Grp>{{6, {}}});
    EXPECT_TRUE(Rejects(d.bytes(), "table.index-out-of-range", d.name[0]));
}

TEST(SpanGroups, R24_DuplicateGroupNames) {
    SpanDoc d(std::vector<Grp>{{1, {}}, {2, {}}, {1, {}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.duplicate-group-name", d.name[2]));
}

TEST(SpanGroups, R24_DuplicateGroupNamesByValue) {
    HelloOndc h({"sc", "sc"});
    B b;
    b.varint(2).varint(1).varint(0);
    const std::size_t second = b.size();
    b.varint(2).varint(0);
    const std::size_t at = h.c.add(7, b);
    EXPECT_TRUE(Rejects(h.c.build(), "spans.duplicate-group-name", at + second));
}

// Telling group names apart does not copy them: two 4 MiB names are checked holding no more
// than a fraction of one.
TEST(SpanGroups, R24_NamesAreComparedWithoutCopies) {
    const std::string a(4u << 20, 'a'), b(4u << 20, 'b');
    for (const bool same : {false, true}) {
        HelloOndc h({a, same ? a : b});
        B sec;
        sec.varint(2).varint(1).varint(0);
        const std::size_t second = sec.size();
        sec.varint(2).varint(0);
        const std::size_t at = h.c.add(7, sec);
        const std::vector<std::uint8_t> bytes = h.c.build();
        if (same) {
            EXPECT_TRUE(Rejects(bytes, "spans.duplicate-group-name", at + second));
            continue;
        }
        ond::alloc::PeakScope peak;
        EXPECT_EQ(validate(view(bytes)).docs, 1u);
        EXPECT_LT(peak.peak(), 1u << 20);
    }
}

TEST(SpanGroups, R24_EmptySpan) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 1, 4, 1.0f}, {1, 0, 4, 1.0f}}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.empty", d.span[0][1] + 1));
}

TEST(SpanGroups, R24_SpanPastTheLastToken) {
    SpanDoc d(std::vector<Grp>{{1, {{2, 2, 4, 1.0f}}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.out-of-range", d.span[0][0]));
    SpanDoc e(std::vector<Grp>{{1, {{3, 1, 4, 1.0f}}}});
    EXPECT_TRUE(Rejects(e.bytes(), "spans.out-of-range", e.span[0][0]));
    SpanDoc f(std::vector<Grp>{{1, {{0, 1, 4, 1.0f}}}}, 0);
    EXPECT_TRUE(Rejects(f.bytes(), "spans.out-of-range", f.span[0][0]));
}

TEST(SpanGroups, R24_SpanEndingAtTheTokenCount) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 3, 4, 1.0f}}}});
    Container c = Accept(d.bytes());
    EXPECT_EQ(c.docs[0].spans[0].spans[0].length, 3u);
    EXPECT_TRUE(SameBytes(Encode(c), Encode(Accept(Encode(c)))));
}

TEST(SpanGroups, R24_StartPlusLengthDoesNotWrap) {
    HelloOndc h({"sc", "X"});
    B b;
    b.varint(1).varint(1).varint(1);
    const std::size_t span = b.size();
    b.varint(0xFFFFFFFF).varint(2).varint(2).f32(1.0f);
    const std::size_t at = h.c.add(7, b);
    EXPECT_TRUE(Rejects(h.c.build(), "spans.out-of-range", at + span));
}

TEST(SpanGroups, R24_SpanLabelZeroIsMissing) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 1, 0, 1.0f}}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.label-missing", d.span[0][0] + 2));
}

TEST(SpanGroups, R15_SpanLabelNamingAStoredEmptyString) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 1, 3, 1.0f}}}});
    EXPECT_TRUE(Rejects(d.bytes(), "spans.label-empty", d.span[0][0] + 2));
}

TEST(SpanGroups, R13_SpanLabelBeyondTheTable) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 1, 9, 1.0f}}}});
    EXPECT_TRUE(Rejects(d.bytes(), "table.index-out-of-range", d.span[0][0] + 2));
}

TEST(SpanGroups, R3_SpanConfidenceOutOfRange) {
    for (float f : {std::nanf(""), -1.0f, 1.0000001f, std::numeric_limits<float>::infinity()}) {
        SpanDoc d(std::vector<Grp>{{1, {{0, 1, 4, 0.5f}}}, {2, {{1, 1, 5, f}}}});
        EXPECT_TRUE(Rejects(d.bytes(), "spans.confidence-out-of-range", d.span[1][0] + 3)) << float_bits(f);
    }
}

TEST(SpanGroups, R3_NegativeZeroAndSubnormalConfidence) {
    SpanDoc d(std::vector<Grp>{{1, {{0, 1, 4, -0.0f}, {0, 1, 5, std::numeric_limits<float>::denorm_min()}}}});
    Container c = Accept(d.bytes());
    EXPECT_EQ(float_bits(c.docs[0].spans[0].spans[0].conf), 0x80000000u);
    EXPECT_EQ(float_bits(c.docs[0].spans[0].spans[1].conf), 1u);
    // Round trip keeps the bits (table renumbered to first use: sc, X, Y).
    Container again = decode(view(Encode(c)));
    EXPECT_TRUE(same_content(c, again));
}

}  // namespace
}  // namespace ond
