// The attribute columns (IdColumn) take 2 bytes an id while the ids fit, 4 from the first one
// that does not: a read fits every column to its table's count, and every way of writing an id
// (push_back, set_attr, the builder, rewrite_attr) widens the column it writes when the id needs
// it. Whatever the widths, every reader of the model sees the same ids and strings.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ond/builder.hpp"
#include "ond/doc_list.hpp"
#include "ond/reader.hpp"
#include "ond/view.hpp"
#include "ond/writer.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

std::vector<StringId> values(const IdColumn& c) { return {c.begin(), c.end()}; }

std::vector<bool> widths(const Container& c) {
    std::vector<bool> out;
    for (const IdColumn& col : c.docs.token_columns().attrs) out.push_back(col.wide());
    return out;
}
const std::vector<bool> all_narrow(token_column_count, false), all_wide(token_column_count, true);

// Column `col` of every token of every document as strings, read four ways: the slice's
// subscript, its visit, the view and to_doc; they must agree.
std::vector<std::string> strings_of(const Container& c, TokenColumn col) {
    std::vector<std::string> out;
    for (std::size_t d = 0; d < c.docs.size(); ++d) {
        const DocSlice s = c.docs[d];
        const Ids ids = s.tokens.column(col);
        std::vector<StringId> visited;
        ids.visit([&](auto span) { visited.assign(span.begin(), span.end()); });
        EXPECT_EQ(visited, std::vector<StringId>(ids.begin(), ids.end()));
        EXPECT_EQ(s.to_doc().tokens.column(col), visited);
        std::size_t i = 0;
        for (const TokenView t : c.doc(d).tokens()) {
            EXPECT_EQ(t.attr_id(col), ids[i]);
            out.emplace_back(t.attr(col));
            ++i;
        }
    }
    return out;
}

// One document of `n` one-letter tokens over "aaa…"; token i's norm is norms(i), its pos "X".
template <class Norm>
Container letters(std::size_t n, Norm norms, Format format = Format::ondb) {
    Container c;
    c.format = format;
    Doc d;
    d.set_text(std::string(n, 'a'));
    for (std::size_t i = 0; i < n; ++i)
        add_token(c, d, static_cast<std::uint32_t>(i), 1, static_cast<std::int32_t>(i), {norms(i), "", "X", "", "", ""});
    c.docs.push_back(d);
    return c;
}
std::string norm_of(std::size_t i) { return "n" + std::to_string(i); }

TEST(IdColumn, SetWidensOnceAndKeepsEveryValue) {
    IdColumn c;
    c.resize(5);
    for (std::size_t i = 0; i < 5; ++i) c.set(i, static_cast<StringId>(i + 1));
    c.set(4, narrow_id_max);  // still fits
    EXPECT_FALSE(c.wide());
    EXPECT_EQ(values(c), (std::vector<StringId>{1, 2, 3, 4, 0xFFFF}));
    c.set(2, narrow_id_max + 1);
    EXPECT_TRUE(c.wide());
    EXPECT_EQ(values(c), (std::vector<StringId>{1, 2, 0x10000, 4, 0xFFFF}));
    c.set(2, 7);  // it stays wide
    EXPECT_TRUE(c.wide());
    EXPECT_EQ(c[2], 7u);
}

// Issue 37: an Ids held while its list widens the column (set_attr with an id past 65,535)
// reads the column where it is now, new value included; under ASan the old form (a pointer to
// the freed 2-byte rows) was a heap use-after-free.
TEST(IdColumn, AnIdsHeldAcrossAWideningReadsTheWidenedColumn) {
    Container c = letters(3, norm_of);
    const Ids pos = c.docs[0].tokens.column(TokenColumn::pos);
    const Ids norms = c.docs[0].tokens.column(TokenColumn::norm);
    ASSERT_FALSE(pos.wide());
    for (std::size_t i = 0; i < narrow_id_max + 1; ++i) c.strings.intern("x" + std::to_string(i));
    c.set_attr(0, 1, TokenColumn::pos, "x65535");  // an id past narrow_id_max: the column widens
    const StringId wide_id = c.strings.intern("x65535");
    ASSERT_GT(wide_id, narrow_id_max);
    EXPECT_TRUE(pos.wide());
    EXPECT_EQ(std::vector<StringId>(pos.begin(), pos.end()),
              (std::vector<StringId>{c.strings.intern("X"), wide_id, c.strings.intern("X")}));
    EXPECT_EQ(pos.visit([](auto span) { return StringId{span[1]}; }), wide_id);
    EXPECT_EQ(pos.subspan(1, 2)[0], wide_id);
    EXPECT_EQ(c.strings.view(norms[2]), "n2");  // the other columns' views are untouched
    // Growing the list (its columns reallocate) leaves the view reading the same rows.
    for (int k = 0; k < 20; ++k) c.docs.push_back(c.docs[0].to_doc());
    EXPECT_EQ(pos[1], wide_id);
    EXPECT_EQ(c.strings.view(norms[0]), "n0");
}

TEST(IdColumn, AssignWidensOnlyWhenAnIdNeedsIt) {
    IdColumn c;
    c.resize(4);
    c.assign(0, std::vector<StringId>{9, 8});
    c.assign(2, std::vector<StringId>{0xFFFF, 0});
    EXPECT_FALSE(c.wide());
    EXPECT_EQ(values(c), (std::vector<StringId>{9, 8, 0xFFFF, 0}));
    c.assign(1, std::vector<StringId>{1, 0xFFFFFFFF});
    EXPECT_TRUE(c.wide());
    EXPECT_EQ(values(c), (std::vector<StringId>{9, 1, 0xFFFFFFFF, 0}));
    EXPECT_EQ(c.ids(1, 2)[1], 0xFFFFFFFFu);
    EXPECT_EQ(c.ids().subspan(2, 2)[0], 0xFFFFFFFFu);
}

