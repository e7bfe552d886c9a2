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

// large/tokens-at-cap (decode, 2^25 tokens, about 344 MB; its answer about 4.1 GB of content
// JSON), large/tokens-cap-plus-one (2^25 + 1 tokens, refused), large/encode-tokens-at-cap (the
// same content as 4.1 GB of content JSON, to be written as the canonical bytes),
// large/encode-tokens-cap-plus-one (2^25 + 1 tokens, refused), large/stream-body-at-cap (a
// container body of exactly 2^30 bytes, accepted), large/stream-body-cap-plus-one (2^30 + 1,
// refused).
std::vector<Case> large_cases(const LargeCaps& caps = {});

// The canonical ONDC of n one-unit tokens over a text of n x "a", nothing else set (valid when
// n <= 2^25, R17): a fresh reader of its bytes, and their number.
PieceReader token_document_pieces(std::uint32_t n);
std::uint64_t token_document_bytes(std::uint32_t n);

// The compact content JSON of that document, exactly as the reference's to_json writes it: a
// fresh reader of its bytes, and their number.
PieceReader token_content_pieces(std::uint32_t n);
std::uint64_t token_content_bytes(std::uint32_t n);

// A large case's time-out: the run's, but at least 300 s (the inputs are hundreds of MB).
std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout);

}  // namespace ond::conformance
