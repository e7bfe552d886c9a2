// The runner: plan (select and derive cases) -> execute (per-case or persistent transport) ->
// classify (classify.hpp) -> summarize (the reporters of report.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "suite/cases.hpp"
#include "suite/classify.hpp"
#include "suite/expected_failures.hpp"
#include "suite/testee.hpp"

namespace ond::conformance {

struct Options {
    std::string corpus_dir;
    std::string decoder, encoder, stream_decoder, persistent;
    std::string name;                     // the testee's name in reports
    Profile profile = Profile::spec;
    std::chrono::milliseconds timeout{10000};
    unsigned jobs = 2;
    std::vector<std::string> filters, skips;
    std::size_t max_derived = 500;
    bool derived = true;
    bool large = false;                   // --large: the limits at full size (large.hpp), with the other cases
    double fuzz_seconds = 0;              // --fuzz: differential fuzzing of the decoder after the cases (fuzz.hpp)
    std::string fuzz_out = "fuzz-findings";
    std::uint64_t seed = 0;
    bool seed_given = false;              // --seed N (else the corpus's default seed)
    bool seed_random = false;             // --seed random
    long memory_bound_kb = 64 * 1024;
    long memory_limit_kb = 0;             // --memory-limit: cap on the memory of each testee process tree (0: the default cap)
    int max_consecutive_failures = 20;    // crashes, time-outs, protocol errors in a row; 0: no limit
    std::string junit, json, html;
    std::string expected_failures, write_expected_failures;
    bool allow_unknown_expected_failures = false;  // an entry that matches no case warns instead of failing the run
    bool require_rule_coverage = false;
    bool progress = true;
    bool progress_tty = false;
    bool verbose = false;
    std::vector<std::string> argv;        // the invocation, to print a rewrite command
    std::string shell_ond = "ond";        // how the report's commands start ond (shell-quoted)
    std::string shell_env;                // put before the commands that start the testee
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
    Options options;
    std::string testee;                   // description
    std::map<CaseKind, std::vector<std::string>> commands;  // the argv run for each kind of case (none: in-process)
    std::string corpus_version;
    int format_version = 0;
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

// The default seed of the derived cases: a function of the corpus version alone.
std::uint64_t default_seed(const std::string& corpus_version);

// Runs everything; writes the human report to `out` (progress to `err`). Throws
// std::runtime_error for problems of the invocation itself (unreadable corpus, bad command, a
// filter that matches nothing, a report that cannot be written): exit status 2.
RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err);

}  // namespace ond::conformance
