// SHA-256 of the corpus files: the runner uses the corpus library's implementation, so the
// hashes it checks are computed by the same code that wrote the manifest.
#pragma once

#include "../../corpus/src/sha256.hpp"

namespace ond::conformance {

using ond::corpus::sha256_hex;

}  // namespace ond::conformance
