// detail::crc32 (R7) against the bitwise reference, whichever library the codec was built with
// (ISA-L's folding code has separate paths for short, medium and long buffers and for alignment).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sections.hpp"
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

}  // namespace
}  // namespace ond
