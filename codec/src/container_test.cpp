// Whole ONDC / ONDB containers: section framing (R8), ids by place (R9), required sections
// (R10), section 5's place (R11), unknown sections, and round trips through the writer.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

B hello_text() { return text_content("Hello world"); }
B hello_toks() { return tokens_content(hello_tokens()); }

TEST(Container, DecodesTheHelloDocument) {
    Container c = Accept(HelloOndc().c.build());
    ASSERT_EQ(c.docs.size(), 1u);
    const DocSlice d = c.docs[0];
    EXPECT_EQ(d.text, "Hello world");
    EXPECT_EQ(d.text_utf16_length, 11u);
    EXPECT_EQ(std::vector(d.tokens.start.begin(), d.tokens.start.end()), (std::vector<std::uint32_t>{0, 6}));
    EXPECT_EQ(std::vector(d.tokens.length.begin(), d.tokens.length.end()), (std::vector<std::uint32_t>{5, 5}));
    EXPECT_EQ(std::vector(d.tokens.head.begin(), d.tokens.head.end()), (std::vector<std::int32_t>{0, 0}));
    EXPECT_EQ(std::vector(d.tokens.sent.begin(), d.tokens.sent.end()),
              (std::vector<Sentence>{Sentence::start, Sentence::inside}));
    EXPECT_EQ(std::vector(d.tokens.conf.begin(), d.tokens.conf.end()), (std::vector<float>{1.0f, 1.0f}));
    EXPECT_FALSE(d.has_ents);
    EXPECT_FALSE(d.has_cats);
    EXPECT_TRUE(d.spans.empty());
    EXPECT_EQ(c.strings.size(), 1u);
}

TEST(Container, CanonicalBytesRoundTrip) {
    for (bool crc : {false, true}) {
        auto bytes = HelloOndc().c.build(crc);
        EXPECT_EQ(Encode(Accept(bytes)), bytes) << "crc " << crc;
    }
}

TEST(Container, DecodeIntoReusesAndResetsEverything) {
    // A rich ONDC (entities, categories, span groups, confidences), then a 3-document bin, then
    // a bare ONDC, all into one container: each result equals a fresh decode of the same bytes.
    Container rich = ondc("Hello big world");
    rich.docs.edit(0, [&](Doc& d) {
        add_token(rich, d, 0, 5, 0, {"hello", "", "INTJ"}, Sentence::start, 0.5f);
        add_token(rich, d, 6, 3, 2, {"big", "", "ADJ"}, Sentence::inside, -0.0f);
        add_token(rich, d, 10, 5, 0, {"world", "", "NOUN"}, Sentence::inside, 1.0f);
        d.has_ents = true;
        d.ents.push_back(Entity{2, 1, rich.strings.intern("LOC"), 0.75f});
        d.has_cats = true;
        d.cats.push_back(Category{rich.strings.intern("greeting"), 0.25f});
        d.spans.push_back(SpanGroup{rich.strings.intern("sc"), {Span{0, 3, rich.strings.intern("S"), 1.0f}}});
    });
    rich.crc = true;

    Container bin;
    bin.format = Format::ondb;
    for (int i = 0; i < 3; ++i) {
        Doc r;
        r.set_text("a b");
        r.tokens.start = {0, 2};
        r.tokens.length = {1, 1};
        for (auto& col : r.tokens.attrs) col = {bin.strings.intern("x" + std::to_string(i)), 0};
        r.tokens.head = {0, 0};
        r.tokens.sent = {Sentence::start, Sentence::inside};
        r.tokens.conf = {1.0f, 1.0f};
        bin.docs.push_back(r);
    }
    const Container bare = ondc("");

    Container reused;
    for (const Container* want : std::initializer_list<const Container*>{&rich, &bin, &bare, &rich}) {
        const auto bytes = encode(*want);
        decode_into(as_bytes(bytes.data(), bytes.size()), reused);
        EXPECT_TRUE(same_content(reused, *want));
        EXPECT_TRUE(same_content(reused, decode(as_bytes(bytes.data(), bytes.size()))));
    }
    EXPECT_EQ(reused.docs.size(), 1u);
}

// ---- R8: framing ------------------------------------------------------------------------

TEST(Container, R8_SectionFrameTruncated) {
    // 1 to 4 bytes left in the body: not enough for an id and a length.
    for (std::size_t extra = 1; extra <= 4; ++extra) {
        HelloOndc h;
        B partial;
        partial.u8(9);
        for (std::size_t i = 1; i < extra; ++i) partial.u8(0);
        const std::size_t at = h.c.add_raw(partial);
        EXPECT_TRUE(Rejects(h.c.build(), "section.truncated", at)) << extra;
    }
}

