// Check sites of the reader and rule sites of the writer, switchable in a test-only build.
//
// In ond::codec both macros compile to the plain check: OND_CHECK(e, cond) is (cond) and
// OND_CHECK_OFF(e) / OND_RULE_OFF(id) are false. Only the test target ond_codec_switchable
// (compiled with OND_CHECK_SWITCHES) can switch one reader check off by its error code, or one
// writer rule off by its id, to prove that the conformance suite notices (issue: suite power).
// A switched-off check lets the reader continue as if the check had passed.
#pragma once

#include <string_view>

#include "ond/error.hpp"

#if defined(OND_CHECK_SWITCHES)

namespace ond::detail {
bool check_on(Errc e) noexcept;
bool rule_on(std::string_view rule) noexcept;
// Switches off the reader check with this code or the writer rule with this id (W1-utf8,
// W1-varint, W2, W3-unused, W3-order, W3-canonical, W4, W5-padding, W5-flags); false if unknown.
bool switch_off(std::string_view code_or_rule);
}  // namespace ond::detail

#define OND_CHECK(errc, cond) ((cond) && ::ond::detail::check_on(errc))
#define OND_CHECK_OFF(errc) (!::ond::detail::check_on(errc))
#define OND_RULE_OFF(rule) (!::ond::detail::rule_on(rule))

#else

#define OND_CHECK(errc, cond) (cond)
#define OND_CHECK_OFF(errc) false
#define OND_RULE_OFF(rule) false

#endif
