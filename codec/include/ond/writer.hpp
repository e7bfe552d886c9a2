// The canonical writer (rulings W1-W5).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ond/error.hpp"
#include "ond/model.hpp"

namespace ond {

// Checks that the content can be written (throws ond::Error with an `content.*` code and the
// field's path otherwise), then returns its canonical bytes, with a trailer when c.crc is set.
std::vector<std::byte> encode(const Container& c);
void encode_append(const Container& c, std::vector<std::byte>& out);

// Only the check, no bytes.
void check_writable(const Container& c);

}  // namespace ond
