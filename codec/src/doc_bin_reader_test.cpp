// DocBinReader: an ONDB's records one at a time, with the records and the verdict of decode()
// on the same bytes (R27); the CRC verdict comes after the last record.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

std::vector<B> three_records() {
    return {bin_record("Hello world", hello_tokens(), {{0, 1, 1, 0.5f}}, true), bin_record("Hi", {{0, 2}}),
            bin_record("a b c", {{0, 1}, {1, 1}, {1, 1}}, {{1, 2, 2, 1.0f}}, true)};
}

TEST(DocBinReader, R27_SameRecordsAsDecode) {
    const auto bytes = bin_container(three_records()).build(true);
    const Container whole = decode(view(bytes));
    DocBinReader r(view(bytes));
    EXPECT_TRUE(r.crc());
    EXPECT_EQ(r.count(), 3u);
    EXPECT_TRUE(r.strings() == whole.strings);
    Doc d;
    std::size_t i = 0;
    while (r.next(d)) {
        ASSERT_LT(i, whole.docs.size());
        DocList copy;  // same_doc compares slices: d's own, through a list of its own
        copy.push_back(d);
        EXPECT_TRUE(same_doc(copy[0], r.strings(), whole.docs[i], whole.strings)) << "record " << i;
        EXPECT_TRUE(same_doc(r.doc().slice(), r.strings(), whole.docs[i], whole.strings)) << "record " << i;
        ++i;
    }
    EXPECT_EQ(i, 3u);
    EXPECT_FALSE(r.next(d));  // stays finished
}

TEST(DocBinReader, ReusedDocIsResetBetweenRecords) {
    // Record 0 has entities, record 1 has none: the second next() must not keep them.
    const auto bytes = bin_container(three_records()).build();
    DocBinReader r(view(bytes));
    Doc d;
    ASSERT_TRUE(r.next(d));
    EXPECT_TRUE(d.has_ents);
    ASSERT_TRUE(r.next(d));
    EXPECT_FALSE(d.has_ents);
    EXPECT_TRUE(d.ents.empty());
    EXPECT_EQ(d.text, "Hi");
    EXPECT_EQ(d.tokens.size(), 1u);
}

TEST(DocBinReader, EmptyBin) {
    const auto bytes = bin_container({}).build();
    DocBinReader r(view(bytes));
    EXPECT_EQ(r.count(), 0u);
    EXPECT_FALSE(r.crc());
    Doc d;
    EXPECT_FALSE(r.next(d));
}

