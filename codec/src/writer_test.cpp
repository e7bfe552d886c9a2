// The canonical writer: exact bytes (W1-W5), refusals (content.* with the field's path), and
// round trips through the reader.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ond/internal/doc_list_build.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// The hello document as content: "Hello world", token 0 the root and head of token 1.
Container hello(bool crc = false) {
    Container c = ondc("Hello world");
    c.crc = crc;
    c.docs.edit(0, [&](Doc& d) {
        add_token(c, d, 0, 5, 0, {}, Sentence::start);
        add_token(c, d, 6, 5, 0, {}, Sentence::inside);
    });
    return c;
}

TEST(Writer, W1_HelloExactBytes) {
    EXPECT_TRUE(SameBytes(Encode(hello()), HelloOndc().c.build()));
    // Spelled out once, byte by byte, from the spec.
    const std::vector<std::uint8_t> expected = {
        'O', 'N', 'D', 'C', 1, 0, 0, 0, 49, 0, 0, 0,  // header: version 1, flags 0, body 49
        1, 1, 0, 0, 0, 0,                              // string table: 1 byte, count 0
        2, 12, 0, 0, 0, 0, 'H', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd',
        3, 21, 0, 0, 0,                                // tokens: 21 bytes
        2,                                             // n
        0, 5, 1, 5,                                    // gaps and lengths
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,            // six empty columns
        0, 1,                                          // heads: 0, -1 (zig-zag 1)
        0x09,                                          // sentence: start, inside
        0,                                             // confidence mode 0
    };
    EXPECT_TRUE(SameBytes(Encode(hello()), expected));
}

TEST(Writer, W5_TrailerAndFlag) {
    const auto bytes = Encode(hello(true));
    EXPECT_EQ(bytes, HelloOndc().c.build(true));
    EXPECT_EQ(bytes[6], 1);
    const std::size_t t = bytes.size() - 4;
    const std::uint32_t stored = static_cast<std::uint32_t>(bytes[t]) | static_cast<std::uint32_t>(bytes[t + 1]) << 8 |
                                 static_cast<std::uint32_t>(bytes[t + 2]) << 16 | static_cast<std::uint32_t>(bytes[t + 3]) << 24;
    EXPECT_EQ(stored, ref_crc32(bytes.data(), t));
}

TEST(Writer, W1_MinimalVarints) {
    Container c = ondc(std::string(300, 'a'));
    c.docs.edit(0, [&](Doc& d) { add_token(c, d, 200, 100, 0); });
    Ctr x;
    x.add(1, strings_content({}));
    x.add(2, text_content(std::string(300, 'a')));
    B t;
    t.u8(1).raw({0xC8, 0x01}).u8(100);  // gap 200 in two bytes, length 100 in one
    for (int i = 0; i < 6; ++i) t.u8(0);
    t.u8(0).u8(0).u8(0);
    x.add(3, t);
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
}

TEST(Writer, W1_StringsAndTextInUtf8WhenWellFormed) {
    Container c = ondc("\xF0\x9F\x98\x80");
    c.docs.edit(0, [&](Doc& d) { add_token(c, d, 0, 2, 0, {"caf\xC3\xA9"}); });
    Ctr x;
    x.add(1, strings_content({"caf\xC3\xA9"}));
    x.add(2, text_content("\xF0\x9F\x98\x80"));
    x.add(3, tokens_content({{0, 2, {1}}}));
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
}

TEST(Writer, W1_LoneSurrogatesAsUtf16) {
    Container c = ondc("a\xED\xA0\x80");  // "a" U+D800
    c.docs.edit(0, [&](Doc& d) { add_token(c, d, 0, 2, 0, {"\xED\xB0\x80"}); });
    Ctr x;
    x.add(1, B{}.varint(1).str16(std::u16string{0xDC00}));
    x.add(2, B{}.u8(1).u16('a').u16(0xD800));
    x.add(3, tokens_content({{0, 2, {1}}}));
    const auto bytes = x.build();
    EXPECT_TRUE(SameBytes(Encode(c), bytes));
    EXPECT_TRUE(same_content(decode(view(bytes)), c));
}

