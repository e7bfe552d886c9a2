// Every reading path on the same bytes: decode(), validate(), inspect(), DocBinReader and
// StreamReader (reads cut at sizes derived from the input; next() and skip_next()) agree on
// verdict, error code, offset and content (see readers.hpp for how the two single-kind readers'
// answers map onto decode()'s). Uses the structure-aware mutator. All readers of one input run
// at one varint level (varint_level.hpp) picked from a checksum of the input, so the inputs
// spread over every level the CPU supports and the input format is unchanged.
#include "cuts.hpp"
#include "mutator.hpp"
#include "readers.hpp"
#include "ond/internal/varint_level.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    unsigned sum = 0;
    for (std::size_t i = 0; i < size; ++i) sum += data[i];
    const auto levels = static_cast<unsigned>(ond::detail::varint_level_supported()) + 1;
    ond::detail::set_varint_level(static_cast<ond::detail::VarintLevel>(sum % levels));
    ond::fuzz::check_all_readers(ond::as_bytes(data, size), ond::fuzz::cuts_for(data, size));
    return 0;
}
