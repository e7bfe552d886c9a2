// Choosing the varint fast paths (varint_level.hpp): names, clamping to the CPU, forcing.
#include <gtest/gtest.h>

#include <cstdlib>

#include "ond/internal/varint_level.hpp"

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

// OND_VARINT_LEVEL is read once, at first use; every test that forces a level restores it, so
// the level in use at the start of any test is the one the environment chose. CTest runs this
// with the variable set (codec/CMakeLists.txt); without it, the test is skipped.
TEST(VarintLevel, EnvironmentChoosesAtFirstUse) {
    const char* env = std::getenv("OND_VARINT_LEVEL");
    if (!env) GTEST_SKIP() << "OND_VARINT_LEVEL is not set";
    const VarintLevel top = varint_level_supported();
    if (const auto named = parse_varint_level(env))
        EXPECT_EQ(varint_level(), static_cast<int>(*named) <= static_cast<int>(top) ? *named : top) << env;
    else  // an unknown name: the default, the widest level the CPU has
        EXPECT_EQ(varint_level(), top) << env;
}

}  // namespace
}  // namespace ond::detail
