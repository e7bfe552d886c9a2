// Cases made at run time from the corpus, so that a testee cannot pass by knowing the files.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suite/cases.hpp"

namespace ond::conformance {

struct DeriveOptions {
    std::size_t max_per_kind = 500;  // cap on bit flips, prefixes, mutations and memory cases each
    std::uint64_t seed = 1;          // for the random mutations
    bool streams = true;             // also derive stream cases (memory bound of a stream reader)
    // Asked of every derived case's id before its bytes and reference answer are made (empty: keep
    // all). A case not kept still counts towards max_per_kind, so that the ids a run derives are
    // the same with and without a filter (a failure's `--filter ID` reruns that very case).
    std::function<bool(const std::string&)> keep;
};

// Sources: the corpus's accepted decode cases (valid and non-canonical).
//  - bit flips of CRC-protected sources: each must be rejected (evenly spaced sample when capped);
//  - proper prefixes of every source: each must be rejected (sampled likewise);
//  - random structure-aware mutations: same verdict and content as the reference codec;
//  - huge declared counts and lengths: same verdict as the reference, peak RSS held to the bound.
std::vector<Case> derive_cases(const std::vector<Case>& corpus, const DeriveOptions& opt);

// For a decode case the reference rejects with an implementation-defined code (c.error): the
// content a reader that accepts must give, read by the reference with that check relaxed (and
// any implementation-defined check behind it) into c.if_accepted, with sections 6 and 7 of a
// record read as the record's own into c.if_accepted_also when that differs. When the relaxed
// reading meets an invalid fault, the case becomes invalid: every reader must reject it.
void derive_if_accepted(Case& c);

}  // namespace ond::conformance