TEST(Container, R8_SectionLengthPastBodyEnd) {
    HelloOndc h;
    const std::size_t at = h.c.add_raw(B{}.u8(9).u32(3).raw("ab"));
    EXPECT_TRUE(Rejects(h.c.build(), "section.length-out-of-range", at + 1));
    // A huge length is compared in 64 bits, not wrapped.
    HelloOndc g;
    const std::size_t at2 = g.c.add_raw(B{}.u8(9).u32(0xFFFFFFFF).raw("ab"));
    EXPECT_TRUE(Rejects(g.c.build(), "section.length-out-of-range", at2 + 1));
    // A known section too.
    Ctr c;
    c.add(1, strings_content({}));
    const std::size_t at3 = c.add_raw(B{}.u8(2).u32(13).append(hello_text()));
    EXPECT_TRUE(Rejects(c.build(), "section.length-out-of-range", at3 + 1));
}

TEST(Container, R8_OutOfOrderSections) {
    HelloOndc h({"X"});
    h.c.add(6, categories_content({{1, 0.5f}}));
    const std::size_t four = h.c.add(4, entities_content({})) - kFrame;
    EXPECT_TRUE(Rejects(h.c.build(), "section.out-of-order", four));
}

TEST(Container, R8_SwappedRequiredSectionsFailAtTheFirstFault) {
    // 1, 3, 2: section 3 already passes the missing section 2, so that is the first fault.
    Ctr c;
    c.add(1, strings_content({}));
    const std::size_t three = c.add(3, hello_toks()) - kFrame;
    c.add(2, hello_text());
    EXPECT_TRUE(Rejects(c.build(), "section.missing", three));
}

TEST(Container, R8_RepeatedKnownSection) {
    HelloOndc h;
    const std::size_t again = h.c.add(3, hello_toks()) - kFrame;
    EXPECT_TRUE(Rejects(h.c.build(), "section.out-of-order", again));
}

TEST(Container, R8_RepeatedUnknownSection) {
    HelloOndc h;
    h.c.add(9, B{}.raw("x"));
    const std::size_t again = h.c.add(9, B{}.raw("y")) - kFrame;
    EXPECT_TRUE(Rejects(h.c.build(), "section.out-of-order", again));
}

TEST(Container, R8_IdZeroAfterSectionOne) {
    Ctr c;
    c.add(1, strings_content({}));
    const std::size_t zero = c.add(0, B{}) - kFrame;
    c.add(2, hello_text());
    c.add(3, hello_toks());
    EXPECT_TRUE(Rejects(c.build(), "section.out-of-order", zero));
}

TEST(Container, R8_KnownSectionLongerThanItsContents) {
    // One byte more than each known section's fields: section.trailing-bytes at that byte.
    {
        Ctr c;
        const std::size_t s1 = c.add(1, strings_content({"a"}).u8(0));
        c.add(2, hello_text());
        c.add(3, hello_toks());
        EXPECT_TRUE(Rejects(c.build(), "section.trailing-bytes", s1 + 3));
    }
    {
        HelloOndc h;
        auto toks = hello_toks();
        const std::size_t end = toks.size();
        toks.u8(0);
        Ctr c;
        c.add(1, strings_content({}));
        c.add(2, hello_text());
        const std::size_t s3 = c.add(3, toks);
        EXPECT_TRUE(Rejects(c.build(), "section.trailing-bytes", s3 + end));
    }
    {
        HelloOndc h({"X"});
        const std::size_t s4 = h.c.add(4, entities_content({{0, 1, 1, 1.0f}}).u8(0));
        EXPECT_TRUE(Rejects(h.c.build(), "section.trailing-bytes", s4 + 8));
    }
    {
        HelloOndc h({"X"});
        const std::size_t s6 = h.c.add(6, categories_content({{1, 0.5f}}).raw({0, 0}));
        EXPECT_TRUE(Rejects(h.c.build(), "section.trailing-bytes", s6 + 6));
    }
    {
        HelloOndc h({"X"});
        const std::size_t s7 = h.c.add(7, span_groups_content({{1, {}}}).u8(0));
        EXPECT_TRUE(Rejects(h.c.build(), "section.trailing-bytes", s7 + 3));
    }
}