TEST(Writer, W2_SectionsByWhatIsSet) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) {
        d.has_ents = true;  // annotated, no entities
        d.has_cats = true;  // set, empty
    });
    HelloOndc x;
    x.c.add(4, entities_content({}));
    x.c.add(6, categories_content({}));
    EXPECT_TRUE(SameBytes(Encode(c), x.c.build()));
    // A span group, even with no spans, writes section 7.
    c.docs.edit(0, [&](Doc& d) { d.spans.push_back({c.strings.intern("sc"), {}}); });
    HelloOndc y({"sc"});
    y.c.add(4, entities_content({}));
    y.c.add(6, categories_content({}));
    y.c.add(7, span_groups_content({{1, {}}}));
    EXPECT_TRUE(SameBytes(Encode(c), y.c.build()));
}

TEST(Writer, W3_TableInFirstUseOrderOfTheBody) {
    Container c = ondc("Hello big world");
    // Interned in an order unrelated to first use, plus a string nothing uses.
    for (const char* s : {"Y", "unused", "sc", "POS", "X", "NOUN", "hi"}) c.strings.intern(s);
    c.docs.edit(0, [&](Doc& d) {
        add_token(c, d, 0, 5, 0, {"", "hi", "NOUN"});
        add_token(c, d, 6, 3, 0, {"big", "", "ADJ"});
        add_token(c, d, 10, 5, 0, {"", "hi", "NOUN"});
        d.has_ents = true;
        d.ents.push_back({1, 2, c.strings.intern("X"), 0.5f});
        d.has_cats = true;
        d.cats.push_back({c.strings.intern("POS"), 0.75f});
        d.cats.push_back({c.strings.intern("NOUN"), 0.25f});  // reused string keeps its number
        d.spans.push_back(
            {c.strings.intern("sc"), {{0, 1, c.strings.intern("Y"), 1.0f}, {2, 1, c.strings.intern("X"), 1.0f}}});
    });

    // Columns one after another: norm (big), lemma (hi), pos (NOUN, ADJ); then entity label X,
    // categories POS, NOUN; group name sc, span labels Y, X.
    Ctr x;
    x.add(1, strings_content({"big", "hi", "NOUN", "ADJ", "X", "POS", "sc", "Y"}));
    x.add(2, text_content("Hello big world"));
    x.add(3, tokens_content({{0, 5, {0, 2, 3}}, {1, 3, {1, 0, 4}, -1}, {1, 5, {0, 2, 3}, -2}}));  // all heads token 0
    x.add(4, entities_content({{1, 2, 5, 0.5f}}));
    x.add(6, categories_content({{6, 0.75f}, {3, 0.25f}}));
    x.add(7, span_groups_content({{7, {{0, 1, 8, 1.0f}, {2, 1, 5, 1.0f}}}}));
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
}

TEST(Writer, W3_DuplicateStoreEntriesWrittenOnce) {
    Container c = hello();
    const StringId a = c.strings.append("PER");
    const StringId b = c.strings.append("PER");
    ASSERT_NE(a, b);
    c.docs.edit(0, [&](Doc& d) {
        d.has_ents = true;
        d.ents.push_back({0, 1, b, 1.0f});
        d.ents.push_back({1, 1, a, 1.0f});
    });
    HelloOndc x({"PER"});
    x.c.add(4, entities_content({{0, 1, 1, 1.0f}, {0, 1, 1, 1.0f}}));
    EXPECT_TRUE(SameBytes(Encode(c), x.c.build()));
}

