// The content model: StringStore, Doc::set_text, same_doc / same_content.
#include "ond/model.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ond/error.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

TEST(StringStore, EmptyStringIsIdZero) {
    StringStore s;
    EXPECT_EQ(s.size(), 1u);
    EXPECT_TRUE(s.contains(0));
    EXPECT_FALSE(s.contains(1));
    EXPECT_EQ(s.view(0), "");
    EXPECT_EQ(s.intern(""), 0u);
    EXPECT_EQ(s.size(), 1u);
}

TEST(StringStore, InternDeduplicates) {
    StringStore s;
    EXPECT_EQ(s.intern("PER"), 1u);
    EXPECT_EQ(s.intern("LOC"), 2u);
    EXPECT_EQ(s.intern("PER"), 1u);
    EXPECT_EQ(s.size(), 3u);
    EXPECT_EQ(s.view(1), "PER");
    EXPECT_EQ(s.view(2), "LOC");
    // Strings that differ only in a lone surrogate are different strings.
    EXPECT_EQ(s.intern("\xED\xA0\x80"), 3u);
    EXPECT_EQ(s.intern("\xED\xA0\x81"), 4u);
}

TEST(StringStore, AppendKeepsDuplicatesAndInternFindsTheFirst) {
    // A reader's store is the table as read (R14: duplicates and stored empty strings are valid).
    StringStore s;
    EXPECT_EQ(s.append("a"), 1u);
    EXPECT_EQ(s.append("a"), 2u);
    EXPECT_EQ(s.append(""), 3u);
    EXPECT_EQ(s.size(), 4u);
    EXPECT_EQ(s.view(2), "a");
    EXPECT_EQ(s.view(3), "");
    EXPECT_EQ(s.intern("a"), 1u);
    EXPECT_EQ(s.intern("b"), 4u);
    EXPECT_EQ(s.intern(""), 0u);  // "" is always 0, even with a stored empty string
}

// distinct(): every string came through intern(), so no value is held twice (the writer then
// numbers its table without comparing values). An append() may add a duplicate.
TEST(StringStore, DistinctUntilAnAppend) {
    StringStore s;
    EXPECT_TRUE(s.distinct());
    s.intern("a");
    s.intern("a");
    s.intern("b");
    EXPECT_TRUE(s.distinct());
    StringStore copy = s;
    EXPECT_TRUE(copy.distinct());
    s.append("c");
    EXPECT_FALSE(s.distinct());
    s.intern("d");
    EXPECT_FALSE(s.distinct());  // intern() cannot undo it
    StringStore moved = std::move(s);
    EXPECT_FALSE(moved.distinct());
    copy = moved;
    EXPECT_FALSE(copy.distinct());
    moved.clear();
    EXPECT_TRUE(moved.distinct());
}

TEST(StringStore, IdsSurviveBufferGrowth) {
    // Interning many strings reallocates the byte buffer; earlier ids must still be found.
    StringStore s;
    for (int i = 0; i < 5000; ++i) EXPECT_EQ(s.intern("label-" + std::to_string(i)), static_cast<StringId>(i + 1));
    for (int i = 0; i < 5000; i += 7) EXPECT_EQ(s.intern("label-" + std::to_string(i)), static_cast<StringId>(i + 1));
    for (int i = 0; i < 300; ++i) s.append(std::string(100, 'x'));
    EXPECT_EQ(s.intern("label-4999"), 5000u);
    EXPECT_EQ(s.intern(std::string(100, 'x')), 5001u);
    EXPECT_EQ(s.view(1234), "label-1233");
}

TEST(StringStore, ClearAndEquality) {
    StringStore a, b;
    a.intern("x");
    a.intern("y");
    b.append("x");
    b.append("y");
    EXPECT_TRUE(a == b);
    b.append("z");
    EXPECT_FALSE(a == b);
    b.clear();
    EXPECT_EQ(b.size(), 1u);
    EXPECT_TRUE(b == StringStore());
    EXPECT_EQ(b.intern("y"), 1u);
}

TEST(Doc, SetTextMeasuresUtf16) {
    Doc d;
    d.set_text("a\xF0\x9F\x98\x80\xC3\xA9");
    EXPECT_EQ(d.text_utf16_length(), 4u);
    d.set_text("\xED\xA0\x80");
    EXPECT_EQ(d.text_utf16_length(), 1u);
    EXPECT_EQ(d.text, "\xED\xA0\x80");
}

TEST(Doc, SetTextRefusesInvalidWtf8) {
    Doc d;
    d.set_text("ok");
    try {
        d.set_text("\xC0\x80");
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), "content.invalid-string");
        EXPECT_EQ(e.path(), "text");
        EXPECT_EQ(e.offset(), no_offset);
    }
    EXPECT_EQ(d.text, "ok");  // unchanged
    EXPECT_EQ(d.text_utf16_length(), 2u);
}

