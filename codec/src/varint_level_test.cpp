// Choosing the varint fast paths (varint_level.hpp): names, clamping to the CPU, forcing.
#include <gtest/gtest.h>

#include "varint_level.hpp"

namespace ond::detail {
namespace {

constexpr VarintLevel every_varint_level[] = {VarintLevel::scalar, VarintLevel::sse41, VarintLevel::avx2,
                                              VarintLevel::avx512};

TEST(VarintLevel, NamesParseBack) {
    for (VarintLevel l : every_varint_level) EXPECT_EQ(parse_varint_level(varint_level_name(l)), l);
    EXPECT_EQ(parse_varint_level("AVX2"), std::nullopt);
    EXPECT_EQ(parse_varint_level(""), std::nullopt);
    EXPECT_EQ(parse_varint_level("avx512bw"), std::nullopt);
}

TEST(VarintLevel, ScalarIsAlwaysThere) {
    ASSERT_NE(varint_kernels(VarintLevel::scalar), nullptr);
    EXPECT_EQ(varint_kernels(VarintLevel::scalar)->level, VarintLevel::scalar);
}

TEST(VarintLevel, KernelsExactlyUpToTheSupportedLevel) {
    const VarintLevel top = varint_level_supported();
#if !defined(__x86_64__)
    EXPECT_EQ(top, VarintLevel::scalar);
#endif
    for (VarintLevel l : every_varint_level) {
        const VarintKernels* k = varint_kernels(l);
        if (static_cast<int>(l) <= static_cast<int>(top)) {
            ASSERT_NE(k, nullptr) << varint_level_name(l);
            EXPECT_EQ(k->level, l);
        } else {
            EXPECT_EQ(k, nullptr) << varint_level_name(l);
        }
    }
}

TEST(VarintLevel, ForcingClampsToTheCpu) {
    const VarintLevel saved = varint_level();
    const VarintLevel top = varint_level_supported();
    for (VarintLevel l : every_varint_level) {
        const VarintLevel want = static_cast<int>(l) <= static_cast<int>(top) ? l : top;
        EXPECT_EQ(set_varint_level(l), want) << varint_level_name(l);
        EXPECT_EQ(varint_level(), want);
        EXPECT_EQ(&active_varint_kernels(), varint_kernels(want));
    }
    set_varint_level(saved);
}

}  // namespace
}  // namespace ond::detail
