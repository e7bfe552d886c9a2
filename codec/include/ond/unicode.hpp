// UTF-8 / UTF-16 / WTF-8 helpers shared by the codec, the JSON layer and the tools.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ond::unicode {

// Well-formed UTF-8 per RFC 3629 (no overlongs, no surrogates, nothing above U+10FFFF).
// On success returns the length in UTF-16 code units; on failure nullopt and, if err_at is
// given, the offset of the first byte of the ill-formed sequence.
std::optional<std::uint64_t> utf8_utf16_length(const unsigned char* p, std::size_t n,
                                               std::size_t* err_at = nullptr) noexcept;

// WTF-8 as the model uses it: like UTF-8 but a lone surrogate may appear as its 3-byte form,
// and a high surrogate's 3-byte form must not be followed by a low surrogate's (that pair must
// be one 4-byte sequence). Returns the UTF-16 length, or nullopt when not valid.
std::optional<std::uint64_t> wtf8_utf16_length(std::string_view s) noexcept;

// True when a (valid) WTF-8 string contains a lone surrogate, i.e. is not plain UTF-8.
bool wtf8_has_surrogate(std::string_view s) noexcept;

// Appends the UTF-8 form of a code point (1–4 bytes). A surrogate code point gives its 3-byte
// WTF-8 form. Precondition: cp <= 0x10FFFF.
void append_utf8(std::string& out, std::uint32_t cp);

// UTF-16 code units (as little-endian bytes, or as units) to WTF-8. Any sequence is accepted.
void append_wtf8_from_utf16le(std::string& out, const unsigned char* p, std::size_t units);
std::string wtf8_from_utf16(std::u16string_view units);

// WTF-8 to UTF-16 code units. Precondition: valid WTF-8.
std::u16string utf16_from_wtf8(std::string_view s);
void append_utf16le_from_wtf8(std::string& out, std::string_view s);
// The same into memory with room for 2 * wtf8_utf16_length(s) bytes; returns the bytes written.
std::size_t write_utf16le_from_wtf8(unsigned char* out, std::string_view s) noexcept;

// ---- offsets between UTF-16 code units and WTF-8 bytes ----------------------------------------
//
// Token and span offsets count UTF-16 code units; the model's text is WTF-8. These map one to
// the other on a valid WTF-8 string (Doc::text always is: set_text and the readers check it). An
// offset between the two halves of a surrogate pair has no byte in WTF-8 (the pair is one 4-byte
// sequence), and a byte offset inside a sequence has no code unit: both give nullopt, as does an
// offset past the end.

// The byte offset of UTF-16 offset `units` in `s`.
std::optional<std::size_t> utf16_to_wtf8_offset(std::string_view s, std::uint64_t units) noexcept;
// The UTF-16 offset of byte offset `bytes` in `s`.
std::optional<std::uint64_t> wtf8_to_utf16_offset(std::string_view s, std::size_t bytes) noexcept;

// The same for many offsets over one string, in O(1) amortised per call while the offsets do
// not go back (a document's tokens are in text order); going back restarts from the beginning.
class Utf16Offsets {
public:
    explicit Utf16Offsets(std::string_view wtf8) noexcept : s_(wtf8) {}
    // The same when the string's UTF-16 length is known: equal to its byte length means the
    // string is ASCII, and every mapping is then O(1) with no walk. (A wrong length gives wrong
    // offsets, never out-of-bounds ones.)
    Utf16Offsets(std::string_view wtf8, std::uint64_t utf16_length) noexcept
        : s_(wtf8), ascii_(wtf8.size() == utf16_length) {}
    // The same, its walk starting at a character boundary known to be at byte `byte`, UTF-16
    // offset `unit` (e.g. from a Utf16Index): offsets from there on cost only the distance.
    Utf16Offsets(std::string_view wtf8, std::uint64_t utf16_length, std::size_t byte, std::uint64_t unit) noexcept
        : s_(wtf8), ascii_(wtf8.size() == utf16_length), byte_(byte), unit_(unit) {}

    std::optional<std::size_t> to_bytes(std::uint64_t units) noexcept;
    std::optional<std::uint64_t> to_units(std::size_t bytes) noexcept;
    // The bytes of the UTF-16 range [start, start + length) as a view of the string.
    std::optional<std::string_view> view(std::uint64_t start, std::uint64_t length) noexcept;
    // The UTF-16 range (start, length) of a byte range of the string, e.g. of a substring found
    // with find(): `part` must lie within the string's bytes.
    struct Range {
        std::uint64_t start = 0, length = 0;
    };
    std::optional<Range> range(std::size_t byte_start, std::size_t byte_length) noexcept;

    // The byte offset of the character boundary at or before UTF-16 offset `units` (with
    // round_up: at or after it), never past the string's end. The two differ only between the
    // halves of a surrogate pair: then they are the start and the end of its 4-byte sequence.
    std::size_t to_bytes_rounded(std::uint64_t units, bool round_up) noexcept;
    // The whole characters the UTF-16 range [start, start + length) touches, as a view of the
    // string: view(start, length) when that exists; a range that splits a surrogate pair is
    // widened to take the whole pair, and what lies past the string's end is left out.
    std::string_view covering_view(std::uint64_t start, std::uint64_t length) noexcept;

private:
    void restart_if_past(std::uint64_t units, std::size_t bytes) noexcept;
    // Moves to the last character boundary at or before UTF-16 offset `units` (or the string's
    // end); returns the bytes of the sequence that `units` falls inside (a surrogate pair's), else 0.
    std::size_t walk_to(std::uint64_t units) noexcept;
    std::string_view s_;
    bool ascii_ = false;     // one byte per UTF-16 unit
    std::size_t byte_ = 0;   // a sequence boundary
    std::uint64_t unit_ = 0;  // its UTF-16 offset
};

// Where a walk over one WTF-8 string may start: the character boundary at or before every
// step-th UTF-16 offset, found in one O(n) pass and kept in 8 bytes per step units. walker(u)
// starts a Utf16Offsets at most step units before u, so mapping any offset costs O(step), not
// O(the string). Valid for the string it was built from (same bytes).
class Utf16Index {
public:
    static constexpr std::uint64_t step = 64;
    explicit Utf16Index(std::string_view wtf8);
    std::size_t bytes() const noexcept { return bytes_; }  // of the string it was built from
    // A walk over `wtf8` (the same string) from the last sample at or before UTF-16 offset `units`.
    Utf16Offsets walker(std::string_view wtf8, std::uint64_t utf16_length, std::uint64_t units) const noexcept;

private:
    // Sample k: (byte << 1) | d, the boundary at UTF-16 offset k * step - d (d = 1 when k * step
    // falls between the halves of a surrogate pair).
    std::vector<std::uint64_t> samples_;
    std::size_t bytes_ = 0;
};

}  // namespace ond::unicode
