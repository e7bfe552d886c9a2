// Whether this test binary (and so the tools built with it) runs under AddressSanitizer.
//
// ASan reserves terabytes of address space for its shadow and keeps freed memory in a
// quarantine: under it a process cannot run with an address-space cap, and its peak resident
// memory says nothing of the program's own use. Tests that hold a memory bound or set RLIMIT_AS
// assert those in the build without sanitizers and everything else in both.
#pragma once

namespace ond::test_support {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool address_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool address_sanitized = true;
#else
inline constexpr bool address_sanitized = false;
#endif
#else
inline constexpr bool address_sanitized = false;
#endif

}  // namespace ond::test_support
