// Strings (R5) and the string table, section 1 (R12-R15).
#include <gtest/gtest.h>

#include <forward_list>
#include <iterator>

#include "ond/internal/sections.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

// An ONDC whose table is `table` and whose one entity uses label `label`.
struct WithTable {
    Ctr c;
    std::size_t strings_at = 0, ents_at = 0;
    WithTable(const B& table, std::uint32_t label = 1) {
        strings_at = c.add(1, table);
        c.add(2, text_content("Hello world"));
        c.add(3, tokens_content(hello_tokens()));
        ents_at = c.add(4, entities_content({{0, 1, label, 1.0f}}));
    }
};

TEST(StringTable, DecodesEntriesInOrder) {
    WithTable w(strings_content({"PER", "caf\xC3\xA9", "\xF0\x9F\x98\x80"}), 2);
    Container c = Accept(w.c.build());
    ASSERT_EQ(c.strings.size(), 4u);
    EXPECT_EQ(c.strings.view(0), "");
    EXPECT_EQ(c.strings.view(1), "PER");
    EXPECT_EQ(c.strings.view(2), "caf\xC3\xA9");
    EXPECT_EQ(c.strings.view(3), "\xF0\x9F\x98\x80");
    EXPECT_EQ(c.strings.view(c.docs[0].ents[0].label), "caf\xC3\xA9");
    EXPECT_EQ(validate(view(w.c.build())).strings, 3u);
}

TEST(StringTable, R12_CountAboveTheTableBytes) {
    // 3 strings declared, 2 bytes follow the count: even empty strings need a byte each.
    WithTable w(B{}.varint(3).varint(0).varint(0));
    EXPECT_TRUE(Rejects(w.c.build(), "table.count-out-of-range", w.strings_at));
    // A count far above is refused before anything is allocated.
    WithTable big(B{}.varint(0xFFFFFFFF).raw({0, 0}));
    EXPECT_TRUE(Rejects(big.c.build(), "table.count-out-of-range", big.strings_at));
}

TEST(StringTable, R12_CountEqualToTheBytesIsAccepted) {
    // 3 stored empty strings fill the 3 bytes after the count exactly (R14: valid, non-canonical).
    Ctr c;
    c.add(1, B{}.varint(3).varint(0).varint(0).varint(0));
    c.add(2, text_content("Hello world"));
    c.add(3, tokens_content(hello_tokens()));
    Container got = Accept(c.build());
    EXPECT_EQ(got.strings.size(), 4u);
    EXPECT_TRUE(SameBytes(Encode(got), HelloOndc().c.build()));
}

TEST(StringTable, R5_StringPastTheSectionEnd) {
    // "abc" declares 5 bytes; the string sits at the table's end.
    B t;
    t.varint(1);
    const std::size_t s = t.size();
    t.varint(5 << 1).raw("abc");
    WithTable w(t);
    EXPECT_TRUE(Rejects(w.c.build(), "string.truncated", w.strings_at + s));
}

TEST(StringTable, R5_StringMayNotBorrowFromTheNextSection) {
    // The bytes exist in the container (the text section follows), but not in the table.
    B t;
    t.varint(1);
    const std::size_t s = t.size();
    t.varint(4 << 1).raw("ab");
    WithTable w(t);
    EXPECT_TRUE(Rejects(w.c.build(), "string.truncated", w.strings_at + s));
}

TEST(StringTable, R5_HugeStringLength) {
    B t;
    t.varint(1);
    const std::size_t s = t.size();
    t.varint(0xFFFFFFFE).raw("x");  // 2^31 - 1 bytes declared
    WithTable w(t);
    EXPECT_TRUE(Rejects(w.c.build(), "string.truncated", w.strings_at + s));
}

TEST(StringTable, R5_InvalidUtf8AtTheBadByte) {
    struct Case {
        std::vector<std::uint8_t> bytes;
        std::size_t bad;  // within the string's bytes
    };
    const std::vector<Case> cases = {
        {{'a', 0xC0, 0x80}, 1},              // overlong
        {{0xED, 0xA0, 0x80}, 0},             // a surrogate
        {{'x', 'y', 0xF4, 0x90, 0x80, 0x80}, 2},  // above U+10FFFF
        {{'a', 'b', 'c', 0xE2, 0x82}, 3},    // cut sequence
        {{0x80}, 0},                         // lone continuation byte
    };
    for (const auto& k : cases) {
        B t;
        t.varint(1);
        const std::size_t s = t.size();
        t.varint(k.bytes.size() << 1).raw(k.bytes);
        WithTable w(t);
        const std::size_t data = w.strings_at + s + 1;
        EXPECT_TRUE(Rejects(w.c.build(), "string.invalid-utf8", data + k.bad));
    }
}

