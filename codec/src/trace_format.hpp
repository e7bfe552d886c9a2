// Formatting of decoded values for inspect listings. Internal.
#pragma once

#include <cstdint>
#include <string>

#include "ond/internal/sections.hpp"

namespace ond::detail {

// A string's value for people: JSON-style quoted, with its encoding flag; cut after 80
// characters, then followed by its stored length unless `cut_length` is false (the caller
// shows a length of its own).
std::string describe_string(const RawString& s, bool cut_length = true);
std::string describe_float(float f);
std::string quote_wtf8(std::string_view s, std::size_t max_chars = 80);

}  // namespace ond::detail
