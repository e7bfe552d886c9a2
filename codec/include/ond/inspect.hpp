// An annotated walk over a container's bytes, for `ond inspect` and corpus listings.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "ond/error.hpp"
#include "ond/reader.hpp"

namespace ond {

struct InspectEvent {
    enum class Kind : std::uint8_t { enter, field, leave };
    Kind kind = Kind::field;
    std::uint64_t offset = 0;  // absolute offset of the item's first byte
    std::uint64_t length = 0;  // bytes it covers (for enter: the whole group)
    int depth = 0;             // nesting: 0 container, 1 section, 2 record/sub-part, ...
    std::string name;          // e.g. "header.magic", "section 3 (tokens)", "tokens.head[4]"
    std::string value;         // decoded value for people, e.g. "ONDC", "-2 (head = token 2)"
};

using InspectFn = std::function<void(const InspectEvent&)>;

// Walks the whole container with the checks of decode(), reporting every field as it is read.
// On a fault it has reported everything before it and throws the same ond::Error decode() would.
void inspect(Bytes input, const InspectFn& on);

}  // namespace ond
