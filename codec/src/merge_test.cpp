// Documents moving between containers: a string id means something only in its own store, so
// a Doc from another container is refused by push_back and re-interned by append, merge, pack
// and split (include/ond/model.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ond/builder.hpp"
#include "ond/error.hpp"
#include "ond/reader.hpp"
#include "ond/result.hpp"
#include "ond/view.hpp"
#include "ond/writer.hpp"

namespace ond {
namespace {

// A bin whose documents' labels are interned in an order of its own, so that the same id means
// different strings in two of them.
Container bin_of(std::vector<std::pair<std::string, std::string>> words_and_pos, std::string_view first_label) {
    Container c;
    c.format = Format::ondb;
    c.strings.intern(first_label);  // shifts every later id
    for (const auto& [word, pos] : words_and_pos) {
        DocBuilder b(c, word);
        b.token(word).pos(pos).lemma(word);
        b.entity(0, 1, "ORG");
    }
    return c;
}

std::string error_code(auto&& f) {
    try {
        f();
    } catch (const Error& e) {
        return std::string(e.code()) + " " + e.path();
    }
    return "none";
}

TEST(DocMoves, AForeignDocIsRefusedByPushBackNotRelabelled) {
    // The trap: "PROPN/apple" from one container read back as other strings in another.
    Container a = bin_of({{"apple", "PROPN"}}, "zzz");
    Container b = bin_of({{"x", "X"}, {"y", "Y"}}, "");
    ASSERT_NE(a.strings.view(a.docs[0].tokens.attrs[2][0]), b.strings.view(a.docs[0].tokens.attrs[2][0]));
    const Doc d = a.docs[0].to_doc();
    EXPECT_EQ(d.origin, a.strings.id());
    EXPECT_EQ(error_code([&] { b.docs.push_back(d); }), "content.bad-string-id ");
    EXPECT_EQ(b.docs.size(), 2u);  // left as it was
    EXPECT_EQ(error_code([&] { b.docs.replace(0, d); }), "content.bad-string-id ");
    EXPECT_EQ(b.doc(0).token(0).pos(), "X");
    // The same Doc taken through a view carries the same origin.
    EXPECT_EQ(a.doc(0).to_doc().origin, a.strings.id());
    EXPECT_EQ(error_code([&] { b.docs.push_back(a.doc(0).to_doc()); }), "content.bad-string-id ");
}

TEST(DocMoves, AppendReinternsAndTheBytesSayTheSame) {
    Container a = bin_of({{"apple", "PROPN"}}, "zzz");
    Container b = bin_of({{"x", "X"}}, "");
    b.append(a.doc(0));
    ASSERT_EQ(b.docs.size(), 2u);
    EXPECT_EQ(b.doc(1).token(0).pos(), "PROPN");
    EXPECT_EQ(b.doc(1).token(0).lemma(), "apple");
    EXPECT_EQ(b.doc(1).ents()[0].label(), "ORG");
    const Container back = decode(encode(b));
    EXPECT_EQ(back.doc(1).token(0).pos(), "PROPN");
    EXPECT_EQ(back.doc(0).token(0).pos(), "X");
    // A Doc and the store its ids index.
    b.append(a.docs[0].to_doc(), a.strings);
    EXPECT_EQ(b.doc(2).token(0).pos(), "PROPN");
    // A Doc given with a store it does not come from is refused, not relabelled.
    EXPECT_EQ(error_code([&] { b.append(a.docs[0].to_doc(), b.strings); }), "content.bad-string-id ");
    EXPECT_EQ(b.docs.size(), 3u);
    // A container's own document, appended to itself (its buffers grow under the view).
    b.append(b.doc(1));
    EXPECT_EQ(b.doc(3).token(0).text(), "apple");
    EXPECT_EQ(b.doc(3).token(0).pos(), "PROPN");
}

// An id outside the store given with a Doc is refused even when strings interned after it (a
// category's, a span group's) would make its stand-in a real id of the target; nothing is added.
TEST(DocMoves, AppendRefusesAStrayIdThatLaterStringsWouldMakeReal) {
    Container c = bin_of({{"apple", "PROPN"}}, "");
    Doc d = c.docs.to_doc(0);
    d.has_cats = true;
    d.cats.push_back({c.strings.intern("SPORTS"), 0.5f});
    d.spans.push_back({c.strings.intern("sc"), {{0, 1, c.strings.intern("LOC"), 1.0f}}});
    d.ents[0].label = static_cast<StringId>(c.strings.size());
    Container a;
    EXPECT_EQ(error_code([&] { a.append(d, c.strings); }), "content.bad-string-id ");
    EXPECT_TRUE(a.docs.empty());
    EXPECT_EQ(a.strings.size(), Container{}.strings.size());
}

TEST(DocMoves, AnIdOutOfTheStoreIsRefusedAtPushBackAndNeverReadOutOfBounds) {
    Container c;
    Doc d;
    d.set_text("ab");
    d.tokens.resize(1);
    d.tokens.length[0] = 1;
    d.tokens.column(TokenColumn::pos)[0] = 7;
    EXPECT_EQ(error_code([&] { c.docs.push_back(d); }), "content.bad-string-id tokens[0].pos");
    EXPECT_TRUE(c.docs.empty());
    d.tokens.column(TokenColumn::pos)[0] = 0;
    d.has_ents = true;
    d.ents.push_back({0, 1, 3, 1.0f});
    EXPECT_EQ(error_code([&] { c.docs.push_back(d); }), "content.bad-string-id ents[0].label");
    d.ents.clear();
    d.spans.push_back({c.strings.intern("sc"), {{0, 1, 9, 1.0f}}});
    EXPECT_EQ(error_code([&] { c.docs.push_back(d); }), "content.bad-string-id spans[0].spans[0].label");
    // A store answers an id it never handed out with "", not with bytes past its end.
    EXPECT_EQ(c.strings.view(7), "");
    EXPECT_EQ(c.strings.view(~StringId{0}), "");
}

TEST(DocMoves, ACopiedStoreTakesDocsOfItsSourceWhileTheirIdsAreShared) {
    Container a = bin_of({{"apple", "PROPN"}}, "zzz");
    Container copy = a;  // ids [0, a.strings.size()) mean the same in both
    EXPECT_NE(copy.strings.id(), a.strings.id());
    copy.docs.push_back(a.docs[0].to_doc());
    EXPECT_EQ(copy.doc(1).token(0).pos(), "PROPN");
    // After the copy both stores grow apart: a's new id is not copy's.
    Container later;
    later.strings = a.strings;
    a.strings.intern("only-in-a");
    copy.strings.intern("only-in-copy");
    DocBuilder(a, "pear").token("pear").pos("only-in-a");
    EXPECT_EQ(error_code([&] { copy.docs.push_back(a.docs[1].to_doc()); }),
              "content.bad-string-id tokens[0].pos");
    // A store copied from a copy remembers both sources.
    Container third;
    third.strings = later.strings;
    third.docs.push_back(a.docs[0].to_doc());
    EXPECT_EQ(third.doc(0).token(0).pos(), "PROPN");
    EXPECT_EQ(error_code([&] { third.docs.push_back(copy.docs[0].to_doc()); }), "content.bad-string-id ");
    // A moved container keeps its store's identity: Docs taken before the move still fit.
    const Doc before = copy.docs[0].to_doc();
    Container moved = std::move(copy);
    moved.docs.push_back(before);
    EXPECT_EQ(moved.doc(moved.docs.size() - 1).token(0).pos(), "PROPN");
}

TEST(DocMoves, ADecodeIntoAContainerStartsANewStore) {
    Container c = bin_of({{"apple", "PROPN"}}, "zzz");
    const Doc old = c.docs[0].to_doc();
    decode_into(encode(bin_of({{"x", "X"}}, "")), c);
    EXPECT_EQ(error_code([&] { c.docs.push_back(old); }), "content.bad-string-id ");
    c.strings.clear();
    EXPECT_EQ(c.strings.ids_shared_with(old.origin), 0u);
}

TEST(DocMoves, ReaderRecordsGoToAnyContainerByAppend) {
    const std::vector<std::byte> bytes = encode(bin_of({{"apple", "PROPN"}, {"pear", "NOUN"}}, "zzz"));
    Container out = bin_of({{"x", "X"}}, "");
    DocBinReader r{Bytes(bytes)};
    Doc d;
    ASSERT_TRUE(r.next(d));
    EXPECT_EQ(d.origin, r.strings().id());
    EXPECT_EQ(error_code([&] { out.docs.push_back(d); }), "content.bad-string-id ");
    out.append(d, r.strings());
    ASSERT_TRUE(r.next());
    out.append(r.doc());
    ASSERT_EQ(out.docs.size(), 3u);
    EXPECT_EQ(out.doc(1).token(0).pos(), "PROPN");
    EXPECT_EQ(out.doc(2).token(0).pos(), "NOUN");
    // A container made from the reader's strings takes its Docs as they are.
    Container same;
    same.format = Format::ondb;
    same.strings = r.strings();
    same.docs.push_back(d);
    EXPECT_EQ(same.doc(0).token(0).pos(), "PROPN");
}

TEST(DocMoves, MergePackAndSplitAreOneCallEach) {
    const Container a = bin_of({{"apple", "PROPN"}, {"pear", "NOUN"}}, "zzz");
    const Container b = bin_of({{"x", "X"}, {"apple", "NOUN"}, {"plum", "PROPN"}}, "");
    Container m = a;
    merge(m, b);
    ASSERT_EQ(m.docs.size(), 5u);
    const std::vector<std::string> pos = {"PROPN", "NOUN", "X", "NOUN", "PROPN"};
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(m.doc(i).token(0).pos(), pos[i]) << i;
    EXPECT_TRUE(same_doc(m.docs[3], m.strings, b.docs[1], b.strings));
    // Each distinct string is interned once: "NOUN", "PROPN", "apple", "ORG" are not repeated.
    EXPECT_EQ(m.strings.size(), a.strings.size() + 3);  // + "X", "x", "plum"
    EXPECT_TRUE(same_content(decode(encode(m)), m));

    // Merging a container into itself doubles it once.
    Container twice = b;
    merge(twice, twice);
    EXPECT_EQ(twice.docs.size(), 6u);
    EXPECT_TRUE(same_doc(twice.docs[5], twice.strings, b.docs[2], b.strings));

    // Packing ONDC containers into a bin.
    std::vector<Container> files(2);
    DocBuilder(files[0], "one").token("one").pos("NUM");
    DocBuilder(files[1], "two").token("two").pos("NUM").lemma("2");
    const Container packed = pack(files);
    EXPECT_EQ(packed.format, Format::ondb);
    ASSERT_EQ(packed.docs.size(), 2u);
    EXPECT_EQ(packed.doc(1).token(0).lemma(), "2");
    EXPECT_TRUE(same_content(decode(encode(packed)), packed));

    // Splitting a bin: parts of at most 2, each with only its own strings.
    const std::vector<Container> parts = split(m, 2, Format::ondb);
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[2].docs.size(), 1u);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_TRUE(same_doc(parts[i / 2].docs[i % 2], parts[i / 2].strings, m.docs[i], m.strings)) << i;
    EXPECT_EQ(parts[2].strings.size(), 4u);  // "", "PROPN", "plum", "ORG"
    // Into ONDC files, one record each.
    const std::vector<Container> ondc = split(m, 1, Format::ondc);
    ASSERT_EQ(ondc.size(), 5u);
    EXPECT_EQ(ondc[4].format, Format::ondc);
    const Container plum = decode(encode(ondc[4]));
    EXPECT_EQ(plum.doc(0).token(0).text(), "plum");
}

}  // namespace
}  // namespace ond
