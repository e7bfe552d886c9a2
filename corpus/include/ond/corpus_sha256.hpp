// SHA-256 (OpenSSL libcrypto) of corpus files: the manifest, the export's VERSION file, and the
// runner's check of the hashes, all computed by this one function.
#pragma once

#include <string>
#include <string_view>

namespace ond::corpus {

// Lower-case hex digest of the bytes.
std::string sha256_hex(std::string_view bytes);

}  // namespace ond::corpus
