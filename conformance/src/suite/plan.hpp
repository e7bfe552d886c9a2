// The first stage of a run: which cases it makes and which of them run, in order.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "suite/cases.hpp"

namespace ond::conformance {

struct PlanInput {
    std::vector<std::string> filters;  // --filter globs; none: every case
    bool derived = true;               // the cases derived from the corpus at run time
    std::size_t max_derived = 500;     // per kind of derived case
    bool large = false;                // --large: the limits at full size (large.hpp)
    std::uint64_t seed = 0;            // of the derived cases
    bool streams = false;              // the testee takes streams: stream cases are derived too
};

struct Plan {
    std::vector<Case> cases;            // corpus, derived (those a filter selects) and large
    std::vector<const Case*> selected;  // in run order
    std::set<std::string> planned;      // the id of every case the run makes, selected or not
};

// Throws std::runtime_error for a filter that matches no case (and for --large with filters
// that leave every large case out).
Plan plan(const Corpus& corpus, const PlanInput& in);

// The default seed of the derived cases: a function of the corpus version alone.
std::uint64_t default_seed(const std::string& corpus_version);

struct Seeds {
    std::uint64_t seed = 0;       // of the derived cases
    std::uint64_t fuzz_seed = 0;  // of --fuzz: the seed when one was given, else a random one
    std::string origin;           // "default", "--seed", "random"
};
// `given`: --seed N; `random`: --seed random; neither: the corpus's default seed.
Seeds choose_seeds(std::optional<std::uint64_t> given, bool random, const std::string& corpus_version);

}  // namespace ond::conformance
