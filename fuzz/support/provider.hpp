// The fuzzer's byte source for harnesses that need context values (a table size, a token count)
// besides the bytes under test.
//
// With clang, this is libFuzzer's FuzzedDataProvider. Without it (g++ builds, which replay the
// corpora through fuzz/replay_main.cpp), a small class of our own with the same semantics for
// the few methods the harnesses use, so that one input means the same thing in both builds:
// integers are taken from the END of the input, one byte at a time, most significant first, and
// reduced modulo the range; the bytes that remain at the front are the bytes under test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#if defined(__has_include)
#if __has_include(<fuzzer/FuzzedDataProvider.h>)
#include <fuzzer/FuzzedDataProvider.h>
#define OND_HAVE_FDP 1
#endif
#endif

namespace ond::fuzz {

#if defined(OND_HAVE_FDP)
using Provider = FuzzedDataProvider;
#else
class Provider {
public:
    Provider(const std::uint8_t* data, std::size_t size) noexcept : data_(data), remaining_(size) {}

    template <typename T>
    T ConsumeIntegralInRange(T min, T max) {
        static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(std::uint64_t));
        if (min > max) std::abort();
        const std::uint64_t range = static_cast<std::uint64_t>(max) - static_cast<std::uint64_t>(min);
        std::uint64_t result = 0;
        std::size_t bits = 0;
        while (bits < sizeof(T) * 8 && (range >> bits) > 0 && remaining_ != 0) {
            --remaining_;
            result = (result << 8) | data_[remaining_];
            bits += 8;
        }
        if (range != std::numeric_limits<std::uint64_t>::max()) result %= range + 1;
        return static_cast<T>(static_cast<std::uint64_t>(min) + result);
    }

    template <typename T>
    T ConsumeIntegral() {
        return ConsumeIntegralInRange(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    }

    bool ConsumeBool() { return (ConsumeIntegral<std::uint8_t>() & 1) != 0; }

    std::size_t remaining_bytes() const noexcept { return remaining_; }

private:
    const std::uint8_t* data_;
    std::size_t remaining_;
};
#endif

}  // namespace ond::fuzz