// The table is made two ways: a store whose strings all came through intern() holds each value
// once and is numbered without comparing values; any other store is deduplicated by value.
// Both give the same bytes: ASCII, other UTF-8 and a lone surrogate (written as UTF-16).
TEST(Writer, W3_InternedStoreAndStoreWithDuplicatesWriteTheSameBytes) {
    const char* values[] = {"caf\xC3\xA9", "NOUN", "\xED\xA0\x80", "x"};
    Container a = hello();
    Container b = hello();
    b.strings.append("NOUN");  // a duplicate before the one the tokens use
    a.docs.edit(0, [&](Doc& d) {
        for (std::size_t k = 0; k < 4; ++k) d.tokens.column(TokenColumn::lemma)[k % 2] = a.strings.intern(values[k]);
        d.tokens.column(TokenColumn::norm)[0] = a.strings.intern(values[1]);
        d.tokens.column(TokenColumn::tag)[1] = a.strings.intern(values[2]);
    });
    b.docs.edit(0, [&](Doc& d) {
        for (std::size_t k = 0; k < 4; ++k) d.tokens.column(TokenColumn::lemma)[k % 2] = b.strings.append(values[k]);
        d.tokens.column(TokenColumn::norm)[0] = b.strings.append(values[1]);
        d.tokens.column(TokenColumn::tag)[1] = b.strings.append(values[2]);
    });
    ASSERT_TRUE(a.strings.distinct());
    ASSERT_FALSE(b.strings.distinct());
    const auto bytes = Encode(a);
    EXPECT_TRUE(SameBytes(bytes, Encode(b)));
    const Container back = decode(view(bytes));
    EXPECT_EQ(back.doc(0).token(0).lemma(), "\xED\xA0\x80");  // values[2] replaced values[0]
    EXPECT_EQ(back.doc(0).token(0).norm(), "NOUN");
    EXPECT_EQ(back.doc(0).token(1).lemma(), "x");
    EXPECT_EQ(back.doc(0).token(1).tag(), "\xED\xA0\x80");
    EXPECT_EQ(back.strings.size(), 4u);  // "", the surrogate, NOUN, x: "café" is no longer used
}

TEST(Writer, W3_BinTableAcrossRecordsInOrder) {
    Container c;
    c.format = Format::ondb;
    c.strings.intern("LOC");
    for (const char* label : {"PER", "LOC", "PER"}) {
        Doc d;
        d.set_text("Hi");
        add_token(c, d, 0, 2, 0);
        d.has_ents = true;
        d.ents.push_back({0, 1, c.strings.intern(label), 1.0f});
        c.docs.push_back(d);
    }
    Ctr x("ONDB");
    x.add(1, strings_content({"PER", "LOC"}));
    B s5;
    s5.u32(3);
    for (std::uint32_t label : {1u, 2u, 1u}) {
        B r;
        r.section(2, text_content("Hi"));
        r.section(3, tokens_content({{0, 2}}));
        r.section(4, entities_content({{0, 1, label, 1.0f}}));
        s5.u32(static_cast<std::uint32_t>(r.size())).append(r);
    }
    x.add(5, s5);
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
    c.crc = true;
    EXPECT_TRUE(SameBytes(Encode(c), x.build(true)));
}

TEST(Writer, W2_EmptyBin) {
    Container c;
    c.format = Format::ondb;
    Ctr x("ONDB");
    x.add(1, strings_content({}));
    x.add(5, B{}.u32(0));
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
}

TEST(Writer, W4_ConfidenceModeOneWhenAnyIsNotExactlyOne) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.conf[1] = 0.5f; });
    std::vector<Tok> toks = hello_tokens();
    Ctr x;
    x.add(1, strings_content({}));
    x.add(2, text_content("Hello world"));
    x.add(3, tokens_content(toks, std::vector<float>{1.0f, 0.5f}));
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
    // -0.0 and a value a hair below 1 are not 1.0 bit for bit.
    for (float f : {-0.0f, 0.99999994f, 0.0f}) {
        c.docs.edit(0, [&](Doc& d) { d.tokens.conf = {1.0f, f}; });
        Ctr y;
        y.add(1, strings_content({}));
        y.add(2, text_content("Hello world"));
        y.add(3, tokens_content(toks, std::vector<float>{1.0f, f}));
        EXPECT_TRUE(SameBytes(Encode(c), y.build())) << float_bits(f);
    }
}

