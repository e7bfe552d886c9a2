// Every reading path on the same bytes: decode(), validate(), inspect(), DocBinReader and
// StreamReader (reads cut at sizes derived from the input; next() and skip_next()) agree on
// verdict, error code, offset and content (see readers.hpp for how the two single-kind readers'
// answers map onto decode()'s). Uses the structure-aware mutator.
#include "cuts.hpp"
#include "mutator.hpp"
#include "readers.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ond::fuzz::check_all_readers(ond::as_bytes(data, size), ond::fuzz::cuts_for(data, size));
    return 0;
}