TEST(Container, R8_SectionsTooShortForTheirOwnFields) {
    {  // a text section of length 0 has no encoding byte
        Ctr c;
        c.add(1, strings_content({}));
        const std::size_t s2 = c.add(2, B{});
        c.add(3, tokens_content({}));
        EXPECT_TRUE(Rejects(c.build(), "field.truncated", s2));
    }
    {  // a string table of length 0 has no count
        Ctr c;
        const std::size_t s1 = c.add(1, B{});
        c.add(2, hello_text());
        c.add(3, hello_toks());
        EXPECT_TRUE(Rejects(c.build(), "varint.truncated", s1));
    }
    {  // a tokens section of length 0 has no count
        Ctr c;
        c.add(1, strings_content({}));
        c.add(2, hello_text());
        const std::size_t s3 = c.add(3, B{});
        EXPECT_TRUE(Rejects(c.build(), "varint.truncated", s3));
    }
    for (std::uint32_t id : {4, 6, 7}) {  // count-led optional sections of length 0
        HelloOndc h;
        const std::size_t at = h.c.add(id, B{});
        EXPECT_TRUE(Rejects(h.c.build(), "varint.truncated", at)) << id;
    }
}

// ---- R9: ids by place --------------------------------------------------------------------

TEST(Container, R9_UnknownIdsAreSkippedAnywhereInOrder) {
    // Ids 0 and 8..255 are skipped by length; their content is not looked at.
    Ctr c;
    c.add(0, B{}.raw({0xFF, 0xFF}));
    c.add(1, strings_content({"PER"}));
    c.add(2, hello_text());
    c.add(3, hello_toks());
    c.add(4, entities_content({{0, 1, 1, 0.5f}}));
    c.add(8, B{});
    c.add(200, B{}.raw({0xC0, 0x80, 0x01}));
    c.add(255, B{}.raw("zz"));
    const auto bytes = c.build(true);
    Container got = Accept(bytes);
    ASSERT_EQ(got.docs[0].ents.size(), 1u);
    EXPECT_EQ(got.strings.view(got.docs[0].ents[0].label), "PER");
    EXPECT_EQ(got.docs[0].ents[0].conf, 0.5f);
    // Valid, non-canonical: the writer leaves the unknown sections out.
    HelloOndc canon({"PER"});
    canon.c.add(4, entities_content({{0, 1, 1, 0.5f}}));
    EXPECT_TRUE(SameBytes(Encode(got), canon.c.build(true)));
}

TEST(Container, R9_UnknownIdBeforeALaterKnownSection) {
    // Unknown ids (8..255) sort after 7, so a known section after one is out of order.
    HelloOndc h({"X"});
    h.c.add(9, B{});
    const std::size_t six = h.c.add(6, categories_content({{1, 0.5f}})) - kFrame;
    EXPECT_TRUE(Rejects(h.c.build(), "section.out-of-order", six));
}

TEST(Container, R9_SectionFiveInOndcIsMisplaced) {
    HelloOndc h;
    const std::size_t five = h.c.add(5, B{}.u32(0)) - kFrame;
    EXPECT_TRUE(Rejects(h.c.build(), "section.misplaced", five));
    HelloOndc g({"X"});
    g.c.add(4, entities_content({}));
    const std::size_t five2 = g.c.add(5, B{}.u32(0)) - kFrame;
    g.c.add(6, categories_content({}));
    EXPECT_TRUE(Rejects(g.c.build(), "section.misplaced", five2));
}

TEST(Container, R9_DocumentSectionsInOndbBodyAreMisplaced) {
    for (std::uint32_t id : {2, 3, 4}) {
        Ctr c("ONDB");
        c.add(1, strings_content({}));
        const std::size_t at = c.add(id, id == 2 ? hello_text() : id == 3 ? hello_toks() : entities_content({})) - kFrame;
        c.add(5, B{}.u32(0));
        EXPECT_TRUE(Rejects(c.build(), "section.misplaced", at)) << id;
    }
}

TEST(Container, R9_SectionsOfOtherPlacesInsideARecordAreMisplaced) {
    for (std::uint32_t id : {1, 5, 6, 7}) {
        B rec;
        std::size_t bad = 0;
        if (id == 1) {
            bad = rec.size();
            rec.section(1, strings_content({}));
        }
        rec.section(2, hello_text());
        rec.section(3, hello_toks());
        if (id != 1) {
            bad = rec.size();
            rec.section(id, id == 5 ? B{}.u32(0) : id == 6 ? categories_content({}) : span_groups_content({}));
        }
        Ctr c("ONDB");
        c.add(1, strings_content({}));
        const std::size_t s5 = c.add(5, B{}.u32(1).u32(static_cast<std::uint32_t>(rec.size())).append(rec));
        EXPECT_TRUE(Rejects(c.build(), "section.misplaced", s5 + 8 + bad)) << id;
    }
}

