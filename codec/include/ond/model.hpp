// The content model: what a container holds, independent of its bytes.
//
// This header has the whole model: ond/doc.hpp (strings, items, a standalone Doc),
// ond/doc_list.hpp (a container's documents in columns), the Container below, and the views
// of ond/view.hpp.
#pragma once

#include <cstddef>
#include <string_view>

#include "ond/doc.hpp"
#include "ond/doc_list.hpp"

namespace ond {

class DocView;
class DocViewRange;

struct Container {
    Format format = Format::ondc;
    bool crc = false;                  // a CRC-32 trailer is present / wanted
    StringStore strings;
    DocList docs;                      // exactly one for ONDC

    // Document i as a view that knows this container's strings (ond/view.hpp); precondition:
    // i < docs.size(). doc_views() ranges over them all: `for (ond::DocView d : c.doc_views())`.
    DocView doc(std::size_t i) const noexcept;
    DocViewRange doc_views() const noexcept;
};

// "ONDC" or "ONDB".
std::string_view to_string(Format f) noexcept;

// Structural equality by value: strings are compared through their stores (so ids may differ),
// floats by bit pattern (so -0.0 != 0.0, as a round trip must keep the sign).
bool same_doc(const DocSlice& a, const StringStore& sa, const DocSlice& b, const StringStore& sb);
bool same_content(const Container& a, const Container& b);

}  // namespace ond

#include "ond/view.hpp"  // the views Container::doc() returns (after the model they view)
