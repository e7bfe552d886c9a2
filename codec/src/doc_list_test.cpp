// DocList (ond/doc_list.hpp): documents in shared columns. Whole documents go in and come out
// unchanged whatever is done around them, edits of one leave the others as they were, cutting
// gives back the buffers' rows, and a read into a used container neither keeps old documents
// nor leaves half-read ones behind.
#include "ond/doc_list.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ond/error.hpp"
#include "ond/reader.hpp"
#include "ond/writer.hpp"
#include "ond/internal/doc_list_build.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

// A Doc whose every field says which document it is: text "d<k> ...", k + 1 tokens with
// attribute id k + c + 1 in column c, heads to token 0, one entity, one category and two
// span groups when `extras`.
Doc numbered(std::uint32_t k, bool extras) {
    Doc d;
    std::string text = "d" + std::to_string(k);
    for (std::uint32_t i = 0; i < k; ++i) text += " x";
    d.set_text(text);
    const std::uint32_t n = k + 1;
    d.tokens.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        d.tokens.start[i] = i == 0 ? 0 : static_cast<std::uint32_t>(std::to_string(k).size() + 2 * i);
        d.tokens.length[i] = i == 0 ? static_cast<std::uint32_t>(std::to_string(k).size() + 1) : 1;
        for (std::size_t c = 0; c < token_column_count; ++c) d.tokens.attrs[c][i] = static_cast<StringId>(k + c + 1);
        d.tokens.head[i] = 0;
        d.tokens.sent[i] = i == 0 ? Sentence::start : Sentence::inside;
        d.tokens.conf[i] = 0.5f;
    }
    d.has_ents = true;
    d.ents.push_back({0, 1, k + 1, 0.25f});
    if (extras) {
        d.has_cats = true;
        d.cats.push_back({k + 2, 0.75f});
        d.spans.push_back({k + 3, {{0, 1, k + 4, 1.0f}}});
        d.spans.push_back({k + 5, {{0, n, k + 6, 0.5f}, {0, 1, k + 7, 0.5f}}});
    }
    return d;
}

// Field by field, ids compared as ids (one store here).
void expect_same(const DocSlice& s, const Doc& d, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(s.text, d.text);
    EXPECT_EQ(s.text_utf16_length, d.text_utf16_length());
    ASSERT_EQ(s.tokens.size(), d.tokens.size());
    EXPECT_TRUE(std::ranges::equal(s.tokens.start, d.tokens.start));
    EXPECT_TRUE(std::ranges::equal(s.tokens.length, d.tokens.length));
    for (std::size_t c = 0; c < token_column_count; ++c) EXPECT_TRUE(std::ranges::equal(s.tokens.attrs[c], d.tokens.attrs[c]));
    EXPECT_TRUE(std::ranges::equal(s.tokens.head, d.tokens.head));
    EXPECT_TRUE(std::ranges::equal(s.tokens.sent, d.tokens.sent));
    EXPECT_TRUE(std::ranges::equal(s.tokens.conf, d.tokens.conf));
    EXPECT_EQ(s.has_ents, d.has_ents);
    ASSERT_EQ(s.ents.size(), d.ents.size());
    for (std::size_t i = 0; i < d.ents.size(); ++i) EXPECT_EQ(s.ents[i].label, d.ents[i].label);
    EXPECT_EQ(s.has_cats, d.has_cats);
    ASSERT_EQ(s.cats.size(), d.cats.size());
    for (std::size_t i = 0; i < d.cats.size(); ++i) EXPECT_EQ(s.cats[i].label, d.cats[i].label);
    ASSERT_EQ(s.spans.size(), d.spans.size());
    for (std::size_t g = 0; g < d.spans.size(); ++g) {
        EXPECT_EQ(s.spans[g].name, d.spans[g].name);
        ASSERT_EQ(s.spans[g].spans.size(), d.spans[g].spans.size());
        for (std::size_t i = 0; i < d.spans[g].spans.size(); ++i) EXPECT_EQ(s.spans[g].spans[i].label, d.spans[g].spans[i].label);
    }
}

TEST(DocList, WholeDocumentsComeBackAsTheyWent) {
    DocList l;
    std::vector<Doc> docs;
    for (std::uint32_t k = 0; k < 5; ++k) docs.push_back(numbered(k, k % 2 == 1));
    for (const Doc& d : docs) l.push_back(d);
    ASSERT_EQ(l.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k) {
        expect_same(l[k], docs[k], "doc " + std::to_string(k));
        DocList copy;
        copy.push_back(l.to_doc(k));
        expect_same(copy[0], docs[k], "to_doc " + std::to_string(k));
    }
    std::size_t k = 0;
    for (DocSlice s : l) expect_same(s, docs[k++], "range");
    EXPECT_EQ(k, 5u);
    // The columns hold the documents back to back.
    EXPECT_EQ(l.token_columns().size(), 1u + 2 + 3 + 4 + 5);
    EXPECT_EQ(l.first_token(3), 1u + 2 + 3);
}

// One more token over " more" at the end of the text, and one more of everything else.
void grow(Doc& d) {
    d.set_text(d.text + " more");
    d.tokens.start.push_back(static_cast<std::uint32_t>(d.text.size() - 4));
    d.tokens.length.push_back(4);
    for (auto& col : d.tokens.attrs) col.push_back(99);
    d.tokens.head.push_back(0);
    d.tokens.sent.push_back(Sentence::inside);
    d.tokens.conf.push_back(1.0f);
    d.ents.push_back({1, 1, 98, 1.0f});
    d.cats.push_back({97, 0.0f});
    d.spans.push_back({96, {{0, 1, 95, 1.0f}}});
}

