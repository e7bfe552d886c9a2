// from_json's fast road (content_reader.cpp). Internal header.
#pragma once

#include <string_view>

#include "ond/model.hpp"

namespace ond::json::detail {

// Reads content JSON as to_json writes it into `c` (a fresh container) in one pass, with no
// parse tree. False when the text is anything else, or anything this reader does not take
// (c is then to be thrown away): the full reading (Tape + loader) must judge it.
bool read_content(std::string_view text, Container& c);

// The full reading (content_loader.cpp): the text parsed to a tape, then loaded from it with a
// message for every error. What from_json does with what read_content does not take.
Container load_from_tape(std::string_view text);

}  // namespace ond::json::detail
