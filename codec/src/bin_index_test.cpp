// BinIndex and DocBinReader::skip: the records where the sequential reader finds them, ranges
// decoded as decode() decodes them, framing faults with the sequential reader's code and offset,
// and concurrent decoding from one index.
#include <gtest/gtest.h>

#include <thread>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

std::vector<B> some_records(std::size_t n) {
    std::vector<B> out;
    for (std::size_t i = 0; i < n; ++i) {
        switch (i % 3) {
            case 0: out.push_back(bin_record("Hello world", hello_tokens(), {{0, 1, 1, 0.5f}}, true)); break;
            case 1: out.push_back(bin_record("Hi", {{0, 2}})); break;
            default: out.push_back(bin_record("a b c", {{0, 1}, {1, 1}, {1, 1}}, {{1, 2, 2, 1.0f}}, true)); break;
        }
    }
    return out;
}

std::string index_verdict(const std::function<void()>& f) {
    auto e = catch_error(f);
    return e ? e->code + "@" + std::to_string(e->offset) : "ok";
}

TEST(BinIndex, OffsetsAreWhereTheSequentialWalkFindsTheRecords) {
    const auto bytes = bin_container(some_records(7)).build(true);
    std::vector<RecordSpan> walked;  // inspect() reads the records one by one, as decode() does
    inspect(view(bytes), [&](const InspectEvent& e) {
        if (e.kind == InspectEvent::Kind::enter && e.name.rfind("record ", 0) == 0)
            walked.push_back(RecordSpan{e.offset, static_cast<std::uint32_t>(e.length - 4)});
    });
    const BinIndex index(view(bytes));
    ASSERT_EQ(index.size(), 7u);
    ASSERT_EQ(walked.size(), 7u);
    EXPECT_TRUE(index.crc());
    for (std::size_t i = 0; i < walked.size(); ++i) {
        EXPECT_EQ(index.record(i).offset, walked[i].offset) << i;
        EXPECT_EQ(index.record(i).length, walked[i].length) << i;
        EXPECT_EQ(index.records()[i].offset, walked[i].offset) << i;
    }
    EXPECT_EQ(index.record(0).offset, kHeader + kFrame + strings_content({"PER", "LOC"}).size() + kFrame + 4);
}

TEST(BinIndex, RangesDecodeToTheSequentialDocuments) {
    const auto bytes = bin_container(some_records(8)).build();
    const Container whole = decode(view(bytes));
    const BinIndex index(view(bytes));
    EXPECT_TRUE(index.strings() == whole.strings);
    Container reused;
    for (std::size_t a = 0; a <= 8; ++a) {
        for (std::size_t b = a; b <= 8; ++b) {
            const Container part = index.decode(a, b);
            index.decode_into(a, b, reused);
            EXPECT_EQ(part.format, Format::ondb);
            ASSERT_EQ(part.docs.size(), b - a);
            ASSERT_EQ(reused.docs.size(), b - a);
            for (std::size_t i = a; i < b; ++i) {
                EXPECT_TRUE(same_doc(part.docs[i - a], part.strings, whole.docs[i], whole.strings)) << a << ".." << b;
                EXPECT_TRUE(same_doc(reused.docs[i - a], reused.strings, whole.docs[i], whole.strings)) << a << ".." << b;
            }
        }
    }
    // The ranges' containers share the index's ids: merged in order they are the whole bin.
    Container all = index.decode(0, 3);
    all.crc = whole.crc;
    for (std::size_t a = 3; a < 8; a += 2) merge(all, index.decode(a, std::min<std::size_t>(a + 2, 8)));
    EXPECT_TRUE(same_content(all, whole));
    EXPECT_THROW((void)index.decode(2, 1), std::out_of_range);
    EXPECT_THROW((void)index.decode(0, 9), std::out_of_range);
}

