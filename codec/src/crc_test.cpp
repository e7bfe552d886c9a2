// detail::crc32 (R7) against the bitwise reference, whichever library the codec was built with
// (ISA-L's folding code has separate paths for short, medium and long buffers and for alignment).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ond/reader.hpp"
#include "ond/internal/sections.hpp"
#include "test_support.hpp"

namespace ond {
namespace {

using test::ref_crc32;

std::vector<std::uint8_t> pattern(std::size_t n) {
    std::vector<std::uint8_t> v(n);
    std::uint32_t x = 0x12345678u;
    for (auto& b : v) {
        x = x * 1103515245u + 12345u;
        b = static_cast<std::uint8_t>(x >> 23);
    }
    return v;
}

TEST(Crc32, MatchesReferenceAtEveryLengthAndAlignment) {
    const auto data = pattern(4096 + 64);
    for (std::size_t align = 0; align < 16; align += 5)
        for (std::size_t n : {0u, 1u, 3u, 7u, 8u, 15u, 16u, 17u, 31u, 32u, 63u, 64u, 65u, 127u, 128u, 255u, 256u, 257u,
                              511u, 1023u, 1024u, 2047u, 4096u})
            EXPECT_EQ(detail::crc32(data.data() + align, n), ref_crc32(data.data() + align, n)) << "n=" << n << " align=" << align;
}

TEST(Crc32, ContinuesARunningCrcAcrossAnySplit) {
    const auto data = pattern(3000);
    const std::uint32_t whole = ref_crc32(data.data(), data.size());
    for (std::size_t cut : {0u, 1u, 13u, 64u, 255u, 1024u, 2999u, 3000u})
        EXPECT_EQ(detail::crc32(data.data() + cut, data.size() - cut, detail::crc32(data.data(), cut)), whole) << "cut=" << cut;
}

TEST(Crc32, MultiMegabyteBuffer) {
    const auto data = pattern(3u << 20);
    EXPECT_EQ(detail::crc32(data.data(), data.size()), ref_crc32(data.data(), data.size()));
}

TEST(CrcJob, LargeBuffersOnASecondThreadOthersOnTheCaller) {
    const auto data = pattern(detail::crc_thread_min_bytes + 1);
    const std::uint32_t whole = detail::crc32(data.data(), data.size());
    {
        detail::CrcJob job(data.data(), data.size(), true);
        EXPECT_TRUE(job.on_thread());
        EXPECT_EQ(job.result(), whole);
        EXPECT_FALSE(job.on_thread());  // joined
        EXPECT_EQ(job.result(), whole);
    }
    {
        detail::CrcJob below(data.data(), detail::crc_thread_min_bytes - 1, true);
        EXPECT_FALSE(below.on_thread());
        EXPECT_EQ(below.result(), detail::crc32(data.data(), detail::crc_thread_min_bytes - 1));
    }
    detail::CrcJob inspecting(data.data(), data.size(), false);
    EXPECT_FALSE(inspecting.on_thread());
    EXPECT_EQ(inspecting.result(), whole);
    set_crc_thread(false);
    detail::CrcJob off(data.data(), data.size(), true);
    set_crc_thread(true);
    EXPECT_FALSE(off.on_thread());
    EXPECT_EQ(off.result(), whole);
    detail::CrcJob dropped(data.data(), data.size(), true);  // never asked: the destructor joins
    EXPECT_TRUE(dropped.on_thread());
}

// A container past the thread's threshold: the same verdicts, codes and offsets with the CRC on
// a second thread and on the caller's, and a fault of the body still wins over a bad trailer.
TEST(CrcJob, ALargeContainerReadsTheSameWithAndWithoutTheThread) {
    const std::string text(detail::crc_thread_min_bytes + 100, 'a');
    test::Ctr x;
    x.add(1, test::strings_content({}));
    const std::size_t text_at = x.add(2, test::text_content(text));
    x.add(3, test::tokens_content({{0, 1}}));
    const auto good = x.build(true);
    auto bad_crc = good;
    bad_crc.back() ^= 0x01;
    auto both = bad_crc;
    both[text_at] = 7;  // the encoding byte: text.bad-encoding, before the trailer's mismatch
    for (bool thread : {true, false}) {
        SCOPED_TRACE(thread ? "CRC on a second thread" : "CRC on the caller's thread");
        set_crc_thread(thread);
        const Summary s = validate(test::view(good));
        EXPECT_EQ(s.tokens, 1u);
        EXPECT_TRUE(s.crc);
        const Container c = decode(test::view(good));
        EXPECT_EQ(c.docs[0].text.size(), text.size());
        EXPECT_TRUE(test::Rejects(bad_crc, "crc.mismatch", good.size() - 4));
        EXPECT_TRUE(test::Rejects(both, "text.bad-encoding", text_at));
    }
    set_crc_thread(true);
}

}  // namespace
}  // namespace ond