TEST(Writer, W2_NoEntitiesSectionWithoutTokens) {
    // R22: a document without tokens has no entity annotation to write, whatever has_ents says.
    Container c = ondc("text");
    c.docs.edit(0, [&](Doc& d) { d.has_ents = true; });
    Ctr x;
    x.add(1, strings_content({}));
    x.add(2, text_content("text"));
    x.add(3, B{0, 0});
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
    c.docs.edit(0, [&](Doc& d) { d.has_ents = false; });
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
    // Read back: no section 4, and the same content (has_ents carries nothing without tokens).
    Container back = Accept(x.build());
    EXPECT_FALSE(back.docs[0].has_ents);
    c.docs.edit(0, [&](Doc& d) { d.has_ents = true; });
    EXPECT_TRUE(same_content(back, c));
    // In a bin's record too, next to a record with tokens that keeps its section 4.
    Container b;
    b.format = Format::ondb;
    Doc d0;
    d0.set_text("");
    d0.has_ents = true;
    b.docs.push_back(d0);
    Doc d1;
    d1.set_text("Hi");
    add_token(b, d1, 0, 2, 0);
    d1.has_ents = true;
    b.docs.push_back(d1);
    Ctr y("ONDB");
    y.add(1, strings_content({}));
    B s5;
    s5.u32(2);
    B r0;
    r0.section(2, text_content("")).section(3, B{0, 0});
    s5.u32(static_cast<std::uint32_t>(r0.size())).append(r0);
    B r1;
    r1.section(2, text_content("Hi")).section(3, tokens_content({{0, 2}})).section(4, entities_content({}));
    s5.u32(static_cast<std::uint32_t>(r1.size())).append(r1);
    y.add(5, s5);
    EXPECT_TRUE(SameBytes(Encode(b), y.build()));
}

TEST(Writer, W4_NoTokensIsModeZero) {
    Container c = ondc("");
    Ctr x;
    x.add(1, strings_content({}));
    x.add(2, text_content(""));
    x.add(3, B{0, 0});
    EXPECT_TRUE(SameBytes(Encode(c), x.build()));
}

TEST(Writer, W5_SentencePaddingIsZero) {
    Container c = ondc("abcde");
    c.docs.edit(0, [&](Doc& d) {
        for (std::uint32_t i = 0; i < 5; ++i) add_token(c, d, i, 1, static_cast<std::int32_t>(i), {}, Sentence::inside);
    });
    const auto bytes = Encode(c);
    Ctr x;
    x.add(1, strings_content({}));
    x.add(2, text_content("abcde"));
    std::vector<Tok> toks(5, Tok{0, 1, {}, 0, 2});
    TokLayout l;
    const std::size_t at = x.add(3, tokens_content(toks, {}, &l));
    EXPECT_EQ(bytes, x.build());
    EXPECT_EQ(bytes[at + l.sent], 0xAA);
    EXPECT_EQ(bytes[at + l.sent + 1], 0x02);
}

TEST(Writer, EncodeAppendAddsAfterExistingBytes) {
    std::vector<std::byte> out(3, std::byte{0x5A});
    encode_append(hello(true), out);
    const auto alone = Encode(hello(true));
    ASSERT_EQ(out.size(), 3 + alone.size());
    EXPECT_EQ(to_u8(std::vector<std::byte>(out.begin() + 3, out.end())), alone);
    EXPECT_EQ(out[0], std::byte{0x5A});
}

TEST(Writer, RoundTripOfARichDocument) {
    Container c = ondc("The \xF0\x9F\x98\x80 cat sat.");
    c.crc = true;
    c.docs.edit(0, [&](Doc& d) {
        add_token(c, d, 0, 3, 2, {"the", "the", "DET", "DT", "det", "Definite=Def"}, Sentence::start, 0.9f);
        add_token(c, d, 4, 2, 2, {"", "", "SYM"}, Sentence::inside, -0.0f);
        add_token(c, d, 7, 3, 2, {"cat", "cat", "NOUN", "NN", "ROOT", ""}, Sentence::inside, 1.0f);
        add_token(c, d, 11, 3, 2, {"sat", "sit", "VERB"}, Sentence::inside, std::numeric_limits<float>::denorm_min());
        add_token(c, d, 14, 1, 3, {".", ".", "PUNCT"}, Sentence::unset, 0.5f);
        d.has_ents = true;
        d.ents.push_back({2, 1, c.strings.intern("ANIMAL"), 0.75f});
        d.has_cats = true;
        d.cats.push_back({c.strings.intern("pets"), 0.0f});
        d.cats.push_back({c.strings.intern("\xED\xA0\x80"), 1.0f});
        d.spans.push_back(
            {c.strings.intern("sc"), {{0, 3, c.strings.intern("NP"), 0.5f}, {1, 2, c.strings.intern("NP"), 0.25f}}});
        d.spans.push_back({c.strings.intern("empty"), {}});
    });
    const auto bytes = Encode(c);
    const Container back = Accept(bytes);
    EXPECT_TRUE(same_content(c, back));
    EXPECT_TRUE(SameBytes(Encode(back), bytes));
    EXPECT_EQ(float_bits(back.docs[0].tokens.conf[1]), 0x80000000u);
}

