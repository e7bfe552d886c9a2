// A structure-aware mutator for ONDC/ONDB containers. It parses the input into header, sections
// and (in section 5) records, changes one thing (a field inside a section, a section's id, order
// or presence, a record, a header field, a count), then writes the container back with every
// section and record length, the record count, the body length and the CRC recomputed, so that
// mutants get past the framing and CRC checks and reach the deep ones. Inputs that do not parse
// as a container fall back to libFuzzer's byte-level mutation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ond::fuzz {

std::size_t structure_mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed);
// Splices a section (or record) of the second input into the first; re-framed as above.
std::size_t structure_cross_over(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2,
                                 std::size_t size2, std::uint8_t* out, std::size_t max_out_size, unsigned seed);

}  // namespace ond::fuzz

// Put this once in a harness to make libFuzzer use the structure-aware mutator.
#define OND_FUZZ_STRUCTURE_MUTATOR                                                                          \
    extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, \
                                                   unsigned int seed) {                                    \
        return ::ond::fuzz::structure_mutate(data, size, max_size, seed);                                  \
    }                                                                                                      \
    extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* d1, std::size_t s1,               \
                                                     const std::uint8_t* d2, std::size_t s2,               \
                                                     std::uint8_t* out, std::size_t max_out,               \
                                                     unsigned int seed) {                                  \
        return ::ond::fuzz::structure_cross_over(d1, s1, d2, s2, out, max_out, seed);                      \
    }