TEST(IdColumn, ASmallTableIsReadTwoBytesAnId) {
    const Container built = letters(300, norm_of);  // 1,800 indexes: past the reader's stack buffer
    const auto bytes = Encode(built);
    const Container c = decode(view(bytes));
    EXPECT_EQ(widths(c), all_narrow);
    std::vector<std::string> want;
    for (std::size_t i = 0; i < 300; ++i) want.push_back(norm_of(i));
    EXPECT_EQ(strings_of(c, TokenColumn::norm), want);
    EXPECT_EQ(strings_of(c, TokenColumn::pos), std::vector<std::string>(300, "X"));
    EXPECT_EQ(Encode(c), bytes);
}

TEST(IdColumn, ATableOfMoreThan65535StringsIsReadFourBytesAnId) {
    constexpr std::size_t n = 70'000;
    const Container built = letters(n, norm_of);
    // Built by push_back: only the column that holds the large ids widened.
    std::vector<bool> want_built = all_narrow;
    want_built[static_cast<std::size_t>(TokenColumn::norm)] = true;
    EXPECT_EQ(widths(built), want_built);
    const auto bytes = Encode(built);
    const Container c = decode(view(bytes));
    EXPECT_EQ(widths(c), all_wide);  // fitted to the table's count before any id is read
    const std::vector<std::string> norms = strings_of(c, TokenColumn::norm);
    ASSERT_EQ(norms.size(), n);
    for (std::size_t i : {std::size_t{0}, std::size_t{65'534}, std::size_t{65'535}, n - 1}) EXPECT_EQ(norms[i], norm_of(i)) << i;
    EXPECT_TRUE(same_content(c, built));
    EXPECT_EQ(Encode(c), bytes);
}

TEST(IdColumn, TheBuilderWidensAtItsFirstLargeId) {
    Container c;
    c.format = Format::ondb;
    for (std::size_t i = 0; i < narrow_id_max + 1; ++i) c.strings.intern(norm_of(i));
    DocBuilder b(c, "one two");
    b.token("one").pos(norm_of(0));
    EXPECT_EQ(widths(c), all_narrow);
    b.token("two").pos(norm_of(narrow_id_max));  // id 0x10000 (0 is the empty string)
    EXPECT_EQ(c.docs[0].tokens.column(TokenColumn::pos)[1], 0x10000u);
    EXPECT_TRUE(c.docs.token_columns().attrs[static_cast<std::size_t>(TokenColumn::pos)].wide());
    EXPECT_EQ(strings_of(c, TokenColumn::pos), (std::vector<std::string>{norm_of(0), norm_of(narrow_id_max)}));
    EXPECT_TRUE(same_content(decode(view(Encode(c))), c));
}

TEST(IdColumn, SetAttrAndRewriteAttrWidenTheColumnTheyWrite) {
    Container c = letters(3, norm_of);
    for (std::size_t i = 0; i < narrow_id_max + 1; ++i) c.strings.intern("x" + std::to_string(i));
    c.set_attr(0, 1, TokenColumn::tag, "x65535");
    c.rewrite_attr(TokenColumn::lemma, [](std::string_view) { return "a new lemma"; });
    std::vector<bool> want = all_narrow;
    want[static_cast<std::size_t>(TokenColumn::tag)] = true;
    want[static_cast<std::size_t>(TokenColumn::lemma)] = true;
    EXPECT_EQ(widths(c), want);
    EXPECT_EQ(strings_of(c, TokenColumn::tag), (std::vector<std::string>{"", "x65535", ""}));
    EXPECT_EQ(strings_of(c, TokenColumn::lemma), std::vector<std::string>(3, "a new lemma"));
    EXPECT_EQ(strings_of(c, TokenColumn::norm), (std::vector<std::string>{"n0", "n1", "n2"}));
}

TEST(IdColumn, AReadIntoAListOfMixedWidthsFillsEachColumnAtItsWidth) {
    // A short document (the reader's stack buffer) and a long one (its blocks), each read into
    // a container whose tag column is wide and whose other columns are narrow.
    for (std::size_t n : {std::size_t{4}, std::size_t{1'500}}) {
        const auto bytes = Encode(letters(n, norm_of));
        Container c = letters(1, norm_of);
        for (std::size_t i = 0; i < narrow_id_max + 1; ++i) c.strings.intern("x" + std::to_string(i));
        c.set_attr(0, 0, TokenColumn::tag, "x65535");
        decode_into(view(bytes), c);
        std::vector<bool> want = all_narrow;
        want[static_cast<std::size_t>(TokenColumn::tag)] = true;  // a list's column never narrows again
        EXPECT_EQ(widths(c), want) << n;
        EXPECT_TRUE(same_content(c, decode(view(bytes)))) << n;
        EXPECT_EQ(strings_of(c, TokenColumn::norm).back(), norm_of(n - 1)) << n;
        EXPECT_EQ(Encode(c), bytes) << n;
    }
}

TEST(IdColumn, TwoBytesAnIdHalveTheColumnsOfASmallTable) {
    const Container c = decode(view(Encode(letters(1'000, norm_of))));
    for (const IdColumn& col : c.docs.token_columns().attrs) {
        EXPECT_FALSE(col.wide());
        EXPECT_GE(col.capacity(), 1'000u);
        EXPECT_TRUE(col.ids().visit([](auto span) { return sizeof(span[0]) == 2; }));
    }
}

}  // namespace
}  // namespace ond
