// The conveniences beside the model: UTF-16 offsets into WTF-8 text (token text as a view of
// Doc::text), the non-throwing result API and the file loader. Checked against the corpus's
// CJK, emoji and surrogate files, and against the throwing calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <type_traits>

#include "ond/result.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

const std::filesystem::path corpus_cases_dir = OND_CORPUS_CASES;

// The reference: the token's UTF-16 units, back to WTF-8 (nullopt when it splits a pair, which
// WTF-8 cannot hold as a substring: the halves would come back as lone surrogates).
std::optional<std::string> text_through_utf16(const DocSlice& d, std::size_t i) {
    const std::u16string units = unicode::utf16_from_wtf8(d.text);
    const std::uint32_t s = d.tokens.start[i], n = d.tokens.length[i];
    auto splits = [&](std::uint32_t at) {
        return at > 0 && at < units.size() && units[at - 1] >= 0xD800 && units[at - 1] <= 0xDBFF && units[at] >= 0xDC00 &&
               units[at] <= 0xDFFF;
    };
    if (splits(s) || splits(s + n)) return std::nullopt;
    return unicode::wtf8_from_utf16(std::u16string_view(units).substr(s, n));
}

TEST(TokenText, CorpusCjkAndEmojiFiles) {
    for (const char* name : {"valid/text/cjk.ondc", "valid/text/non-bmp-offsets.ondc", "valid/text/arabic.ondc",
                             "valid/text/combining-marks.ondc", "valid/text/token-inside-surrogate-pair.ondc",
                             "valid/string/utf8-cjk.ondc"}) {
        SCOPED_TRACE(name);
        const Container c = decode(Bytes(load_file(corpus_cases_dir / name)));
        ASSERT_FALSE(c.docs.empty());
        const DocSlice d = c.docs[0];
        ASSERT_GT(d.tokens.size(), 0u);
        unicode::Utf16Offsets at(d.text);
        for (std::size_t i = 0; i < d.tokens.size(); ++i) {
            SCOPED_TRACE(i);
            const auto want = text_through_utf16(d, i);
            const auto walked = at.view(d.tokens.start[i], d.tokens.length[i]);
            const auto alone = d.token_text(i);
            ASSERT_EQ(walked.has_value(), want.has_value());
            ASSERT_EQ(alone.has_value(), want.has_value());
            if (!want) continue;
            EXPECT_EQ(*walked, *want);
            EXPECT_EQ(*alone, *want);
            // A view of the text itself, not a copy.
            EXPECT_GE(walked->data(), d.text.data());
            EXPECT_LE(walked->data() + walked->size(), d.text.data() + d.text.size());
            // And back: the view's bytes give the token's UTF-16 range.
            const auto r = at.range(static_cast<std::size_t>(walked->data() - d.text.data()), walked->size());
            ASSERT_TRUE(r.has_value());
            EXPECT_EQ(r->start, d.tokens.start[i]);
            EXPECT_EQ(r->length, d.tokens.length[i]);
        }
    }
}

TEST(TokenText, NormsOfTheEmojiFileAreTheTokensText) {
    // In this file every token's norm is its text: "😀", "smile", "𐌰", "gothic", "👍🏽", "ok.".
    const Container c = decode(Bytes(load_file(corpus_cases_dir / "valid/text/non-bmp-offsets.ondc")));
    const DocSlice d = c.docs[0];
    unicode::Utf16Offsets at(d.text);
    for (std::size_t i = 0; i < d.tokens.size(); ++i)
        EXPECT_EQ(at.view(d.tokens.start[i], d.tokens.length[i]).value(),
                  c.strings.view(d.tokens.column(TokenColumn::norm)[i]));
}

