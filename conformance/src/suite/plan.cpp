#include "suite/plan.hpp"

#include <algorithm>
#include <iterator>
#include <random>
#include <stdexcept>

#include "suite/derive.hpp"
#include "suite/large.hpp"

namespace ond::conformance {

std::uint64_t default_seed(const std::string& corpus_version) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : corpus_version) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h % 1000000000u;
}

Seeds choose_seeds(std::optional<std::uint64_t> given, bool random, const std::string& corpus_version) {
    Seeds s;
    if (random) s.seed = std::random_device{}() % 1000000000u, s.origin = "random";
    else if (given) s.seed = *given, s.origin = "--seed";
    else s.seed = default_seed(corpus_version), s.origin = "default";
    s.fuzz_seed = s.origin == "default" ? std::random_device{}() % 1000000000u : s.seed;
    return s;
}

// The filters pick cases before derived ones are made: a derived case no filter selects gets
// neither bytes nor a reference answer, so `--max-derived 50000 --filter ID` costs one case's
// memory (its id is still planned: an expected failure listed for it is not unknown).
Plan plan(const Corpus& corpus, const PlanInput& in) {
    Plan p;
    std::vector<bool> used(in.filters.size(), false);
    auto take = [&](const std::string& id) {
        p.planned.insert(id);
        bool selected = in.filters.empty();
        for (std::size_t i = 0; i < in.filters.size(); ++i)
            if (glob_match(in.filters[i], id)) selected = used[i] = true;
        return selected;
    };
    p.cases = corpus.cases;
    if (in.derived && in.max_derived > 0) {
        DeriveOptions d;
        d.max_per_kind = in.max_derived;
        d.seed = in.seed;
        d.streams = in.streams;
        d.keep = take;
        auto more = derive_cases(corpus.cases, d);
        p.cases.insert(p.cases.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    if (in.large)
        for (Case& c : large_cases()) p.cases.push_back(std::move(c));
    for (const auto& c : p.cases)
        if (take(c.id)) p.selected.push_back(&c);
    for (std::size_t i = 0; i < in.filters.size(); ++i)
        if (!used[i]) throw std::runtime_error("--filter '" + in.filters[i] + "' matches no case");
    // --large asks for the large cases: filters that leave them all out are a mistake too.
    if (in.large && !in.filters.empty() &&
        std::none_of(p.selected.begin(), p.selected.end(), [](const Case* c) { return c->origin == Origin::large; }))
        throw std::runtime_error("--large: no --filter matches a large/* case, so none would run (add --filter 'large/*')");
    return p;
}

}  // namespace ond::conformance