// ---- refusals ------------------------------------------------------------------------------

TEST(WriterRefuses, R19_HeadOutsideTheDocument) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.head[1] = 2; });
    EXPECT_TRUE(Refuses(c, "content.head-out-of-range", "doc.tokens[1].head"));
    c.docs.edit(0, [&](Doc& d) { d.tokens.head[1] = -1; });
    EXPECT_TRUE(Refuses(c, "content.head-out-of-range", "doc.tokens[1].head"));
}

TEST(WriterRefuses, R18_Tokens) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.start[1] = 4; });  // before token 0's end (5)
    EXPECT_TRUE(Refuses(c, "content.token-order", "doc.tokens[1].start"));
    c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.length[0] = 0; });
    EXPECT_TRUE(Refuses(c, "content.token-empty", "doc.tokens[0].length"));
    c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.length[1] = 6; });
    EXPECT_TRUE(Refuses(c, "content.token-out-of-text", "doc.tokens[1]"));
    c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.start[1] = 0xFFFFFFFF; });  // start + length past 2^32
    EXPECT_TRUE(Refuses(c, "content.token-out-of-text", "doc.tokens[1]"));
}

TEST(WriterRefuses, R20_SentenceValue) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.sent[0] = static_cast<Sentence>(3); });
    EXPECT_TRUE(Refuses(c, "content.bad-sentence-value", "doc.tokens[0].sent"));
}

TEST(WriterRefuses, R3_Confidences) {
    for (float f : {std::nanf(""), -0.25f, 1.5f, std::numeric_limits<float>::infinity()}) {
        Container c = hello();
        c.docs.edit(0, [&](Doc& d) { d.tokens.conf[1] = f; });
        EXPECT_TRUE(Refuses(c, "content.confidence-out-of-range", "doc.tokens[1].conf"));
        Container e = hello();
        e.docs.edit(0, [&](Doc& d) {
            d.has_ents = true;
            d.ents.push_back({0, 1, e.strings.intern("X"), f});
        });
        EXPECT_TRUE(Refuses(e, "content.confidence-out-of-range", "doc.ents[0].conf"));
        Container s = hello();
        s.docs.edit(0, [&](Doc& d) {
            d.spans.push_back({s.strings.intern("sc"), {{0, 1, s.strings.intern("X"), f}}});
        });
        EXPECT_TRUE(Refuses(s, "content.confidence-out-of-range", "doc.spans[0].spans[0].conf"));
    }
}

TEST(WriterRefuses, R22_Entities) {
    Container c = hello();
    const StringId x = c.strings.intern("X");
    auto ents = [&](std::vector<Entity> e) {
        c.docs.edit(0, [&](Doc& d) {
            d.has_ents = true;
            d.ents = std::move(e);
        });
    };
    ents({{0, 2, x, 1.0f}, {1, 1, x, 1.0f}});
    EXPECT_TRUE(Refuses(c, "content.entity-order", "doc.ents[1]"));
    ents({{1, 1, x, 1.0f}, {0, 1, x, 1.0f}});
    EXPECT_TRUE(Refuses(c, "content.entity-order", "doc.ents[1]"));
    ents({{0, 0, x, 1.0f}});
    EXPECT_TRUE(Refuses(c, "content.entity-empty", "doc.ents[0].length"));
    ents({{1, 2, x, 1.0f}});
    EXPECT_TRUE(Refuses(c, "content.entity-out-of-range", "doc.ents[0]"));
    ents({{0, 1, 0, 1.0f}});
    EXPECT_TRUE(Refuses(c, "content.label-empty", "doc.ents[0].label"));
}

TEST(WriterRefuses, R23_Categories) {
    Container c = hello();
    const StringId pos = c.strings.intern("POS");
    const StringId pos2 = c.strings.append("POS");
    auto cats = [&](std::vector<Category> k) {
        c.docs.edit(0, [&](Doc& d) {
            d.has_cats = true;
            d.cats = std::move(k);
        });
    };
    cats({{pos, 0.5f}, {pos2, 0.5f}});
    EXPECT_TRUE(Refuses(c, "content.duplicate-category", "doc.cats[1].label"));
    cats({{0, 0.5f}});
    EXPECT_TRUE(Refuses(c, "content.label-empty", "doc.cats[0].label"));
    cats({{pos, std::nanf("")}});
    EXPECT_TRUE(Refuses(c, "content.score-out-of-range", "doc.cats[0].score"));
    cats({{pos, -1.0f}});
    EXPECT_TRUE(Refuses(c, "content.score-out-of-range", "doc.cats[0].score"));
}

