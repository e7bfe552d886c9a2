// SHA-256 (FIPS 180-4), for the corpus manifest and the export's VERSION file.
#pragma once

#include <string>
#include <string_view>

namespace ond::corpus {

// Lower-case hex digest of the bytes.
std::string sha256_hex(std::string_view bytes);

}  // namespace ond::corpus
