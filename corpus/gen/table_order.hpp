// The string-table orders a writer may number its table in (W3), as data for an encode case's
// `<name>.table.json`: what a consumer of the files alone needs to check the required writer rule.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "case.hpp"

namespace ond::corpus::gen {

// Each used non-empty string once, in the order of its first use: in the body's bytes
// (`token_by_token` false: the six attribute columns one after another) or token by token (the
// six attributes of token 0, then token 1, ...); then entity labels, category labels, group
// names and span labels in section order, document after document. Strings are WTF-8.
std::vector<std::string> first_use_order(const Container& c, bool token_by_token);

// The string table stored in a container's bytes (section 1), as WTF-8 strings; nullopt when
// the bytes are not a framed container with a readable table.
std::optional<std::vector<std::string>> stored_table(const Buf& container);

// `{"canonical": [...], "token_by_token": [...]}` with strings in the content model's spelling
// (an ordinary JSON string, or {"utf16": [...]} for one with an unpaired surrogate).
std::string table_json(const Container& c);

}  // namespace ond::corpus::gen
