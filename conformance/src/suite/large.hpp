// The --large cases: the limits at full size (R17, R26), at each cap (must be accepted) and one
// past it (must be refused). Their inputs are made on the fly into the testee's stdin (or frame),
// never held by the runner (at most one 1 MiB piece at a time); the answers of the accepted ones
// are judged as they arrive (large_answer.hpp), never held either. They are cases like the
// others (Origin::large): planned, run, classified and reported with them.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "suite/cases.hpp"

namespace ond::conformance {

// The caps the cases are made at: the format's, or smaller ones in tests (same inputs, shorter).
struct LargeCaps {
    std::uint32_t tokens = 1u << 25;       // R17
    std::uint32_t stream_body = 1u << 30;  // R26
};

// large/tokens-at-cap (decode, 2^25 tokens, about 336 MB; its answer about 4.1 GB of content
// JSON), large/tokens-cap-plus-one (2^25 + 1 tokens, refused), large/stream-body-at-cap (a
// container body of exactly 2^30 bytes, accepted), large/stream-body-cap-plus-one (2^30 + 1,
// refused).
std::vector<Case> large_cases(const LargeCaps& caps = {});

// A large case's time-out: the run's, but at least 300 s (the inputs are hundreds of MB).
std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout);

}  // namespace ond::conformance
