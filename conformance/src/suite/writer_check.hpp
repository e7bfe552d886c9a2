// The runner's writer checks: encode answers judged rule by rule (writer_rules.hpp), and the
// decode -> encode round trip of every accepted valid and non-canonical case.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "suite/classify.hpp"

namespace ond::conformance {

// The findings for bytes `got` a writer wrote where `canonical` was due: other content, or bytes
// that do not decode, at required level (Check::content); else each writer rule broken, at its
// level, as `check`. Nothing when the bytes are equal.
void add_writer_findings(std::string_view canonical, std::string_view got, Check check, CaseResult& r);

// For an encode case of implementation-defined content (encode-impl) that the writer wrote:
// `got` is read back by the reference with the one check that content meets relaxed (R4's score,
// R24's repeated name: the if-accepted reading); bytes that do not read back to the case's
// content, or that break a required writer rule, fail (required); bytes other than the
// if-accepted ones are otherwise a recommended finding, like any encoder's.
void add_impl_writer_findings(const Case& c, std::string_view got, CaseResult& r);

// For an accepted valid or non-canonical corpus decode case that passed: encodes the testee's
// decoded content with the testee's own encoder (when it has one) and requires the canonical
// bytes (Check::round_trip). Updates r's findings and status; when the round trip fails, what
// the encoder wrote goes to `written` (saved next to the reports).
void check_round_trip(const Case& c, const TesteeResult& decoded, Testee& testee, unsigned worker, std::size_t case_index,
                      CaseResult& r, std::string& written);

// The canonical bytes of a decode case's content: a valid case's input, else the reference's
// encoding of its expected content; nullopt when there is none.
std::optional<std::string> canonical_bytes(const Case& c);

}  // namespace ond::conformance
