// Which implementation of the tokens section's varint fast paths runs (internal header).
//
// The fast paths (varint_bulk.hpp) exist at several widths: `scalar` (SWAR, 8 bytes at a time,
// every platform), and on x86-64 `sse41` (16 bytes), `avx2` (32) and `avx512` (64, AVX-512F+BW).
// One is chosen once, on first use: OND_VARINT_LEVEL=scalar|sse41|avx2|avx512 when set, otherwise
// the default; either way clamped to what the CPU supports. Every level gives the same values,
// stop positions and so verdicts (varint_level_test.cpp checks each against `scalar`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ond::detail {

class Cursor;

enum class VarintLevel : int { scalar = 0, sse41 = 1, avx2 = 2, avx512 = 3 };

// One level's fast paths; same contracts as varint_bulk::swar::indexes, spans and heads.
struct VarintKernels {
    VarintLevel level;
    std::size_t (*indexes)(Cursor& c, std::uint32_t* out, std::size_t count, std::uint32_t limit) noexcept;
    std::uint32_t (*spans)(Cursor& c, std::uint32_t* start, std::uint32_t* length, std::uint32_t first,
                           std::uint32_t count, std::uint64_t& prev_end, std::uint32_t text_length) noexcept;
    std::uint32_t (*heads)(Cursor& c, std::int32_t* out, std::uint32_t first, std::uint32_t n) noexcept;
};

const char* varint_level_name(VarintLevel level) noexcept;
std::optional<VarintLevel> parse_varint_level(std::string_view name) noexcept;

// The highest level this build and this CPU both support.
VarintLevel varint_level_supported() noexcept;
// The level in use (reads OND_VARINT_LEVEL on the first call of any of these).
VarintLevel varint_level() noexcept;
// Forces a level, clamped to varint_level_supported(); returns the level now in use.
VarintLevel set_varint_level(VarintLevel level) noexcept;

// The kernels of `level`, or null when this build or CPU lacks it (tests compare levels).
const VarintKernels* varint_kernels(VarintLevel level) noexcept;
// The kernels in use.
const VarintKernels& active_varint_kernels() noexcept;

}  // namespace ond::detail
