// `ond conform --large`: the limits at full size (R17, R26), with inputs made on the fly into
// the testee's stdin, never held by the runner (at most one 1 MiB piece at a time).
#pragma once

#include <iosfwd>

#include "runner.hpp"

namespace ond::conformance {

// Runs the large cases against the adapters of `opt` (--decoder for the 2^25 + 1 token document,
// --stream-decoder for the stream declaring and delivering a body of 2^30 + 1 bytes); prints one
// line per case. Returns false when a required check failed.
bool run_large_cases(const Options& opt, std::ostream& out);

}  // namespace ond::conformance
