// The runner's writer checks: encode answers judged rule by rule (writer_rules.hpp), and the
// decode -> encode round trip of every accepted valid and non-canonical case.
#pragma once

#include <string_view>

#include "runner.hpp"

namespace ond::conformance {

// Adds the findings for bytes `got` that differ from `canonical` (same content assumed checked
// or not: content and decoding are judged here too). `check` names the runner's check.
void add_writer_findings(std::string_view canonical, std::string_view got, const char* check, CaseResult& r);

// For an accepted valid or non-canonical decode case whose answer passed: encodes the testee's
// decoded content with the testee's encoder (when it has one) and requires the canonical bytes.
// Updates r's findings and status.
void check_round_trip(const Case& c, const Outcome& decoded, Testee& testee, unsigned worker, CaseResult& r);

}  // namespace ond::conformance
