// The --large cases: the limits at full size (R17, R26), their inputs made on the fly into the
// testee's stdin (or frame), never held by the runner (at most one 1 MiB piece at a time). They
// are cases like the others (Origin::large): planned, run, classified and reported with them.
#pragma once

#include <chrono>
#include <vector>

#include "suite/cases.hpp"

namespace ond::conformance {

// A decode case of 2^25 + 1 tokens (about 345 MB) and a stream case whose container declares
// and delivers a body of 2^30 + 1 bytes; both must be rejected.
std::vector<Case> large_cases();

// A large case's time-out: the run's, but at least 300 s (the inputs are hundreds of MB).
std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout);

}  // namespace ond::conformance
