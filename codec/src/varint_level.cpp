// The choice of varint fast paths (varint_level.hpp): made once, from the CPU and
// OND_VARINT_LEVEL, and changeable by tests and benchmarks.
#include "ond/internal/varint_level.hpp"

#include <atomic>
#include <cstdlib>

#include "varint_bulk.hpp"

namespace ond::detail {

namespace {

const VarintKernels scalar_kernels = {VarintLevel::scalar, &varint_bulk::swar::indexes, &varint_bulk::swar::spans,
                                      &varint_bulk::swar::heads};

}  // namespace

#if defined(__x86_64__)
extern const VarintKernels varint_kernels_sse41, varint_kernels_avx2, varint_kernels_avx512;  // varint_bulk_x86.cpp
#endif

// The level used when OND_VARINT_LEVEL does not say: the widest the CPU has, measured faster than
// the SWAR path on validate and decode (bench/README.md).
constexpr VarintLevel default_level = VarintLevel::avx512;

namespace {

VarintLevel detect() noexcept {
#if defined(__x86_64__)
    __builtin_cpu_init();
    // __builtin_cpu_supports also checks that the OS saves the wider registers.
    const bool bmi = __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    // avx512 hands runs of 32-63 items to avx2 (varint_bulk_x86.cpp), so it needs AVX2 too.
    const bool sse41 = __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("popcnt");
    const bool avx2 = sse41 && bmi && __builtin_cpu_supports("avx2");
    if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return VarintLevel::avx512;
    if (avx2) return VarintLevel::avx2;
    if (sse41) return VarintLevel::sse41;
#endif
    return VarintLevel::scalar;
}

VarintLevel clamp(VarintLevel level) noexcept {
    const VarintLevel top = varint_level_supported();
    return static_cast<int>(level) > static_cast<int>(top) ? top : level;
}

std::atomic<const VarintKernels*> active{nullptr};

const VarintKernels* choose() noexcept {
    VarintLevel level = default_level;
    if (const char* env = std::getenv("OND_VARINT_LEVEL"))
        if (auto named = parse_varint_level(env)) level = *named;  // an unknown name: the default
    const VarintKernels* k = varint_kernels(clamp(level));
    const VarintKernels* expected = nullptr;
    // A set_varint_level() that ran meanwhile wins.
    return active.compare_exchange_strong(expected, k, std::memory_order_relaxed) ? k : expected;
}

}  // namespace

const char* varint_level_name(VarintLevel level) noexcept {
    switch (level) {
        case VarintLevel::scalar: return "scalar";
        case VarintLevel::sse41: return "sse41";
        case VarintLevel::avx2: return "avx2";
        case VarintLevel::avx512: return "avx512";
    }
    return "?";
}

std::optional<VarintLevel> parse_varint_level(std::string_view name) noexcept {
    for (VarintLevel l : {VarintLevel::scalar, VarintLevel::sse41, VarintLevel::avx2, VarintLevel::avx512})
        if (name == varint_level_name(l)) return l;
    return std::nullopt;
}

VarintLevel varint_level_supported() noexcept {
    static const VarintLevel level = detect();
    return level;
}

const VarintKernels* varint_kernels(VarintLevel level) noexcept {
    if (static_cast<int>(level) > static_cast<int>(varint_level_supported())) return nullptr;
    switch (level) {
        case VarintLevel::scalar: return &scalar_kernels;
#if defined(__x86_64__)
        case VarintLevel::sse41: return &varint_kernels_sse41;
        case VarintLevel::avx2: return &varint_kernels_avx2;
        case VarintLevel::avx512: return &varint_kernels_avx512;
#else
        default: break;
#endif
    }
    return nullptr;
}

const VarintKernels& active_varint_kernels() noexcept {
    const VarintKernels* k = active.load(std::memory_order_relaxed);
    if (!k) [[unlikely]]
        k = choose();
    return *k;
}

VarintLevel varint_level() noexcept { return active_varint_kernels().level; }

VarintLevel set_varint_level(VarintLevel level) noexcept {
    const VarintKernels* k = varint_kernels(clamp(level));
    active.store(k, std::memory_order_relaxed);
    return k->level;
}

}  // namespace ond::detail
