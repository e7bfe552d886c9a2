// Which canonical-writer rule (W1-W5) an encoder broke: compares the testee's bytes with the
// canonical bytes by structure (both decoded and walked with the inspector), names each rule
// broken, and gives its level from the table of writer rules (ond/writer_rules.def).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ond::conformance {

struct WriterFinding {
    std::string rule;               // a writer rule's id (ond/writer_rules.def); "decode" when the bytes do
                                    // not decode, "unidentified" when no rule explains the difference
    bool required = false;          // required level (else recommended)
    std::string message;            // names the rule: "W3: string table entry 2 is 'NOUN', first used after entry 3"
};

struct WriterJudgement {
    std::vector<WriterFinding> findings;  // empty when the bytes are equal
    // The first byte that differs, not counting length fields (body, section and record lengths)
    // that differ only because something after them does; nullopt when the bytes are equal.
    std::optional<std::uint64_t> first_difference;
    std::string first_difference_field;   // the testee's field at that byte, when known
};

// `canonical` must be the reference's canonical bytes for some content; `testee` any bytes a
// writer produced for the same content. Pure: no I/O.
WriterJudgement judge_writer(std::string_view canonical, std::string_view testee);

// The level of a finding's rule (true: required): the table's for a writer rule; "decode" is required.
bool writer_rule_required(std::string_view rule);

// How a report introduces a finding of this rule: "writer rule ID (required)".
std::string writer_rule_tag(std::string_view rule);

}  // namespace ond::conformance
