// What the conformance library gives the `ond` tool besides the run itself (run_conformance,
// conformance/src/suite/runner.hpp). Every command's options are the tool's (cli/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ond::conformance {

// A rejection's reason as an adapter reports it (docs/protocol.md, "Rejections"): the error code,
// optionally followed by " at byte N", the offset of the fault. The reference's adapters (`ond
// serve`, `ond decode|stream`) always give the offset; `offset` ~0 (no offset: content refused
// by a writer) leaves it out.
std::string rejection_report(std::string_view code, std::uint64_t offset);
struct Rejection {
    std::string code;                    // "" when none was given
    std::optional<std::uint64_t> offset;  // only from exactly " at byte N" after the code
};
// Reads a report: the code runs to the first blank; whatever else follows is ignored unless it is
// exactly " at byte N" (N decimal, no sign, at most 19 digits).
Rejection parse_rejection(std::string_view report);

// The reference codec as a persistent testee (`ond serve`, whose options are the tool's): answers
// the framed requests of docs/protocol.md on stdin, on stdout, until end of input. Returns 0 at a
// clean end of input, 1 on a broken frame (said on stderr).
int serve();

}  // namespace ond::conformance