TEST(BinIndex, ARangeReportsARecordsContentFaultAsDecodeDoes) {
    auto records = some_records(4);
    records[2] = bin_record("Hi", {{0, 3}});  // the token ends past the 2-unit text
    const auto bytes = bin_container(records).build();
    const BinIndex index(view(bytes));  // the framing is sound
    const std::string whole = index_verdict([&] { (void)decode(view(bytes)); });
    EXPECT_EQ(whole.rfind("tokens.out-of-text@", 0), 0u) << whole;
    EXPECT_EQ(index_verdict([&] { (void)index.decode(0, 4); }), whole);
    EXPECT_EQ(index_verdict([&] { (void)index.decode(2, 3); }), whole);
    EXPECT_EQ(index_verdict([&] { (void)index.decode(3, 4); }), "ok");
    Container out = index.decode(0, 2);
    EXPECT_THROW(index.decode_into(1, 3, out), Error);
    EXPECT_TRUE(out.docs.empty());
    auto r = try_decode(index, 0, 4);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), "tokens.out-of-text");
}

TEST(BinIndex, FramingFaultsAsTheSequentialReader) {
    // A record length past section 5, and bytes after the last record.
    auto long_record = bin_container(some_records(3)).build();
    const BinIndex ok_index(view(long_record));
    const std::size_t second = static_cast<std::size_t>(ok_index.record(1).offset);
    long_record[second] = 0xF0;
    EXPECT_TRUE(Rejects(long_record, "bin.record-length-out-of-range", second));
    EXPECT_EQ(index_verdict([&] { BinIndex i(view(long_record)); }), "bin.record-length-out-of-range@" + std::to_string(second));

    Ctr c("ONDB");
    c.add(1, strings_content({}));
    B s5;
    const B rec = bin_record("Hi", {{0, 2}});
    s5.u32(1).u32(static_cast<std::uint32_t>(rec.size())).append(rec).u8(0);
    const std::size_t at = c.add(5, s5);
    const auto trailing = c.build();
    const std::string want = "bin.trailing-bytes@" + std::to_string(at + s5.size() - 1);
    EXPECT_EQ(index_verdict([&] { DocBinReader r(view(trailing)); while (r.next()) {} }), want);
    EXPECT_EQ(index_verdict([&] { BinIndex i(view(trailing)); }), want);

    auto bad_crc = bin_container(some_records(2)).build(true);
    bad_crc.back() ^= 1;
    EXPECT_EQ(index_verdict([&] { BinIndex i(view(bad_crc)); }), index_verdict([&] { (void)decode(view(bad_crc)); }));
    auto r = try_index(view(bad_crc));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), "crc.mismatch");

    const auto ondc = HelloOndc().c.build();
    EXPECT_EQ(index_verdict([&] { BinIndex i(view(ondc)); }), "header.bad-magic@0");
}

// Every single-byte change: the index and then a decode of all its records accept exactly what
// decode() accepts. The index's error is decode()'s, or decode() names a fault in a record's
// content first (which the index does not read); a decode of the indexed records gives
// decode()'s error exactly.
TEST(BinIndex, EverySingleByteChangeGetsDecodesVerdict) {
    for (bool crc : {false, true}) {
        const auto base = bin_container(some_records(3)).build(crc);
        std::size_t checked = 0, by_index = 0;
        for (std::size_t i = 0; i < base.size(); ++i) {
            for (std::uint8_t v : {std::uint8_t(0x00), std::uint8_t(0x01), std::uint8_t(0x7F), std::uint8_t(0xFF),
                                   static_cast<std::uint8_t>(base[i] + 1)}) {
                if (v == base[i] || (i == 3 && v == 'C')) continue;
                auto m = base;
                m[i] = v;
                auto whole = catch_error([&] { (void)decode(view(m)); });
                std::optional<BinIndex> index;
                auto built = catch_error([&] { index.emplace(view(m)); });
                ++checked;
                if (built) {
                    ++by_index;
                    ASSERT_TRUE(whole) << "byte " << i << " = " << int(v);
                    // Else decode() met a record's content fault first: at or before the index's
                    // fault (a record's missing section is reported where the record ends, which is
                    // where the next record's frame starts).
                    const bool content_first = whole->code.rfind("bin.", 0) != 0 && whole->code != "crc.mismatch" &&
                                               whole->offset <= built->offset;
                    EXPECT_TRUE(whole->code == built->code ? whole->offset == built->offset : content_first)
                        << "byte " << i << " = " << int(v) << ": decode " << whole->code << "@" << whole->offset << ", index "
                        << built->code << "@" << built->offset;
                    continue;
                }
                const std::string ranged = index_verdict([&] { (void)index->decode(0, index->size()); });
                EXPECT_EQ(ranged, whole ? whole->code + "@" + std::to_string(whole->offset) : "ok")
                    << "byte " << i << " = " << int(v) << (crc ? " (crc)" : "");
            }
        }
        EXPECT_GT(checked, 300u);
        EXPECT_GT(by_index, 20u);
    }
}

