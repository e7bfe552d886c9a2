// Reading a label index (entity and span labels, category labels, group names): R13, R15.
#pragma once

#include <string>

#include "ond/internal/sections.hpp"

namespace ond::detail {


inline std::uint32_t read_label(Cursor& sec, const TableView& table, Errc missing, Errc empty,
                                const std::string& what) {
    const std::uint64_t off = sec.offset();
    const std::uint32_t idx = table.check_index(sec.varint(), off);
    OND_BAIL({});
    if (OND_CHECK(missing, idx == 0)) return fail(missing, off, what + " is index 0 (not set)");
    if (OND_CHECK(empty, table.is_stored_empty(idx)))
        return fail(empty, off, what + " is index " + std::to_string(idx) + ", a stored empty string");
    return idx;
}

}  // namespace ond::detail
