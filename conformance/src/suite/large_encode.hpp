// The answers of large/encode-tokens-at-cap and large/encode-body-at-cap judged as they arrive:
// the canonical bytes (344 MB at 2^25 tokens; 4.3 GB for the body of 2^32 - 1 bytes) are made
// piece by piece beside the testee's and compared, so an encoder that writes them exactly costs
// the runner one piece. Bytes that differ are kept from the first difference on, up to the
// answer's limit, in an unlinked file of the runner's temporary directory, and judged whole at the
// end, read through a mapping of that file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "suite/classify.hpp"
#include "suite/large.hpp"
#include "suite/large_answer.hpp"

namespace ond::conformance {

// Up to this size of the canonical bytes, other bytes are judged exactly as an ordinary encode
// case's (add_writer_findings, which walks both byte strings field by field: tens of GB at 2^25
// tokens); past it, by judge_token_bytes.
inline constexpr std::uint64_t exact_writer_judge_bytes = std::uint64_t{4} << 20;

// The canonical bytes of large.cpp's document of n one-unit tokens, expected from an encoder.
// `rules`: the case's. `keep_limit`: the most bytes of a differing answer kept (the case's answer
// limit; the transport cuts the answer there). `exact_up_to`: exact_writer_judge_bytes (tests
// lower it to reach the other judgement at small sizes).
std::shared_ptr<StreamedAnswer> expect_token_bytes(std::uint32_t n, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                   std::uint64_t exact_up_to = exact_writer_judge_bytes);

// Bytes `got` an encoder wrote for the content of n one-unit tokens, other than the canonical
// ones, judged without holding more than the reference's decoding of them: bytes that do not
// decode, or that decode to other content, fail (required, the first difference's place); the
// same content in other bytes breaks the writer rules named (W1-W5, at each rule's level), found
// in one walk of the inspector that keeps nothing per field.
std::vector<Finding> judge_token_bytes(std::uint32_t n, std::string_view got, const std::vector<std::string>& rules);

// The canonical bytes of large.cpp's document of two category labels, expected from an encoder;
// the arguments as expect_token_bytes'.
std::shared_ptr<StreamedAnswer> expect_category_bytes(CategoryLabels labels, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                      std::uint64_t exact_up_to = exact_writer_judge_bytes);

// Bytes `got` an encoder wrote for that content, other than the canonical ones, judged as
// judge_token_bytes judges, without a copy of the labels: the inspector's walk (decode()'s checks)
// says whether they decode, and its fields give the labels' places in `got`, compared there.
std::vector<Finding> judge_category_bytes(CategoryLabels labels, std::string_view got, const std::vector<std::string>& rules);

}  // namespace ond::conformance
