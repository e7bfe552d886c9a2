// SHA-256 (FIPS 180-4), to check the manifest's per-file hashes before a case is trusted.
#pragma once

#include <string>
#include <string_view>

namespace ond::conformance {

std::string sha256_hex(std::string_view data);

}  // namespace ond::conformance
