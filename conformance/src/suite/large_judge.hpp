// What the judgements of the --large encoders' other bytes share (large_judge_tokens.cpp,
// large_judge_body.cpp): where those bytes first differ from the canonical ones, and the findings
// they make, worded as an ordinary encode case's (suite/writer_check.cpp). Internal to the suite.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ond/error.hpp"
#include "ond/writer_rules.hpp"
#include "suite/cases.hpp"
#include "suite/classify.hpp"
#include "suite/writer_rules.hpp"

namespace ond::conformance::large_judge {

// The first `count` bytes `pieces` make (all of them when count is larger).
std::string prefix_of(PieceReader pieces, std::uint64_t count);

// Where other bytes first differ from the canonical ones, as every finding says it.
struct DifferenceAt {
    std::string text;   // "; first difference at byte N (field), got G bytes, canonical C"
    std::string field;  // the field there, else "byte N"
};
// `lengths`: the offsets of the canonical bytes' u32 length fields (the body's, each section's),
// not counted as differences, since they differ whenever something after them does.
DifferenceAt where_they_differ(PieceReader canonical, const std::vector<std::uint64_t>& lengths, std::uint64_t canonical_size,
                               std::string_view got);

// Bytes the reference does not decode: required, at the reader's fault (non-zero padding is W5).
Finding not_decoded(const Error& e, const DifferenceAt& where);
// Bytes that decode to other content: required, at the first difference's path (path, what).
Finding other_content(const std::pair<std::string, std::string>& difference, const DifferenceAt& where);
// The same content in other bytes: each writer rule broken, at its level.
std::vector<Finding> writer_findings(const std::vector<WriterFinding>& broken, const DifferenceAt& where,
                                     const std::vector<std::string>& rules);

// The writer rules found broken, each once (its first instance), in the order found.
class RulesBroken {
public:
    void operator()(WriterRule rule, const std::string& message);
    // None found: a recommended `unidentified` finding, as for any encoder.
    std::vector<WriterFinding> take() &&;

private:
    std::vector<WriterFinding> out_;
};

// "1, 2, 3": section ids as W2's findings list them.
std::string section_list(const std::vector<int>& ids);

}  // namespace ond::conformance::large_judge