TEST(DocList, EditingOneDocumentLeavesTheOthers) {
    for (std::size_t target = 0; target < 4; ++target) {
        DocList l;
        std::vector<Doc> docs;
        for (std::uint32_t k = 0; k < 4; ++k) docs.push_back(numbered(k, true));
        for (const Doc& d : docs) l.push_back(d);
        // Grow every part of the target: more tokens, text, an entity, a category, a group.
        l.edit(target, grow);
        Doc grown = docs[target];
        grow(grown);
        for (std::size_t k = 0; k < 4; ++k)
            expect_same(l[k], k == target ? grown : docs[k], "edit " + std::to_string(target) + ", doc " + std::to_string(k));
        // And shrinking it back gives the list it was.
        l.replace(target, docs[target]);
        for (std::size_t k = 0; k < 4; ++k) expect_same(l[k], docs[k], "replace back, doc " + std::to_string(k));
    }
}

TEST(DocList, CuttingGivesBackTheRowsAndKeepsTheCapacity) {
    DocList l;
    for (std::uint32_t k = 0; k < 4; ++k) l.push_back(numbered(k, true));
    const std::size_t capacity = l.token_columns().capacity();
    l.pop_back();
    EXPECT_EQ(l.size(), 3u);
    EXPECT_EQ(l.token_columns().size(), 1u + 2 + 3);
    l.push_back(numbered(7, true));
    expect_same(l[3], numbered(7, true), "pushed after pop_back");
    expect_same(l[2], numbered(2, true), "kept");
    l.resize(1);
    EXPECT_EQ(l.token_columns().size(), 1u);
    EXPECT_EQ(l.texts(), "d0");
    l.resize(3);  // two empty documents
    EXPECT_EQ(l[2].tokens.size(), 0u);
    EXPECT_EQ(l[2].text, "");
    EXPECT_FALSE(l[2].has_ents);
    EXPECT_EQ(l[2].spans.size(), 0u);
    l.clear();
    EXPECT_TRUE(l.empty());
    EXPECT_EQ(l.token_columns().size(), 0u);
    EXPECT_GE(l.token_columns().capacity(), capacity);
}

TEST(DocList, TheLastDocumentGrowsInPlaceGroupByGroup) {
    // DocBuilder and the readers grow the last document; a span may go to an earlier group of it.
    DocList l;
    l.push_back(numbered(1, true));
    detail::DocListBuild b(l);
    b.open_doc();
    b.text_buffer().append("a b");
    b.close_text(3);
    const detail::TokenRows rows = b.resize_tokens(2);
    for (std::uint32_t i = 0; i < 2; ++i) {
        rows.start[i] = 2 * i;
        rows.length[i] = 1;
        for (std::uint16_t* col : rows.narrow_attrs) col[i] = 0;  // a DocList on its own starts narrow
        rows.head[i] = static_cast<std::int32_t>(i);
        rows.sent[i] = Sentence::unset;
        rows.conf[i] = 1.0f;
    }
    b.add_span_group(10);
    b.add_span_group(20);
    b.add_span(1, {1, 1, 21, 1.0f});
    b.add_span(0, {0, 1, 11, 1.0f});  // into the first group, before the second's span
    b.add_span(1, {0, 2, 22, 1.0f});
    const DocSlice s = l[1];
    EXPECT_EQ(s.text, "a b");
    ASSERT_EQ(s.spans.size(), 2u);
    EXPECT_EQ(s.spans[0].name, 10u);
    ASSERT_EQ(s.spans[0].spans.size(), 1u);
    EXPECT_EQ(s.spans[0].spans[0].label, 11u);
    ASSERT_EQ(s.spans[1].spans.size(), 2u);
    EXPECT_EQ(s.spans[1].spans[0].label, 21u);
    EXPECT_EQ(s.spans[1].spans[1].label, 22u);
    expect_same(l[0], numbered(1, true), "the document before");
}

TEST(DocList, AReadThatFailsLeavesNoDocuments) {
    // A container read into again: the old documents go; a read that throws part-way through a
    // record leaves none (not a half-read one with rows never written).
    Container full = test::ondc("one two");
    test::add_token(full, 0, 0, 3, 0);
    test::add_token(full, 0, 4, 3, 0);
    full.format = Format::ondb;
    full.crc = false;
    full.docs.push_back(full.docs.to_doc(0));
    const std::vector<std::byte> bytes = encode(full);
    Container reused;
    decode_into(bytes, reused);
    ASSERT_EQ(reused.docs.size(), 2u);
    std::vector<std::byte> cut = bytes;
    cut.back() = std::byte{0x07};  // the last record's last byte, its confidence mode: 7 is none
    try {
        decode(cut);
        ADD_FAILURE() << "a confidence mode of 7 was read";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), "tokens.bad-confidence-mode");
        EXPECT_EQ(e.offset(), cut.size() - 1);
    }
    EXPECT_THROW(decode_into(cut, reused), Error);
    EXPECT_TRUE(reused.docs.empty());
    EXPECT_EQ(reused.docs.token_columns().size(), 0u);
    decode_into(bytes, reused);
    EXPECT_TRUE(same_content(reused, full));
}

}  // namespace
}  // namespace ond