TEST(WriterRefuses, R24_SpanGroups) {
    Container c = hello();
    const StringId sc = c.strings.intern("sc"), x = c.strings.intern("X");
    auto spans = [&](std::vector<SpanGroup> g) { c.docs.edit(0, [&](Doc& d) { d.spans = std::move(g); }); };
    spans({{sc, {}}, {sc, {}}});
    EXPECT_TRUE(Refuses(c, "content.duplicate-group", "doc.spans[1].name"));
    spans({{0, {}}});
    EXPECT_TRUE(Refuses(c, "content.label-empty", "doc.spans[0].name"));
    spans({{sc, {{0, 0, x, 1.0f}}}});
    EXPECT_TRUE(Refuses(c, "content.span-empty", "doc.spans[0].spans[0].length"));
    spans({{sc, {{0, 2, x, 1.0f}, {1, 2, x, 1.0f}}}});
    EXPECT_TRUE(Refuses(c, "content.span-out-of-range", "doc.spans[0].spans[1]"));
    spans({{sc, {{0, 1, 0, 1.0f}}}});
    EXPECT_TRUE(Refuses(c, "content.label-empty", "doc.spans[0].spans[0].label"));
}

TEST(WriterRefuses, R13_StringIdNotInTheStore) {
    // A container refuses such an id when it is given one (DocMoves tests); the writer still
    // checks, for a store replaced under its documents.
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.column(TokenColumn::pos)[1] = c.strings.intern("NOUN"); });
    c.strings = StringStore();
    EXPECT_TRUE(Refuses(c, "content.bad-string-id", "doc.tokens[1].pos"));
    Container e = hello();
    try {
        e.docs.edit(0, [&](Doc& d) {
            d.has_ents = true;
            d.ents.push_back({0, 1, 99, 1.0f});
        });
        ADD_FAILURE() << "edit took an id the store never handed out";
    } catch (const Error& x) {
        EXPECT_EQ(x.errc(), Errc::content_bad_string_id);
        EXPECT_EQ(x.path(), "ents[0].label");
    }
    EXPECT_FALSE(e.docs[0].has_ents);  // left as it was
}

TEST(WriterRefuses, R5_InvalidStrings) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.column(TokenColumn::lemma)[0] = c.strings.append("\xC0\x80"); });
    EXPECT_TRUE(Refuses(c, "content.invalid-string", "doc.tokens[0].lemma"));
    Container t = hello();
    t.docs.edit(0, [&](Doc& d) { d.text = "Hello w\xFFrld"; });  // bypassing set_text
    EXPECT_TRUE(Refuses(t, "content.invalid-string", "doc.text"));
    Container p = hello();
    // A surrogate pair written as two 3-byte forms is not WTF-8.
    p.docs.edit(0, [&](Doc& d) {
        d.tokens.column(TokenColumn::norm)[1] = p.strings.append("\xED\xA0\xBD\xED\xB8\x80");
    });
    EXPECT_TRUE(Refuses(p, "content.invalid-string", "doc.tokens[1].norm"));
}

// The same refusals from a store made only by intern() (numbered without a lookup by value).
TEST(WriterRefuses, R5_InvalidStringsInAnInternedStore) {
    Container c = hello();
    c.docs.edit(0, [&](Doc& d) { d.tokens.column(TokenColumn::lemma)[0] = c.strings.intern("\xC0\x80"); });
    ASSERT_TRUE(c.strings.distinct());
    EXPECT_TRUE(Refuses(c, "content.invalid-string", "doc.tokens[0].lemma"));
    Container p = hello();
    p.docs.edit(0, [&](Doc& d) { d.tokens.column(TokenColumn::norm)[1] = p.strings.intern("ok\xED\xA0\xBD\xED\xB8\x80"); });
    ASSERT_TRUE(p.strings.distinct());
    EXPECT_TRUE(Refuses(p, "content.invalid-string", "doc.tokens[1].norm"));
}

