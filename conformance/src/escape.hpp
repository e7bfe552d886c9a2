// Showing a testee's bytes: whatever it writes (invalid UTF-8, control and invisible characters)
// becomes printable, valid UTF-8 text that every report format can hold, without losing a byte.
#pragma once

#include <string>
#include <string_view>

namespace ond::conformance {

// Well-formed UTF-8 stays, except: a byte that is not part of a well-formed sequence becomes
// `\xHH`; a control or invisible character (C0 and C1 controls, DEL, U+00AD, U+200B-U+200F,
// U+2028-U+202E, U+2060-U+2064, U+FEFF, U+FFF9-U+FFFB, ...) becomes `\u{XXXX}`; newlines and
// tabs become `\n` and `\t` unless `keep_lines`. With `escape_backslash` a backslash is doubled,
// so the escaping can be undone exactly (testee bytes); without it, text that already escapes
// (a JSON-quoted value in a comparison message) keeps its own backslashes.
std::string escape_text(std::string_view s, bool escape_backslash = true, bool keep_lines = false);
// A testee's text as the reports show it: control characters escaped, backslashes and lines kept.
inline std::string safe(const std::string& s) { return escape_text(s, false, true); }

// Text for XML and HTML: & < > " ' as entities; C0 controls other than newline and tab (which
// XML 1.0 cannot hold) become '?'.
std::string xml_escape(std::string_view s);

}  // namespace ond::conformance
