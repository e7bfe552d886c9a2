// How an adapter names the reason of a rejection: the error code and, optionally, the fault's
// offset (docs/protocol.md, "Rejections"). Shared by the runner, which reads it, and the
// reference's adapters (`ond serve`, `ond decode|stream`), which write it.
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

}  // namespace ond::conformance