TEST(DocBinReader, R27_CrcVerdictAfterTheLastRecord) {
    auto bytes = bin_container(three_records()).build(true);
    bytes[bytes.size() - 1] ^= 0x55;
    DocBinReader r(view(bytes));
    Doc d;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(r.next(d)) << i;  // every record reads
    auto got = catch_error([&] { (void)r.next(d); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "crc.mismatch");
    EXPECT_EQ(got->offset, bytes.size() - 4);
}

TEST(DocBinReader, R27_FaultInALaterRecordAfterEarlierOnesRead) {
    auto records = three_records();
    records[2] = bin_record("a b c", {{0, 1}, {1, 1}, {1, 1}}, {{1, 2, 0, 1.0f}}, true);  // label 0
    const auto bytes = bin_container(records).build();
    auto whole = catch_error([&] { (void)decode(view(bytes)); });
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->code, "entities.label-missing");
    DocBinReader r(view(bytes));
    Doc d;
    ASSERT_TRUE(r.next(d));
    ASSERT_TRUE(r.next(d));
    auto got = catch_error([&] { (void)r.next(d); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, whole->code);
    EXPECT_EQ(got->offset, whole->offset);
}

TEST(DocBinReader, AFailedReaderRaisesTheSameErrorAgain) {
    auto records = three_records();
    records[1] = bin_record("Hi", {{0, 3}});  // token ends past the 2-unit text
    const auto bytes = bin_container(records).build();
    DocBinReader r(view(bytes));
    Doc d;
    ASSERT_TRUE(r.next(d));
    auto first = catch_error([&] { (void)r.next(d); });
    ASSERT_TRUE(first);
    EXPECT_EQ(first->code, "tokens.out-of-text");
    // The reader does not skip the bad record and go on to record 2.
    auto again = catch_error([&] { (void)r.next(d); });
    ASSERT_TRUE(again);
    EXPECT_EQ(again->code, first->code);
    EXPECT_EQ(again->offset, first->offset);
}

TEST(DocBinReader, R27_TrailingBytesFoundByTheFinalCall) {
    Ctr c("ONDB");
    c.add(1, strings_content({}));
    B s5;
    const B rec = bin_record("Hi", {{0, 2}});
    s5.u32(1).u32(static_cast<std::uint32_t>(rec.size())).append(rec);
    const std::size_t end = s5.size();
    s5.u8(0);
    const std::size_t at = c.add(5, s5);
    const auto bytes = c.build();
    DocBinReader r(view(bytes));
    Doc d;
    ASSERT_TRUE(r.next(d));
    auto got = catch_error([&] { (void)r.next(d); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "bin.trailing-bytes");
    EXPECT_EQ(got->offset, at + end);
}

TEST(DocBinReader, ConstructorChecksHeaderTableAndCount) {
    auto bad_table = bin_container(three_records(), {}).build();
    bad_table[kHeader + kFrame] = 5;  // the string count, with no bytes for it
    auto got = catch_error([&] { DocBinReader r(view(bad_table)); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "table.count-out-of-range");
    EXPECT_EQ(got->offset, kHeader + kFrame);

    auto short_input = bin_container(three_records()).build();
    short_input.pop_back();
    got = catch_error([&] { DocBinReader r(view(short_input)); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "container.truncated");

    auto ondc = HelloOndc().c.build();
    got = catch_error([&] { DocBinReader r(view(ondc)); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "header.bad-magic");
    EXPECT_EQ(got->offset, 0u);
}

// The verdict (accept, or code and offset) of decode() and of DocBinReader on the same bytes.
std::string verdict_decode(const std::vector<std::uint8_t>& b) {
    auto e = catch_error([&] { (void)decode(view(b)); });
    return e ? e->code + "@" + std::to_string(e->offset) : "ok";
}
std::string verdict_reader(const std::vector<std::uint8_t>& b, std::size_t* records) {
    *records = 0;
    auto e = catch_error([&] {
        DocBinReader r(view(b));
        Doc d;
        while (r.next(d)) ++*records;
    });
    return e ? e->code + "@" + std::to_string(e->offset) : "ok";
}

TEST(DocBinReader, R27_EverySingleByteChangeGetsTheSameVerdict) {
    for (bool crc : {false, true}) {
        const auto base = bin_container(three_records()).build(crc);
        std::size_t checked = 0, rejected = 0;
        for (std::size_t i = 0; i < base.size(); ++i) {
            for (std::uint8_t v : {std::uint8_t(0x00), std::uint8_t(0x01), std::uint8_t(0x03), std::uint8_t(0x7F),
                                   std::uint8_t(0x80), std::uint8_t(0xFF), static_cast<std::uint8_t>(base[i] + 1)}) {
                if (v == base[i]) continue;
                if (i == 3 && v == 'C') continue;  // now an ONDC: not a bin, R27 does not apply
                auto m = base;
                m[i] = v;
                std::size_t records = 0;
                const std::string a = verdict_decode(m), b = verdict_reader(m, &records);
                EXPECT_EQ(a, b) << "byte " << i << " = " << int(v) << (crc ? " (crc)" : "");
                ++checked;
                if (a != "ok") ++rejected;
            }
        }
        EXPECT_GT(checked, 400u);
        EXPECT_GT(rejected, checked / 4);
    }
}

TEST(DocBinReader, R27_EveryCutGetsTheSameVerdict) {
    const auto base = bin_container(three_records()).build(true);
    for (std::size_t n = 0; n < base.size(); ++n) {
        std::vector<std::uint8_t> cut(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(n));
        std::size_t records = 0;
        EXPECT_EQ(verdict_decode(cut), verdict_reader(cut, &records)) << n;
    }
}

}  // namespace
}  // namespace ond