// ---- R10: required sections ----------------------------------------------------------------

TEST(Container, R10_OndcMissingStringTable) {
    Ctr c;
    const std::size_t two = c.add(2, hello_text()) - kFrame;
    c.add(3, hello_toks());
    EXPECT_TRUE(Rejects(c.build(), "section.missing", two));
}

TEST(Container, R10_OndcMissingText) {
    Ctr c;
    c.add(1, strings_content({}));
    const std::size_t three = c.add(3, tokens_content({})) - kFrame;
    EXPECT_TRUE(Rejects(c.build(), "section.missing", three));
}

TEST(Container, R10_OndcMissingTokens) {
    {  // a later section passes the missing one
        Ctr c;
        c.add(1, strings_content({"X"}));
        c.add(2, hello_text());
        const std::size_t six = c.add(6, categories_content({{1, 0.5f}})) - kFrame;
        EXPECT_TRUE(Rejects(c.build(), "section.missing", six));
    }
    {  // nothing follows: at the end of the body
        Ctr c;
        c.add(1, strings_content({}));
        c.add(2, hello_text());
        EXPECT_TRUE(Rejects(c.build(), "section.missing", c.at()));
        EXPECT_TRUE(Rejects(c.build(true), "section.missing", c.at()));
    }
    {  // an unknown id (8..255) also passes it
        Ctr c;
        c.add(1, strings_content({}));
        c.add(2, hello_text());
        const std::size_t nine = c.add(9, B{}) - kFrame;
        EXPECT_TRUE(Rejects(c.build(), "section.missing", nine));
    }
}

TEST(Container, R10_EmptyBodies) {
    EXPECT_TRUE(Rejects(Ctr("ONDC").build(), "section.missing", kHeader));
    EXPECT_TRUE(Rejects(Ctr("ONDB").build(), "section.missing", kHeader));
}

TEST(Container, R10_OndbMissingRecordsSection) {
    Ctr c("ONDB");
    c.add(1, strings_content({}));
    EXPECT_TRUE(Rejects(c.build(), "section.missing", c.at()));
    Ctr d("ONDB");
    d.add(1, strings_content({}));
    const std::size_t nine = d.add(9, B{}) - kFrame;
    EXPECT_TRUE(Rejects(d.build(), "section.missing", nine));
}

TEST(Container, R10_OndbMissingStringTable) {
    Ctr c("ONDB");
    const std::size_t five = c.add(5, B{}.u32(0)) - kFrame;
    EXPECT_TRUE(Rejects(c.build(), "section.missing", five));
}

TEST(Container, R10_OptionalSectionsMayBeAbsent) {
    Container c = Accept(HelloOndc().c.build());
    EXPECT_FALSE(c.docs[0].has_ents);
    EXPECT_FALSE(c.docs[0].has_cats);
    EXPECT_TRUE(c.docs[0].spans.empty());
}

// ---- R11: section 5 ends the ONDB body ---------------------------------------------------

TEST(Container, R11_NothingFollowsSectionFive) {
    for (std::uint32_t id : {6, 9, 255}) {
        Ctr c("ONDB");
        c.add(1, strings_content({}));
        c.add(5, B{}.u32(0));
        const std::size_t after = c.add(id, B{}) - kFrame;
        EXPECT_TRUE(Rejects(c.build(), "bin.section-after-records", after)) << id;
    }
}

TEST(Container, R11_EmptyBinIsValid) {
    Ctr c("ONDB");
    c.add(1, strings_content({}));
    c.add(5, B{}.u32(0));
    for (bool crc : {false, true}) {
        auto bytes = c.build(crc);
        Container got = Accept(bytes);
        EXPECT_EQ(got.format, Format::ondb);
        EXPECT_EQ(got.crc, crc);
        EXPECT_TRUE(got.docs.empty());
        EXPECT_TRUE(SameBytes(Encode(got), bytes));
    }
}

TEST(Container, R9_UnknownSectionBeforeTheTableInOndb) {
    Ctr c("ONDB");
    c.add(0, B{}.raw("?"));
    c.add(1, strings_content({}));
    c.add(5, B{}.u32(0));
    Container got = Accept(c.build());
    EXPECT_TRUE(got.docs.empty());
}

}  // namespace
}  // namespace ond