TEST(Utf16Offsets, BothWaysOnMixedText) {
    // "a" (1 unit, 1 byte), "é" (1, 2), "東" (1, 3), "😀" (2, 4), lone U+D800 (1, 3), "z".
    const std::string s = "a\xC3\xA9\xE6\x9D\xB1\xF0\x9F\x98\x80\xED\xA0\x80z";
    const std::uint64_t units[] = {0, 1, 2, 3, 5, 6, 7};
    const std::size_t bytes[] = {0, 1, 3, 6, 10, 13, 14};
    for (std::size_t k = 0; k < std::size(units); ++k) {
        EXPECT_EQ(unicode::utf16_to_wtf8_offset(s, units[k]), bytes[k]) << k;
        EXPECT_EQ(unicode::wtf8_to_utf16_offset(s, bytes[k]), units[k]) << k;
    }
    EXPECT_EQ(unicode::utf16_to_wtf8_offset(s, 4), std::nullopt);  // between the halves of 😀
    EXPECT_EQ(unicode::utf16_to_wtf8_offset(s, 8), std::nullopt);  // past the end
    for (std::size_t b : {2u, 4u, 5u, 7u, 8u, 9u, 11u, 12u, 15u})
        EXPECT_EQ(unicode::wtf8_to_utf16_offset(s, b), std::nullopt) << b;  // inside a sequence, or past the end
    // The walker gives the same answers in any order (going back restarts it).
    unicode::Utf16Offsets at(s);
    for (std::size_t k : {3u, 6u, 0u, 5u, 1u, 4u, 2u}) EXPECT_EQ(at.to_bytes(units[k]), bytes[k]) << k;
    EXPECT_EQ(at.to_bytes(4), std::nullopt);
    EXPECT_EQ(at.to_bytes(5), 10u);  // a miss leaves it usable
    EXPECT_EQ(at.view(3, 2), "\xF0\x9F\x98\x80");
    EXPECT_EQ(at.view(3, 1), std::nullopt);
    EXPECT_EQ(at.view(0, ~std::uint64_t{0}), std::nullopt);
}

TEST(Utf16Offsets, LongAsciiRunsAndBuildingTokensFromSubstrings) {
    // The 8-byte ASCII steps, either side of a multi-byte character.
    std::string s(37, 'x');
    s += "\xE2\x82\xAC";  // U+20AC
    s += std::string(20, 'y');
    EXPECT_EQ(unicode::utf16_to_wtf8_offset(s, 37), 37u);
    EXPECT_EQ(unicode::utf16_to_wtf8_offset(s, 38), 40u);
    EXPECT_EQ(unicode::utf16_to_wtf8_offset(s, 58), 60u);
    EXPECT_EQ(unicode::wtf8_to_utf16_offset(s, 60), 58u);

    // Building: a token from a substring found in the text, with no offsets counted by hand.
    Container c = ondc("\xE6\x9D\xB1\xE4\xBA\xAC \xF0\x9F\x98\x80 ok");  // "東京 😀 ok"
    c.docs.edit(0, [&](Doc& d) {
        unicode::Utf16Offsets at(d.text);
        for (std::string_view word : {"\xE6\x9D\xB1\xE4\xBA\xAC", "\xF0\x9F\x98\x80", "ok"}) {
            const auto r = at.range(d.text.find(word), word.size()).value();
            add_token(c, d, static_cast<std::uint32_t>(r.start), static_cast<std::uint32_t>(r.length), 0);
        }
    });
    const DocSlice d = c.docs[0];
    EXPECT_EQ(std::vector(d.tokens.start.begin(), d.tokens.start.end()), (std::vector<std::uint32_t>{0, 3, 6}));
    EXPECT_EQ(std::vector(d.tokens.length.begin(), d.tokens.length.end()), (std::vector<std::uint32_t>{2, 2, 2}));
    const Container back = decode(Bytes(encode(c)));
    EXPECT_EQ(back.docs[0].token_text(1), "\xF0\x9F\x98\x80");
    EXPECT_EQ(back.docs[0].token_text(3), std::nullopt);  // no such token
}

TEST(Result, SameAnswersAsTheThrowingCalls) {
    const auto good = load_file(corpus_cases_dir / "valid/text/cjk.ondc");
    const auto r = try_decode(Bytes(good));
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(same_content(r.value(), decode(Bytes(good))));
    const auto v = try_validate(Bytes(good));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->tokens, validate(Bytes(good)).tokens);

    std::vector<std::byte> bad = good;
    bad[0] = std::byte{'X'};
    const auto rb = try_decode(Bytes(bad));
    ASSERT_FALSE(rb.ok());
    const auto thrown = catch_error([&] { (void)decode(Bytes(bad)); });
    ASSERT_TRUE(thrown.has_value());
    EXPECT_EQ(rb.error().code(), "header.bad-magic");
    EXPECT_EQ(rb.error().offset(), 0u);
    EXPECT_STREQ(rb.error().what(), thrown->what.c_str());
    EXPECT_THROW((void)rb.value(), Error);
    EXPECT_EQ(try_validate(Bytes(bad)).error().code(), "header.bad-magic");

    Container into;
    EXPECT_TRUE(try_decode_into(Bytes(good), into).ok());
    EXPECT_TRUE(same_content(into, decode(Bytes(good))));
    const Status s = try_decode_into(Bytes(bad), into);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code(), "header.bad-magic");

    Container none;  // an ONDC container needs its one document
    const auto e = try_encode(none);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().code(), "content.inconsistent");
    EXPECT_EQ(e.error().path(), "docs");
    const auto ok = try_encode(decode(Bytes(good)));
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok.value(), good);  // the corpus file is canonical
}