TEST(StringTable, R5_ShortStringsCheckedOnTheirOwnBytes) {
    // A short string is checked with one word loaded from its start, the bytes after it masked
    // off: non-ASCII bytes right after an ASCII string do not count against it.
    WithTable ok(strings_content({"ab", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", "x"}));
    EXPECT_EQ(Accept(ok.c.build()).strings.size(), 4u);
    // A bad byte is found at its place, with 8 bytes from the string's start in the table or not.
    for (std::size_t len = 1; len <= 9; ++len)
        for (std::size_t k = 0; k < len; ++k)
            for (const bool last : {false, true}) {
                std::vector<std::uint8_t> bytes(len, 'q');
                bytes[k] = 0x80;
                B t;
                t.varint(last ? 2 : 3).str("PER");
                const std::size_t s = t.size();
                t.varint(len << 1).raw(bytes);
                if (!last) t.str("zzzzzzzzzzzzzzzz");
                WithTable w(t);
                EXPECT_TRUE(Rejects(w.c.build(), "string.invalid-utf8", w.strings_at + s + 1 + k)) << len << " " << k << " " << last;
            }
}


TEST(StringTable, R5_AsciiRunsAcrossStringsStopAtTheFirstHighByte) {
    // The table's ASCII bytes are checked in runs that span strings; a run ends at a byte >= 0x80,
    // which may be a two-byte length (a string of 64 bytes or more) or a string's own byte. Each
    // string after it is still checked, and a bad byte is reported at its place.
    const std::string long_ascii(70, 'L');  // its length takes two bytes, the first >= 0x80
    WithTable ok(strings_content({"ab", "cd", long_ascii, "ef", "caf\xC3\xA9", "gh", long_ascii + "\xC3\xA9", "ij"}));
    Container got = Accept(ok.c.build());
    ASSERT_EQ(got.strings.size(), 9u);
    EXPECT_EQ(got.strings.view(3), long_ascii);
    EXPECT_EQ(got.strings.view(5), "caf\xC3\xA9");
    EXPECT_EQ(got.strings.view(7), long_ascii + "\xC3\xA9");
    EXPECT_EQ(got.strings.view(8), "ij");
    // A bad byte in a string after each kind of run end: after a long string's length, after a
    // valid non-ASCII string, and inside a long string that starts within a run.
    const std::vector<std::vector<std::string>> tables = {
        {"ab", long_ascii, "c\x80"},
        {"ab", "caf\xC3\xA9", "de", "f\xFF"},
        {"ab", "cd", long_ascii + "\xC3"},
        {"ab", "cd", "ef", "\xC3\xA9\x80"},
    };
    for (const auto& strings : tables) {
        B t;
        t.varint(static_cast<std::uint32_t>(strings.size()));
        std::size_t bad = 0;
        for (std::size_t i = 0; i < strings.size(); ++i) {
            if (i + 1 == strings.size()) {
                const std::size_t header = strings[i].size() << 1 >= 0x80 ? 2 : 1;
                // The last string's first bad byte: its last one in each table above.
                bad = t.size() + header + strings[i].size() - 1;
            }
            t.str(strings[i]);
        }
        WithTable w(t);
        EXPECT_TRUE(Rejects(w.c.build(), "string.invalid-utf8", w.strings_at + bad)) << strings.back();
    }
}
TEST(StringTable, R5_OddUtf16ByteCount) {
    B t;
    t.varint(1);
    const std::size_t s = t.size();
    t.varint((3 << 1) | 1).raw({0x41, 0x00, 0x42});
    WithTable w(t);
    EXPECT_TRUE(Rejects(w.c.build(), "string.odd-utf16-length", w.strings_at + s));
}

TEST(StringTable, R5_Utf16WithLoneSurrogateIsValid) {
    B t;
    t.varint(1).str16(std::u16string{u'A', 0xD800});
    WithTable w(t);
    const auto bytes = w.c.build();
    Container c = Accept(bytes);
    EXPECT_EQ(c.strings.view(1), "A\xED\xA0\x80");
    // Canonical: it stays UTF-16 (it is not well-formed), so the bytes round-trip.
    EXPECT_TRUE(SameBytes(Encode(c), bytes));
}

TEST(StringTable, R5_Utf16ThatIsWellFormedIsNonCanonical) {
    B t;
    t.varint(1).str16(std::u16string{u'P', u'E', u'R', 0xD83D, 0xDE00});
    WithTable w(t);
    Container c = Accept(w.c.build());
    EXPECT_EQ(c.strings.view(1), "PER\xF0\x9F\x98\x80");
    WithTable canon(strings_content({"PER\xF0\x9F\x98\x80"}));
    EXPECT_TRUE(SameBytes(Encode(c), canon.c.build()));
}

TEST(StringTable, R5_Utf16AnyCodeUnitsIncludingNul) {
    B t;
    t.varint(1).str16(std::u16string{0x0000, 0xFFFF, 0xDC00});
    WithTable w(t);
    Container c = Accept(w.c.build());
    EXPECT_EQ(c.strings.view(1), std::string("\x00\xEF\xBF\xBF\xED\xB0\x80", 7));
}

TEST(StringTable, R13_IndexBeyondTheTable) {
    WithTable w(strings_content({"PER"}), 2);
    // entity: count, gap, length, then the label
    EXPECT_TRUE(Rejects(w.c.build(), "table.index-out-of-range", w.ents_at + 3));
    WithTable big(strings_content({"PER"}), 0xFFFFFFFF);
    EXPECT_TRUE(Rejects(big.c.build(), "table.index-out-of-range", big.ents_at + 3));
}

TEST(StringTable, R13_IndexEqualToTheCountIsTheLastEntry) {
    WithTable w(strings_content({"A", "B", "C"}), 3);
    Container c = Accept(w.c.build());
    EXPECT_EQ(c.strings.view(c.docs[0].ents[0].label), "C");
}

TEST(StringTable, R13_AttributeIndexBeyondAnEmptyTable) {
    std::vector<Tok> toks = hello_tokens();
    toks[1].attrs[3] = 1;  // tag of token 1
    TokLayout l;
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content("Hello world"));
    const std::size_t at = c.add(3, tokens_content(toks, {}, &l));
    EXPECT_TRUE(Rejects(c.build(), "table.index-out-of-range", at + l.attrs[3][1]));
}

TEST(StringTable, R14_NonCanonicalTablesAreAccepted) {
    // A duplicate, an unused entry, a stored empty string, and first use out of order.
    WithTable w(strings_content({"unused", "PER", "", "PER"}), 4);
    const auto bytes = w.c.build();
    Container c = Accept(bytes);
    EXPECT_EQ(c.strings.size(), 5u);
    EXPECT_EQ(c.docs[0].ents[0].label, 4u);  // ids are the table's indexes, duplicates kept
    EXPECT_EQ(c.strings.view(4), "PER");
    WithTable canon(strings_content({"PER"}), 1);
    EXPECT_TRUE(SameBytes(Encode(c), canon.c.build()));
    EXPECT_NE(Encode(c), bytes);
}

TEST(StringTable, R14_UnusedEntriesAreStillChecked) {
    B t;
    t.varint(2).str("PER");
    const std::size_t s = t.size();
    t.varint(2 << 1).raw({0xC3, 0x28});
    WithTable w(t, 1);
    EXPECT_TRUE(Rejects(w.c.build(), "string.invalid-utf8", w.strings_at + s + 1));
}

TEST(StringTable, R1_TruncatedCountVarint) {
    Ctr c;
    const std::size_t at = c.add(1, B{0x80});
    c.add(2, text_content("Hello world"));
    c.add(3, tokens_content(hello_tokens()));
    EXPECT_TRUE(Rejects(c.build(), "varint.truncated", at));
}

TEST(StringTable, R1_OverlongCountAndLengthAreNonCanonical) {
    Ctr c;
    c.add(1, B{0x81, 0x00, 0x86, 0x80, 0x00}.raw("PER"));  // count 1, length 6 (3 bytes)
    c.add(2, text_content("Hello world"));
    c.add(3, tokens_content(hello_tokens()));
    c.add(4, entities_content({{0, 1, 1, 1.0f}}));
    Container got = Accept(c.build());
    EXPECT_EQ(got.strings.view(1), "PER");
    WithTable canon(strings_content({"PER"}), 1);
    EXPECT_TRUE(SameBytes(Encode(got), canon.c.build()));
}

// Validate-only keeps no record per entry: the table finds its strings again in the section.
TEST(StringTable, ValidateModeKeepsNoRecordPerEntry) {
    const B sec = B{}.varint(3).str("").str("PER").str16(u"c\xD800");
    for (int mode = 0; mode < 2; ++mode) {
        detail::TableView table;
        detail::Cursor c(sec.bytes(), 100);
        StringStore store;  // DecodeMode's values come from the store it builds
        if (mode == 0)
            detail::decode_string_table_section<detail::ValidateMode>(c, table, nullptr, nullptr);
        else
            detail::decode_string_table_section<detail::DecodeMode>(c, table, &store, nullptr);
        EXPECT_TRUE(table.entries.empty());
        ASSERT_EQ(table.count(), 3u);
        EXPECT_TRUE(table.is_stored_empty(1));
        EXPECT_FALSE(table.is_stored_empty(2));
        EXPECT_FALSE(table.is_stored_empty(3));
        const detail::RawString per = table.entry(2);
        EXPECT_EQ(per.offset, 102u);
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(per.data), per.size), "PER");
        EXPECT_FALSE(per.utf16);
        const detail::RawString lone = table.entry(3);
        EXPECT_EQ(lone.offset, 106u);
        EXPECT_TRUE(lone.utf16);
        EXPECT_EQ(lone.size, 4u);
        std::forward_list<std::string> converted;
        EXPECT_EQ(table.value(3, converted), "c\xED\xA0\x80");
    }
}

