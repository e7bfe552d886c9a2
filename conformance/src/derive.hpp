// Cases made at run time from the corpus, so that a testee cannot pass by knowing the files.
#pragma once

#include <cstdint>
#include <vector>

#include "cases.hpp"

namespace ond::conformance {

struct DeriveOptions {
    std::size_t max_per_kind = 500;  // cap on bit flips, prefixes, mutations and memory cases each
    std::uint64_t seed = 1;          // for the random mutations
    bool streams = true;             // also derive stream cases (memory bound of a stream reader)
};

// Sources: the corpus's accepted decode cases (valid and non-canonical).
//  - bit flips of CRC-protected sources: each must be rejected (evenly spaced sample when capped);
//  - proper prefixes of every source: each must be rejected (sampled likewise);
//  - random structure-aware mutations: same verdict and content as the reference codec;
//  - huge declared counts and lengths: same verdict as the reference, peak RSS held to the bound.
std::vector<Case> derive_cases(const std::vector<Case>& corpus, const DeriveOptions& opt);

}  // namespace ond::conformance