TEST(Result, ShapedLikeExpected) {
    Result<int> seven = 7;
    EXPECT_TRUE(seven.has_value());
    EXPECT_EQ(*seven, 7);
    EXPECT_EQ(seven.value_or(1), 7);
    Result<int> failed = Error(Errc::header_bad_magic, 0, "x");
    EXPECT_FALSE(failed.has_value());
    EXPECT_EQ(failed.value_or(1), 1);
    EXPECT_EQ(failed.error().errc(), Errc::header_bad_magic);
    static_assert(std::is_same_v<Result<int>::value_type, int> && std::is_same_v<Result<int>::error_type, Error>);
    Result<std::string> moved = std::string("abc");
    EXPECT_EQ(std::move(moved).value_or("z"), "abc");
    const Status done;
    EXPECT_TRUE(done.has_value());
    done.value();  // nothing to throw
    EXPECT_THROW(Status(Error(Errc::header_bad_magic, 0, "x")).value(), Error);
}

TEST(Result, ReadersAndAddingWithoutExceptions) {
    const auto ondc = load_file(corpus_cases_dir / "valid/text/cjk.ondc");
    const Result<DocBinReader> refused = try_open(Bytes(ondc));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code(), "header.bad-magic");
    EXPECT_EQ(refused.error().offset(), 0u);

    // Two records, then the fault decode() reports for the third.
    Result<DocBinReader> r = try_open(load_file(corpus_cases_dir / "invalid/bin/record-head-out-of-range.ondb"));
    ASSERT_TRUE(r);
    std::size_t n = 0;
    Result<bool> more = try_next(*r);
    for (; more && *more; more = try_next(*r)) ++n;
    EXPECT_EQ(n, 2u);
    ASSERT_FALSE(more);
    EXPECT_EQ(more.error().code(), "tokens.head-out-of-range");
    EXPECT_EQ(more.error().offset(), 414u);

    const auto stream_bytes = load_file(corpus_cases_dir / "valid/stream/same-twice.stream");
    std::size_t at = 0;
    StreamReader s([&](std::byte* dst, std::size_t max) {
        const std::size_t k = std::min(max, stream_bytes.size() - at);
        std::copy_n(stream_bytes.data() + at, k, dst);
        at += k;
        return k;
    });
    Container c;
    EXPECT_TRUE(*try_next(s, c));
    EXPECT_TRUE(*try_skip_next(s));
    EXPECT_FALSE(*try_next(s, c));

    Container into;
    Doc bad;
    bad.set_text("a");
    bad.tokens.resize(1);
    bad.tokens.length[0] = 1;
    bad.tokens.column(TokenColumn::tag)[0] = 5;
    const Status st = try_push_back(into, bad);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().path(), "tokens[0].tag");
    EXPECT_TRUE(into.docs.empty());
    EXPECT_TRUE(try_append(into, c.doc(0)));
    EXPECT_EQ(into.docs.size(), 1u);
}

TEST(LoadFile, ReadsWholeFilesAndReportsErrors) {
    const auto path = corpus_cases_dir / "valid/text/non-bmp-offsets.ondc";
    const auto bytes = load_file(path);
    EXPECT_EQ(bytes.size(), std::filesystem::file_size(path));
    EXPECT_TRUE(validate(Bytes(bytes)).docs == 1);

    std::error_code ec;
    const auto missing = load_file(corpus_cases_dir / "no-such-file.ondc", ec);
    EXPECT_EQ(ec, std::errc::no_such_file_or_directory);
    EXPECT_TRUE(missing.empty());
    EXPECT_THROW((void)load_file(corpus_cases_dir / "no-such-file.ondc"), std::filesystem::filesystem_error);
    (void)load_file(corpus_cases_dir, ec);  // a directory
    EXPECT_TRUE(static_cast<bool>(ec));
    (void)load_file(path, ec);
    EXPECT_FALSE(static_cast<bool>(ec));
}

}  // namespace
}  // namespace ond