TEST(Tokens, ResizeFillsConfidenceWithOne) {
    Tokens t;
    t.resize(3);
    EXPECT_EQ(t.size(), 3u);
    for (auto& c : t.attrs) EXPECT_EQ(c.size(), 3u);
    EXPECT_EQ(t.conf, (std::vector<float>{1.0f, 1.0f, 1.0f}));
    t.clear();
    EXPECT_EQ(t.size(), 0u);
    EXPECT_TRUE(t.head.empty());
}

Container sample(bool swap_ids) {
    Container c = test::ondc("Hello world");
    // The same strings, interned in a different order so that ids differ.
    if (swap_ids) {
        c.strings.intern("VERB");
        c.strings.intern("NOUN");
    }
    c.docs.edit(0, [&](Doc& d) {
        test::add_token(c, d, 0, 5, 0, {"hello", "", "NOUN"}, Sentence::start);
        test::add_token(c, d, 6, 5, 0, {"world", "", "VERB"}, Sentence::inside, 0.5f);
        d.has_ents = true;
        d.ents.push_back({0, 1, c.strings.intern("GREETING"), 0.25f});
        d.has_cats = true;
        d.cats.push_back({c.strings.intern("POSITIVE"), 0.75f});
        d.spans.push_back({c.strings.intern("sc"), {{1, 1, c.strings.intern("THING"), 1.0f}}});
    });
    return c;
}

TEST(SameContent, ComparesStringsByValueNotId) {
    Container a = sample(false), b = sample(true);
    ASSERT_NE(a.docs[0].tokens.column(TokenColumn::pos)[1], b.docs[0].tokens.column(TokenColumn::pos)[1]);
    EXPECT_TRUE(same_content(a, b));
    EXPECT_TRUE(same_doc(a.docs[0], a.strings, b.docs[0], b.strings));
}

TEST(SameContent, DetectsEachDifference) {
    const Container base = sample(false);
    auto differs = [&](auto mutate) {
        Container c = base;
        mutate(c);
        return !same_content(base, c) && !same_content(c, base);
    };
    EXPECT_TRUE(differs([](Container& c) { c.crc = true; }));
    EXPECT_TRUE(differs([](Container& c) { c.format = Format::ondb; }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.set_text("Hello worle"); }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.tokens.head[1] = 1; }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.tokens.sent[0] = Sentence::unset; }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.tokens.length[1] = 4; }); }));
    EXPECT_TRUE(differs([](Container& c) {
        c.docs.edit(0, [&](Doc& d) { d.tokens.column(TokenColumn::lemma)[0] = c.strings.intern("hi"); });
    }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.tokens.conf[1] = 0.5000001f; }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.ents.clear(); }); }));
    EXPECT_TRUE(differs([](Container& c) {
        c.docs.edit(0, [&](Doc& d) {
            d.ents.clear();
            d.has_ents = false;
        });
    }));
    EXPECT_TRUE(differs([](Container& c) {
        c.docs.edit(0, [&](Doc& d) { d.ents[0].label = c.strings.intern("OTHER"); });
    }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.has_cats = false; d.cats.clear(); }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.cats[0].score = 0.5f; }); }));
    EXPECT_TRUE(differs([](Container& c) {
        c.docs.edit(0, [&](Doc& d) { d.spans[0].name = c.strings.intern("other"); });
    }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.spans[0].spans[0].start = 0; }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.edit(0, [&](Doc& d) { d.spans.clear(); }); }));
    EXPECT_TRUE(differs([](Container& c) { c.docs.push_back(c.docs.to_doc(0)); }));
}

TEST(SameContent, R3_FloatsCompareByBits) {
    Container a = sample(false);
    Container b = a;
    a.docs.edit(0, [](Doc& d) { d.ents[0].conf = 0.0f; });
    b.docs.edit(0, [](Doc& d) { d.ents[0].conf = -0.0f; });
    EXPECT_FALSE(same_content(a, b));
    b.docs.edit(0, [](Doc& d) { d.ents[0].conf = 0.0f; });
    EXPECT_TRUE(same_content(a, b));
    // The same NaN bits are the same content.
    a.docs.edit(0, [](Doc& d) { d.cats[0].score = test::bits_float(0x7FC00000u); });
    b.docs.edit(0, [](Doc& d) { d.cats[0].score = test::bits_float(0x7FC00000u); });
    EXPECT_TRUE(same_content(a, b));
}

}  // namespace
}  // namespace ond
