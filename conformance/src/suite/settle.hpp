// The third stage of a run: the answers made final. The testee is ended and its late verdicts
// taken, the fuzzing finds added, each operation's support settled, the expected failures
// applied, the files that reproduce a failure saved, and the summary counted.
#pragma once

#include <string>

#include "suite/classify.hpp"
#include "suite/execute.hpp"
#include "suite/fuzz.hpp"
#include "suite/plan.hpp"
#include "suite/run_report.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

struct SettleInput {
    ClassifyOptions classify;
    bool allow_unknown_expected_failures = false;  // else an unknown entry fails the run
    bool require_rule_coverage = false;            // a rule without a corpus case fails the run
    // Where the files that reproduce a failure go (a cases/ folder is made in it); empty: none.
    std::string saved_cases_dir;
    std::string corpus_dir;                        // the corpus's own files are named, not copied
};

// Fills rep.results (in plan order, then the fuzzing finds), rep.stale, rep.not_tested,
// rep.stopped_early and rep.summary. Ends the testee.
void settle(const Plan& p, Testee& testee, Executed executed, const FuzzReport& fuzzed, const SettleInput& in, RunReport& rep);

}  // namespace ond::conformance
