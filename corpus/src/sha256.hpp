// SHA-256 (OpenSSL libcrypto), for the corpus manifest, the export's VERSION file and the runner.
#pragma once

#include <string>
#include <string_view>

namespace ond::corpus {

// Lower-case hex digest of the bytes.
std::string sha256_hex(std::string_view bytes);

}  // namespace ond::corpus
