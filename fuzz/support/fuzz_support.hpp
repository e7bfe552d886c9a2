// Shared helpers of the fuzz harnesses and the property tests: property checks that abort,
// capturing a codec call's outcome (accepted, or the ond::Error's code and offset), and an
// independent, unchecked canonical encoder used as an oracle for the writer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ond/inspect.hpp"
#include "ond/ond.hpp"

namespace ond::fuzz {

// A violated property: print what and where, then abort (libFuzzer reports it as a crash and
// saves the input; the replay driver dies with SIGABRT, which fails its CTest test).
// The property tests switch this to throwing PropertyViolation instead, so that RapidCheck can
// report and shrink the failing case.
[[noreturn]] void property_failed(const char* expr, const char* file, int line, const std::string& note = {});
struct PropertyViolation : std::exception {
    std::string message;
    explicit PropertyViolation(std::string m) : message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
};
void set_property_failures_throw(bool on) noexcept;

#define OND_FUZZ_CHECK(cond)                                                  \
    do {                                                                      \
        if (!(cond)) ::ond::fuzz::property_failed(#cond, __FILE__, __LINE__); \
    } while (0)
#define OND_FUZZ_CHECK_MSG(cond, note)                                                \
    do {                                                                              \
        if (!(cond)) ::ond::fuzz::property_failed(#cond, __FILE__, __LINE__, (note)); \
    } while (0)

// What one call of the codec did. Only ond::Error is caught: any other exception escapes and
// terminates the process, which is itself a finding.
struct Outcome {
    bool ok = true;
    Errc errc{};
    std::uint64_t offset = 0;
    std::string what;

    bool same_verdict(const Outcome& o) const noexcept {
        return ok == o.ok && (ok || (errc == o.errc && offset == o.offset));
    }
    std::string describe() const { return ok ? std::string("accepted") : what; }
};

template <class F>
Outcome capture(F&& f) {
    Outcome r;
    try {
        f();
    } catch (const Error& e) {
        r.ok = false;
        r.errc = e.errc();
        r.offset = e.offset();
        r.what = e.what();
    }
    return r;
}

// Asserts that two outcomes agree on verdict, error code and offset.
void check_same(const Outcome& a, const Outcome& b, const char* what_a, const char* what_b);

inline Bytes bytes_of(const std::vector<std::byte>& v) { return Bytes(v.data(), v.size()); }
// Two sequences (spans, vectors) of equal values. Not std::ranges::equal: OSS-Fuzz's AFL++ build
// uses libc++ 14, which lacks the ranges algorithms.
template <class A, class B>
bool same_values(const A& a, const B& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}
inline std::vector<std::byte> copy_bytes(const std::uint8_t* p, std::size_t n) {
    std::vector<std::byte> v(n);
    if (n) std::memcpy(v.data(), p, n);
    return v;
}

inline std::uint32_t float_bits(float f) noexcept {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_float(std::uint32_t u) noexcept {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// CRC-32 computed bit by bit, independent of the codec (tests/support/ref_crc32.hpp).
std::uint32_t slow_crc32(const std::uint8_t* p, std::size_t n) noexcept;

// WTF-8 checked and decoded independently of the codec's unicode helpers. `utf8` means
// well-formed UTF-8 (no surrogates); `with_surrogates` is valid WTF-8 holding a lone surrogate.
// `units` (if given) receives the UTF-16 code units; `bad` the offset of the first byte of the
// first ill-formed sequence (for `with_surrogates`: of the first surrogate).
enum class Wtf8Kind { invalid, utf8, with_surrogates };
Wtf8Kind decode_wtf8(std::string_view s, std::u16string* units, std::size_t* bad);
// Well-formed UTF-8 (RFC 3629)? If not, `bad` is the offset of the first ill-formed sequence,
// a surrogate's 3-byte form included.
bool utf8_well_formed(std::string_view s, std::size_t* bad);

// An independent encoder written from the format description: the bytes a canonical writer
// produces for `c` (W1-W5), WITHOUT any check. For content the writer must refuse it still
// writes something (a wrapped gap, an index past the table, a misplaced section, raw bytes of
// an ill-formed string), chosen so that a strict reader rejects exactly those bytes. So:
//   encode(c) succeeds  <=>  decode(raw_encode(c)) succeeds, and then encode(c) == raw_encode(c).
std::vector<std::byte> raw_encode(const Container& c);

// Byte-level helpers for building inputs by hand.
void put_u8(std::vector<std::byte>& out, std::uint8_t v);
void put_u16(std::vector<std::byte>& out, std::uint16_t v);
void put_u32(std::vector<std::byte>& out, std::uint32_t v);
void put_varint(std::vector<std::byte>& out, std::uint32_t v);
void put_svarint(std::vector<std::byte>& out, std::int32_t v);
// Header + body + optional CRC trailer.
std::vector<std::byte> frame_container(const char magic[4], bool crc, std::span<const std::byte> body);

}  // namespace ond::fuzz
