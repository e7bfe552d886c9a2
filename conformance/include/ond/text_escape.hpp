// Showing a testee's bytes: whatever it writes (invalid UTF-8, control and invisible characters)
// becomes printable, valid UTF-8 text that every report format can hold, without losing a byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ond::conformance {

// Well-formed UTF-8 stays, except: a byte that is not part of a well-formed sequence becomes
// `\xHH`; a control or invisible character (C0 and C1 controls, DEL, U+00AD, U+200B-U+200F,
// U+2028-U+202E, U+2060-U+2064, U+FEFF, U+FFF9-U+FFFB, the noncharacters U+FDD0-U+FDEF and U+xFFFE-U+xFFFF, ...) becomes `\u{XXXX}`; newlines and
// tabs become `\n` and `\t` unless `keep_lines`. With `escape_backslash` a backslash is doubled,
// so the escaping can be undone exactly (testee bytes); without it, text that already escapes
// (a JSON-quoted value in a comparison message) keeps its own backslashes.
std::string escape_text(std::string_view s, bool escape_backslash = true, bool keep_lines = false);
// A testee's text as the reports show it: control characters escaped, backslashes and lines kept.
inline std::string safe(const std::string& s) { return escape_text(s, false, true); }

// A testee's text quoted in a finding or a report: its first `limit` bytes (cut at a character
// boundary), escaped as escape_text does, then "… (N bytes)" when it was cut. One testee can send
// megabytes where a report needs a few words; the cut is made before escaping, so the cost is
// bounded by `limit` whatever the testee wrote.
inline constexpr std::size_t quote_limit = 200;     // a bare testee string: an error code
inline constexpr std::size_t message_limit = 1000;  // a message that embeds testee text (a diff)
inline constexpr std::size_t detail_limit = 6000;   // a crash's detail: the first and last 2 KiB of stderr kept
std::string capped(std::string_view s, bool escape_backslash = true, std::size_t limit = quote_limit, bool keep_lines = false);
// A finding as the reports show it (safe), cut at the largest a finding is made: a result file
// merged into a page may hold anything.
inline std::string safe_message(std::string_view s) { return capped(s, false, detail_limit, true); }

// Text for XML and HTML: & < > " ' as entities. What XML 1.0 cannot hold becomes visible text as in
// escape_text: a byte outside well-formed UTF-8 (stray bytes, encoded surrogates) `\xHH`, a C0
// control other than newline, tab and carriage return, U+FFFE or U+FFFF `\u{XXXX}`.
std::string xml_escape(std::string_view s);

}  // namespace ond::conformance