TEST(WriterRefuses, R9_BinRecordsCannotCarryCategoriesOrSpans) {
    Container c;
    c.format = Format::ondb;
    const Container h = hello();  // its documents, re-interned into c's strings
    c.append(h.doc(0));
    c.append(h.doc(0));
    c.docs.edit(1, [&](Doc& d) { d.has_cats = true; });
    EXPECT_TRUE(Refuses(c, "content.bin-extras", "docs[1]"));
    c.docs.edit(1, [&](Doc& d) {
        d.has_cats = false;
        d.spans.push_back({c.strings.intern("sc"), {}});
    });
    EXPECT_TRUE(Refuses(c, "content.bin-extras", "docs[1]"));
}

TEST(WriterRefuses, BinPathsNameTheDocument) {
    Container c;
    c.format = Format::ondb;
    const Container h = hello();  // its documents, re-interned into c's strings
    c.append(h.doc(0));
    c.append(h.doc(0));
    c.docs.edit(1, [&](Doc& d) { d.tokens.head[0] = 5; });
    EXPECT_TRUE(Refuses(c, "content.head-out-of-range", "docs[1].tokens[0].head"));
}

TEST(WriterRefuses, InconsistentModel) {
    Container none;
    EXPECT_TRUE(Refuses(none, "content.inconsistent", "docs"));
    Container two = hello();
    two.docs.push_back(two.docs.to_doc(0));
    EXPECT_TRUE(Refuses(two, "content.inconsistent", "docs"));
    // Token columns of different sizes cannot enter a container (it keeps one row per token in
    // every column): push_back, edit and replace refuse such a Doc and leave the documents as
    // they were.
    Container cols = hello();
    Doc short_heads = cols.docs.to_doc(0);
    short_heads.tokens.head.pop_back();
    for (int way = 0; way < 3; ++way) {
        try {
            if (way == 0) cols.docs.push_back(short_heads);
            if (way == 1) cols.docs.edit(0, [](Doc& d) { d.tokens.head.pop_back(); });
            if (way == 2) cols.docs.replace(0, short_heads);
            ADD_FAILURE() << "way " << way << " took a Doc with a short head column";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), "content.inconsistent") << way;
            EXPECT_EQ(e.path(), "tokens") << way;
            EXPECT_EQ(e.offset(), no_offset) << way;
        }
        EXPECT_TRUE(same_content(cols, hello())) << way;
    }
}

TEST(DocList, EntitiesAndCategoriesAreTheirAnnotationsPresence) {
    // has_ents and ents are one fact: a Doc with entities is annotated whatever has_ents says
    // (before, the container kept has_ents false with the entities and encode refused it).
    Container ents = hello();
    ents.docs.edit(0, [&](Doc& d) {
        d.ents.push_back({0, 1, ents.strings.intern("X"), 1.0f});
        d.has_ents = false;
    });
    EXPECT_TRUE(ents.docs[0].has_ents);
    Container back = decode(encode(ents));
    ASSERT_EQ(back.docs[0].ents.size(), 1u);
    EXPECT_EQ(back.strings.view(back.docs[0].ents[0].label), "X");
    Container cats = hello();
    cats.docs.edit(0, [&](Doc& d) {
        d.cats.push_back({cats.strings.intern("X"), 1.0f});
        d.has_cats = false;
    });
    EXPECT_TRUE(cats.docs[0].has_cats);
    const Container cats_back = decode(encode(cats));
    EXPECT_EQ(cats_back.docs[0].cats.size(), 1u);
    // Present with none: has_ents alone, kept.
    Container none = hello();
    none.docs.edit(0, [&](Doc& d) {
        d.ents.clear();
        d.has_ents = true;
    });
    const Container none_back = decode(encode(none));
    EXPECT_TRUE(none_back.docs[0].has_ents);
}

TEST(WriterRefuses, R17_TooManyTokens) {
    Container c = ondc("x");
    // The rows are added unset (resize_tokens default-initialises them), so the columns' 1.4 GB
    // are reserved but never written: the count is checked before any row is read.
    detail::build(c.docs).resize_tokens(33'554'433);
    EXPECT_TRUE(Refuses(c, "content.too-large", "doc.tokens"));
}

}  // namespace
}  // namespace ond