TEST(BinIndex, ThreadsDecodeRangesOfOneIndexAtOnce) {
    const auto bytes = bin_container(some_records(300)).build(true);
    const Container whole = decode(view(bytes));
    const BinIndex index(view(bytes));
    Container parts[2];
    for (int round = 0; round < 20; ++round) {
        {
            std::jthread a([&] { index.decode_into(0, 150, parts[0]); });
            std::jthread b([&] { index.decode_into(150, 300, parts[1]); });
        }
        for (std::size_t i = 0; i < 300; ++i) {
            const Container& p = parts[i / 150];
            ASSERT_TRUE(same_doc(p.docs[i % 150], p.strings, whole.docs[i], whole.strings)) << round << ": " << i;
        }
    }
}

TEST(BinIndex, KeepsBytesGivenToIt) {
    const auto bytes = bin_container(some_records(5)).build();
    std::vector<std::byte> owned(reinterpret_cast<const std::byte*>(bytes.data()),
                                 reinterpret_cast<const std::byte*>(bytes.data()) + bytes.size());
    BinIndex moved(std::move(owned));
    const BinIndex index(std::move(moved));
    EXPECT_TRUE(same_content(index.decode(0, 5), decode(view(bytes))));
}

TEST(DocBinReader, SkipChecksOnlyFramingAndGoesOn) {
    auto records = some_records(5);
    records[1] = bin_record("Hi", {{0, 3}});  // a bad record, skipped unread
    const auto bytes = bin_container(records).build(true);
    const Container good = decode(view(bin_container(some_records(5)).build(true)));
    DocBinReader r(view(bytes));
    ASSERT_TRUE(r.next());
    EXPECT_EQ(r.skip(2), 2u);
    ASSERT_TRUE(r.next());
    EXPECT_EQ(r.doc().index(), 3u);
    EXPECT_TRUE(same_doc(r.doc().slice(), r.strings(), good.docs[3], good.strings));
    std::size_t seen = 0;
    for (const RecordView& d : r) EXPECT_EQ(d.index(), 3u + seen++);  // from the record read last
    EXPECT_EQ(seen, 2u);
    EXPECT_EQ(r.skip(3), 0u);
    // begin() after a skip reads on from the first record not skipped.
    DocBinReader from2(view(bytes));
    EXPECT_EQ(from2.skip(2), 2u);
    seen = 0;
    for (const RecordView& d : from2) EXPECT_EQ(d.index(), 2u + seen++);
    EXPECT_EQ(seen, 3u);

    // Skipping past the end makes the end checks: the CRC here.
    auto bad_crc = bin_container(some_records(3)).build(true);
    bad_crc.back() ^= 1;
    DocBinReader c(view(bad_crc));
    EXPECT_EQ(index_verdict([&] { (void)c.skip(10); }), "crc.mismatch@" + std::to_string(bad_crc.size() - 4));
    EXPECT_EQ(index_verdict([&] { (void)c.next(); }), "crc.mismatch@" + std::to_string(bad_crc.size() - 4));

    // A framing fault found by a skip: the sequential reader's code and offset; try_skip says so.
    auto long_record = bin_container(some_records(3)).build();
    const std::size_t third = static_cast<std::size_t>(BinIndex(view(long_record)).record(2).offset);
    long_record[third + 1] = 0x7F;
    DocBinReader s(view(long_record));
    auto skipped = try_skip(s, 3);
    ASSERT_FALSE(skipped);
    EXPECT_EQ(skipped.error().code(), "bin.record-length-out-of-range");
    EXPECT_EQ(skipped.error().offset(), third);
    EXPECT_TRUE(Rejects(long_record, "bin.record-length-out-of-range", third));
}

}  // namespace
}  // namespace ond