// A value is seen in place where it can be (the store being built, a UTF-8 entry in the section)
// and converted, once, into storage the caller keeps where it cannot (a UTF-16 entry).
TEST(StringTable, ValueIsSeenInPlaceOrConvertedOnce) {
    const B sec = B{}.varint(3).str("PER").str16(u"c\xD800").str16(u"ORG");
    for (int mode = 0; mode < 2; ++mode) {
        SCOPED_TRACE(mode == 0 ? "validate" : "decode");
        detail::TableView table;
        detail::Cursor c(sec.bytes(), 0);
        StringStore store;
        if (mode == 0)
            detail::decode_string_table_section<detail::ValidateMode>(c, table, nullptr, nullptr);
        else
            detail::decode_string_table_section<detail::DecodeMode>(c, table, &store, nullptr);
        std::forward_list<std::string> converted;
        EXPECT_EQ(table.value(0, converted), "");
        const std::string_view per = table.value(1, converted);
        EXPECT_EQ(per, "PER");
        const std::string_view lone = table.value(2, converted);
        EXPECT_EQ(lone, "c\xED\xA0\x80");
        const std::string_view org = table.value(3, converted);
        EXPECT_EQ(org, "ORG");
        if (mode == 0) {
            // "PER" is the section's own bytes (after the count and its length); the two UTF-16
            // entries were converted, each into an element of its own.
            EXPECT_EQ(static_cast<const void*>(per.data()), static_cast<const void*>(sec.bytes().data() + 2));
            EXPECT_EQ(std::distance(converted.begin(), converted.end()), 2);
        } else {
            EXPECT_EQ(per.data(), store.view(1).data());
            EXPECT_EQ(lone.data(), store.view(2).data());
            EXPECT_TRUE(converted.empty());
        }
        // An earlier view stays valid after later conversions.
        for (int i = 0; i < 100; ++i) (void)table.value(2, converted);
        EXPECT_EQ(lone, "c\xED\xA0\x80");
        EXPECT_EQ(org, "ORG");
    }
    // Entries filled one by one (unit tests, fuzz harnesses) are seen the same way.
    detail::TableView filled;
    const std::uint8_t utf8[] = {'L', 'O', 'C'};
    const std::uint8_t utf16[] = {'M', 0, 'I', 0};
    filled.entries = {detail::RawString{utf8, 3, false, 0}, detail::RawString{utf16, 4, true, 0}};
    std::forward_list<std::string> converted;
    const std::string_view loc = filled.value(1, converted);
    EXPECT_EQ(static_cast<const void*>(loc.data()), static_cast<const void*>(utf8));
    EXPECT_EQ(loc.size(), 3u);
    EXPECT_EQ(filled.value(2, converted), "MI");
}

}  // namespace
}  // namespace ond
