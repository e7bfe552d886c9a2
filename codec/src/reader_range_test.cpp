// The readers as ranges: DocBinReader in a range-for sees every record and throws as next()
// does; StreamReader::next(Container&) keeps the container's capacity; the stream's range form.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ond/ond.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

const std::filesystem::path range_cases_dir = OND_CORPUS_CASES;

std::vector<std::byte> range_case(const char* name) { return load_file(range_cases_dir / name); }

std::istringstream stream_of(const char* name) {
    const auto bytes = range_case(name);
    return std::istringstream(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

TEST(DocBinReaderRange, SeesEveryRecordAsDecodeDoes) {
    for (const char* name : {"valid/document/bin-60-docs-crc.ondb", "valid/bin/utf16-record-text.ondb",
                             "valid/bin/empty-records.ondb", "valid/document/bin-large-records.ondb"}) {
        SCOPED_TRACE(name);
        const auto bytes = range_case(name);
        const Container whole = decode(Bytes(bytes));
        std::size_t n = 0;
        for (const RecordView& doc : DocBinReader(bytes)) {
            ASSERT_LT(n, whole.docs.size());
            EXPECT_TRUE(same_doc(doc.slice(), doc.strings(), whole.docs[n], whole.strings)) << n;
            ++n;
        }
        EXPECT_EQ(n, whole.docs.size());
    }
}

TEST(DocBinReaderRange, KeepsBytesGivenAsATemporary) {
    // The vector from load_file dies at the end of the range-init expression; the reader keeps
    // it (ASan would catch a read of the freed bytes).
    std::size_t n = 0;
    for (const RecordView& doc : DocBinReader(range_case("valid/document/bin-60-docs.ondb"))) n += doc.size();
    EXPECT_EQ(n, 840u);
    std::vector<std::byte> bytes = range_case("valid/bin/three-records.ondb");
    DocBinReader reader(std::move(bytes));
    std::size_t records = 0;
    for ([[maybe_unused]] const RecordView& doc : reader) ++records;
    EXPECT_EQ(records, 3u);
}

TEST(DocBinReaderRange, TokenTextOfARecordWithALoneSurrogate) {
    const auto bytes = range_case("valid/bin/utf16-record-text.ondb");
    std::vector<std::string> texts, norms;
    for (const RecordView& doc : DocBinReader(bytes))
        for (TokenView tok : doc.tokens()) {
            texts.emplace_back(tok.text());
            norms.emplace_back(tok.norm());
        }
    EXPECT_EQ(texts, (std::vector<std::string>{"x", "\xED\xA0\x80", "y", "plain"}));
    EXPECT_EQ(norms, texts);
}

TEST(DocBinReaderRange, ReusesOneDocInsideTheReader) {
    const auto bytes = range_case("valid/document/bin-60-docs.ondb");
    DocBinReader reader(bytes);
    // Every record is document 0 of the same columns, the reader's own; index() is the record's.
    const TokenColumns* first = nullptr;
    std::size_t n = 0;
    for (const RecordView& doc : reader) {
        if (!first) first = doc.place().cols;
        EXPECT_EQ(doc.place().cols, first);
        EXPECT_EQ(doc.view().index(), 0u);
        EXPECT_EQ(doc.index(), n++);
        EXPECT_EQ(&doc.strings(), &reader.strings());
    }
    EXPECT_EQ(n, 60u);
}

// Issue 37: a record, and its view(), cannot be kept in a container of views (each would show
// the last record); a container's DocView can. The second assertion of each pair keeps the
// first honest: the same requires-expression accepts what may be kept.
template <class T>
concept KeepableAsDocView = requires(std::vector<DocView>& kept, const T& v) { kept.push_back(v); };
template <class T>
concept CopyableView = std::is_copy_constructible_v<T> || std::is_move_constructible_v<T>;
using RecordViewView = std::remove_cvref_t<decltype(std::declval<const RecordView&>().view())>;
static_assert(!KeepableAsDocView<RecordView>);
static_assert(!KeepableAsDocView<RecordViewView>);
static_assert(!CopyableView<RecordView> && !CopyableView<RecordViewView>);
static_assert(KeepableAsDocView<DocView> && CopyableView<DocView>);

// What a reader of either kind (a container's DocView, a reader's record) sees through a DocRef.
std::string first_token_norm(const DocRef& d) { return d.empty() ? std::string() : std::string(d[0].norm()); }

TEST(DocBinReaderRange, ARecordIsReadThroughADocRefAndKeptOnlyAsAContentCopy) {
    const auto bytes = range_case("valid/document/bin-60-docs.ondb");
    const Container whole = decode(Bytes(bytes));
    DocBinReader reader(bytes);
    std::vector<Doc> kept;  // what may be kept: copies of the content
    std::vector<std::string> through_ref;
    for (const RecordView& rec : reader) {
        through_ref.push_back(first_token_norm(rec.view()));
        kept.push_back(rec.view().to_doc());
    }
    ASSERT_EQ(kept.size(), whole.docs.size());
    Container again;
    again.format = whole.format;
    again.crc = whole.crc;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        EXPECT_EQ(through_ref[i], first_token_norm(whole.doc(i))) << i;
        again.append(kept[i], reader.strings());
    }
    EXPECT_TRUE(same_content(again, whole));
    // Distinct records: had a kept view shown the last record, these would all be one value.
    EXPECT_NE(through_ref.front(), through_ref.back());
    // A DocView of a container, copied into a vector, keeps showing its own document.
    std::vector<DocView> views(whole.doc_views().begin(), whole.doc_views().end());
    EXPECT_EQ(first_token_norm(views[3]), first_token_norm(whole.doc(3)));
}

TEST(DocBinReaderRange, BeginIsIdempotent) {
    // Asking whether a reader is empty first used to read, and lose, its first record.
    const auto bytes = range_case("valid/document/bin-60-docs.ondb");
    const Container whole = decode(Bytes(bytes));
    DocBinReader reader(bytes);
    ASSERT_FALSE(reader.begin() == reader.end());
    EXPECT_FALSE(reader.begin() == reader.end());
    std::size_t n = 0;
    for (const RecordView& doc : reader) {
        EXPECT_EQ(doc.index(), n);
        EXPECT_TRUE(same_doc(doc.slice(), doc.strings(), whole.docs[n], whole.strings)) << n;
        ++n;
    }
    EXPECT_EQ(n, 60u);
    EXPECT_TRUE(reader.begin() == reader.end());  // finished: stays at the end
    // After next() by hand, begin() starts at the record read last.
    DocBinReader by_hand(bytes);
    ASSERT_TRUE(by_hand.next());
    ASSERT_TRUE(by_hand.next());
    EXPECT_EQ((*by_hand.begin()).index(), 1u);
}

TEST(DocBinReaderRange, KeepingARecordIsExplicit) {
    // 60 saved views all showing the last record: a RecordView cannot be copied, nor taken as a
    // DocView without saying so (view()); to_doc() keeps one.
    static_assert(!std::is_copy_constructible_v<RecordView>);
    static_assert(!std::is_convertible_v<const RecordView&, DocView>);
    const auto bytes = range_case("valid/document/bin-60-docs.ondb");
    const Container whole = decode(Bytes(bytes));
    Container kept;
    kept.format = Format::ondb;
    std::vector<Doc> docs;
    DocBinReader reader(bytes);
    for (const RecordView& doc : reader) {
        docs.push_back(doc.to_doc());
        kept.append(doc);
    }
    ASSERT_EQ(docs.size(), 60u);
    EXPECT_EQ(docs.front().text, std::string(whole.docs[0].text));
    EXPECT_EQ(docs.back().text, std::string(whole.docs[59].text));
    EXPECT_TRUE(same_content(kept, whole) || kept.crc != whole.crc);
    for (std::size_t i = 0; i < 60; ++i) EXPECT_TRUE(same_doc(kept.docs[i], kept.strings, whole.docs[i], whole.strings)) << i;
}

// Views of a temporary do not compile: a container's documents, a reader's strings and record.
template <class T>
concept DocOfRvalue = requires(T&& t) { std::forward<T>(t).doc(0); };
template <class T>
concept ReaderStringsOfRvalue = requires(T&& t) { std::forward<T>(t).strings(); };
template <class T>
concept ReaderDocOfRvalue = requires(T&& t) { std::forward<T>(t).doc(); };
template <class T>
concept SliceOfRvalue = requires(T&& t) { std::forward<T>(t)[0]; };
static_assert(DocOfRvalue<const Container&> && !DocOfRvalue<Container>);
static_assert(ReaderStringsOfRvalue<DocBinReader&> && !ReaderStringsOfRvalue<DocBinReader>);
static_assert(ReaderDocOfRvalue<DocBinReader&> && !ReaderDocOfRvalue<DocBinReader>);
static_assert(SliceOfRvalue<const DocList&> && !SliceOfRvalue<DocList>);

// Runs the range to its end; returns the records seen and the error that stopped it.
std::pair<std::size_t, std::optional<Caught>> walk_bin(const std::vector<std::byte>& bytes) {
    std::size_t n = 0;
    auto err = catch_error([&] {
        for ([[maybe_unused]] const RecordView& doc : DocBinReader(bytes)) ++n;
    });
    return {n, err};
}

TEST(DocBinReaderRange, ErrorsThrowFromTheLoopWithCodeAndOffset) {
    {
        const auto [n, err] = walk_bin(range_case("invalid/bin/record-head-out-of-range.ondb"));
        EXPECT_EQ(n, 2u);
        ASSERT_TRUE(err.has_value());
        EXPECT_EQ(err->code, "tokens.head-out-of-range");
        EXPECT_EQ(err->offset, 414u);
    }
    {
        const auto [n, err] = walk_bin(range_case("invalid/bin/crc-after-records.ondb"));
        EXPECT_EQ(n, 3u);  // every record first, then the trailer
        ASSERT_TRUE(err.has_value());
        EXPECT_EQ(err->code, "crc.mismatch");
        EXPECT_EQ(err->offset, 417u);
    }
    {
        const auto [n, err] = walk_bin(range_case("invalid/bin/count-max.ondb"));  // from the constructor
        EXPECT_EQ(n, 0u);
        ASSERT_TRUE(err.has_value());
        EXPECT_EQ(err->code, "bin.count-exceeds-bytes");
        EXPECT_EQ(err->offset, 170u);
    }
}

TEST(StreamReaderReuse, KeepsTheContainersCapacity) {
    auto in = stream_of("valid/stream/same-twice.stream");
    StreamReader reader(in);
    Container c;
    ASSERT_TRUE(reader.next(c));
    ASSERT_EQ(c.docs.size(), 1u);
    ASSERT_GT(c.docs[0].tokens.size(), 0u);
    const Container first = c;
    const char* texts = c.docs.texts().data();
    const std::uint32_t* starts = c.docs[0].tokens.start.data();
    const auto stored = [](Ids ids) { return ids.visit([](auto s) { return static_cast<const void*>(s.data()); }); };
    const void* pos = stored(c.docs[0].tokens.column(TokenColumn::pos));
    ASSERT_TRUE(reader.next(c));
    EXPECT_TRUE(same_content(c, first));  // the same container twice
    EXPECT_EQ(c.docs.texts().data(), texts);
    EXPECT_EQ(c.docs[0].tokens.start.data(), starts);
    EXPECT_EQ(stored(c.docs[0].tokens.column(TokenColumn::pos)), pos);
    EXPECT_FALSE(reader.next(c));
    EXPECT_EQ(reader.containers_read(), 2u);
}

TEST(StreamReaderRange, SeesEveryContainerAsNextDoes) {
    for (const char* name : {"valid/stream/large-container.stream", "valid/stream/same-twice.stream",
                             "valid/stream/noncanonical-member.stream", "valid/stream/empty.stream"}) {
        SCOPED_TRACE(name);
        auto a = stream_of(name);
        std::vector<Container> want;
        StreamReader one_by_one(a);
        while (auto c = one_by_one.next()) want.push_back(std::move(*c));
        auto b = stream_of(name);
        std::size_t n = 0;
        for (const Container& c : StreamReader(b)) {
            ASSERT_LT(n, want.size());
            EXPECT_TRUE(same_content(c, want[n]));
            ++n;
        }
        EXPECT_EQ(n, want.size());
    }
}

TEST(StreamReaderRange, ErrorsThrowFromTheLoopWithCodeAndOffset) {
    auto in = stream_of("invalid/stream/body-fault-third.stream");
    std::size_t n = 0;
    const auto err = catch_error([&] {
        for (const Container& c : StreamReader(in)) n += c.docs.size();
    });
    EXPECT_EQ(n, 2u);
    ASSERT_TRUE(err.has_value());
    EXPECT_EQ(err->code, "tokens.head-out-of-range");
    EXPECT_EQ(err->offset, 363u);
}

}  // namespace
}  // namespace ond
