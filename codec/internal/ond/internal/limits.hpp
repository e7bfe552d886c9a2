// The format's size limits: the most tokens a document may declare (R17), and what the canonical
// writer can fit in the format's fields, as arithmetic on sizes, so the checks (and their tests)
// reach the limits without building gigabyte strings.
#pragma once

#include <cstdint>

namespace ond::detail {

// A tokens section declares at most 2^25 tokens (R17).
inline constexpr std::uint32_t max_tokens = 33'554'432;

// A string's length is stored as (bytes << 1 | flag) in a varint of at most 32 bits.
inline constexpr std::uint64_t max_string_bytes = 0x7FFFFFFFu;
// A section's, a record's and the body's lengths are u32.
inline constexpr std::uint64_t max_section_bytes = 0xFFFFFFFFu;

// Bytes of a string's value in the form W1 writes: its UTF-8 as it is when it holds no lone
// surrogate, else UTF-16LE, two bytes per code unit.
constexpr std::uint64_t written_string_bytes(std::uint64_t wtf8_bytes, std::uint64_t utf16_units,
                                             bool has_lone_surrogate) noexcept {
    return has_lone_surrogate ? 2 * utf16_units : wtf8_bytes;
}

// The text section: the encoding byte, then the text in the form W1 writes.
constexpr std::uint64_t text_section_bytes(std::uint64_t written) noexcept { return 1 + written; }

}  // namespace ond::detail
