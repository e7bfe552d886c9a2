// What one run found, as every stage after the plan fills it in and the report stage reads it:
// the run's setup as the reports show it, the corpus's facts, and a CaseResult per case.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "suite/cases.hpp"
#include "suite/classify.hpp"
#include "suite/expected_failures.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

// How the run was set up, as far as the reports say it (the CLI derives it from its options; a
// result file read back for --html-merge gives its name, profile and corpus).
struct RunSetup {
    std::string corpus_dir;
    std::string name;                     // the testee's name in reports
    Profile profile = Profile::spec;
    unsigned jobs = 2;
    std::chrono::milliseconds timeout{10000};
    long memory_bound_kb = 64 * 1024;
    bool large = false;                   // --large
    bool persistent = false;              // the testee is one long-lived process per job
    std::string expected_failures;        // the list read, if any
    int max_consecutive_failures = 20;
    bool allow_unknown_expected_failures = false;
    bool require_rule_coverage = false;
};

struct RunSummary {
    int passed = 0, failed = 0, xfailed = 0, skipped = 0, stale = 0, info = 0, not_run = 0;
    int recommended_fail = 0, recommended_pass = 0;
    int corpus_problems = 0, uncovered_rules = 0;
    int unknown_expected = 0;  // expected-failure entries that match no case: each fails the run unless allowed
    bool decode_unchecked = false;  // decode cases were selected but none was checked: the run fails
    bool ok = false;  // exit 0
};

struct RunReport {
    RunSetup setup;
    std::string testee;                   // description
    std::map<CaseKind, std::vector<std::string>> commands;  // the argv run for each kind of case (none: in-process)
    std::string corpus_version;
    int format_version = 0;
    std::size_t corpus_cases = 0;         // the corpus's own cases
    std::uint64_t seed = 0;
    std::uint64_t fuzz_seed = 0;          // --fuzz: the run's seed when given, else a random one
    std::string seed_origin;              // "default", "--seed", "random"
    std::map<std::string, long> baseline_kb;  // per operation
    std::string memory_cap;               // how --memory-limit is enforced, or "none"
    std::string memory_accounting;        // "cgroup v2", "cgroup v1", "process-tree sampling" (containment.hpp); empty in-process
    long baseline_allowance_kb = 0;       // the part of a baseline above it is charged to every case
    bool stopped_early = false;           // --max-consecutive-failures struck
    std::vector<CaseResult> results;
    std::vector<Rule> rules;
    std::map<std::string, int> rule_cases;  // rule id -> corpus cases naming it
    std::vector<std::string> corpus_problems;
    std::vector<std::string> stale;        // expected failures that passed
    ExpectedFailures expected_failures;    // the list, resolved against the corpus and the planned cases
    // Operations of which no case was checked, and why ("no --stream-decoder", "the testee answered
    // 'unsupported' ..."): reported as not tested. Decode among them fails the run.
    std::map<std::string, std::string> not_tested;
    RunSummary summary;
    double seconds = 0;
};

// The report of a run about to start: its setup, the corpus's facts and the testee's description.
RunReport start_report(const RunSetup& setup, const Corpus& corpus, const Testee& testee);

// How the testee's memory is counted and its baseline per operation (after set_memory_baselines,
// execute.hpp; again after the cases: the run's largest baselines).
void record_memory(const Testee& testee, const std::map<Op, std::string>& baseline_inputs, RunReport& rep);
void update_memory(const Testee& testee, RunReport& rep);

}  // namespace ond::conformance
