// An independent model reader of the whole format (ONDC, ONDB, streams), written from the rulings
// (revision 2) and the reference's documented order of checks and error offsets
// (docs/reading-rules.md). It is deliberately simple and slow: one byte at a time, every check
// spelt out where the bytes are read, nothing shared with the codec but the public types it fills
// (Container, Doc, StringStore) and the error table's codes. The harnesses compare the reference
// with it on verdict, error code, offset and content, so a reference check that is missing or
// wrong shows as a disagreement even where no other oracle looks (framing, padding, labels).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace ond::fuzz::model {

// The model's answer: accepted, or refused with a code (the error table's name) at an offset.
// A code, not an Errc: the model may know codes (revision 2) the reference build does not have.
struct Verdict {
    bool ok = true;
    std::string code;
    std::uint64_t offset = 0;
    std::string detail;

    std::string describe() const;
};

struct ContainerResult {
    Verdict verdict;
    Container content;                     // when accepted
    std::vector<std::uint64_t> text_units;  // each document's text length in UTF-16 units, as the model counts
};
// One container in a buffer (decode()'s job); offsets from `origin`.
ContainerResult read_container(Bytes input, std::uint64_t origin = 0);

struct StreamResult {
    std::vector<Container> containers;
    Verdict end;  // ok: the stream ended on a container boundary
};
// Back-to-back ONDC containers (R25, R26), as StreamReader reads them.
StreamResult read_stream(Bytes input);

// What a section decoder is given besides its bytes: the string table (each entry's WTF-8 value,
// and whether it stores no bytes), the document's token count and its text's UTF-16 length.
struct SectionContext {
    std::vector<std::string> values;  // entry i is index i + 1
    std::vector<bool> stored_empty;
    std::uint32_t tokens = 0;
    std::uint64_t text_units = 0;
};
// One section's content alone (id 1, 2, 3, 4, 6 or 7), read as its decoder reads it: from its
// first byte to where its contents end (the frame's trailing-bytes check is not part of it).
// `consumed` receives how many bytes an accepted section took.
Verdict read_section(std::uint8_t id, Bytes content, std::uint64_t origin, const SectionContext& ctx,
                     std::uint64_t* consumed = nullptr);

// The codes of revision 2 that a reference built before it does not define (R22, R24). While
// the reference lacks them, it reads on past the count that says 0 (accepting the input, or
// refusing it for a later fault); the comparison allows exactly that.
bool code_defined(const std::string& code);

// Compares a reference outcome with the model's verdict; aborts (OND_FUZZ_CHECK) on any
// difference in verdict, code or offset, except the revision-2 allowance above, for which it
// returns false ("not comparable": the caller skips the content comparison). True otherwise.
bool check_against_model(const Outcome& reference, const Verdict& model, const char* what);

// The whole-container check the harnesses share: decode() against the model, verdict, code,
// offset and, when both accept, content (same_content) and table (same strings in order).
void check_decode_against_model(Bytes input, const Outcome& reference, const Container* decoded);

}  // namespace ond::fuzz::model
