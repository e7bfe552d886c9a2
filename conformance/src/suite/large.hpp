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
    std::uint64_t body = 0xFFFFFFFFu;      // a body's u32 length: the most a writer can write
};

// large/tokens-at-cap (decode, 2^25 tokens, about 344 MB; its answer about 4.1 GB of content
// JSON), large/tokens-cap-plus-one (2^25 + 1 tokens, refused), large/encode-tokens-at-cap (the
// same content as 4.1 GB of content JSON, to be written as the canonical bytes),
// large/encode-tokens-cap-plus-one (2^25 + 1 tokens, refused), large/stream-body-at-cap (a
// container body of exactly 2^30 bytes, accepted), large/stream-body-cap-plus-one (2^30 + 1,
// refused), large/encode-body-at-cap (two category labels filling a body of exactly 2^32 - 1
// bytes, to be written as the canonical bytes), large/encode-body-cap-plus-one (one byte more,
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

// Two category labels, 'a' x first (score 0.5) and 'b' x second (score 0.25), nothing else set:
// the content whose canonical ONDC is the largest body a writer may write when `body` is 2^32 - 1.
struct CategoryLabels {
    std::uint32_t first = 0, second = 0;
};
// The labels whose canonical ONDC has a body of exactly `body` bytes (36 to 2^32 bytes; the
// first label as long as a string may be, 2^31 - 1 bytes, when the body has room for it).
CategoryLabels labels_filling_body(std::uint64_t body);
// That ONDC (its body at most 2^32 - 1 bytes): a fresh reader of its bytes, their number, and the
// offsets of its length fields (the body's, then each section's).
PieceReader category_document_pieces(CategoryLabels labels);
std::uint64_t category_document_bytes(CategoryLabels labels);
std::vector<std::uint64_t> category_document_lengths(CategoryLabels labels);
// Its compact content JSON, exactly as the reference's to_json writes it.
PieceReader category_content_pieces(CategoryLabels labels);
std::uint64_t category_content_bytes(CategoryLabels labels);

// A large case's time-out: the run's, but at least 300 s (the inputs are hundreds of MB).
std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout);

}  // namespace ond::conformance
