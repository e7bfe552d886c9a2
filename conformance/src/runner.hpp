// The runner: selects cases, runs them against a testee in parallel, checks each answer, and
// collects results for the reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cases.hpp"
#include "testee.hpp"

namespace ond::conformance {

enum class Level : std::uint8_t { required, recommended, info };
const char* level_name(Level l) noexcept;

struct Finding {
    Level level = Level::required;
    std::string check;    // verdict, content, reason, canonical-writer, crash, timeout, memory, output, corpus
    std::string message;
};

enum class Status : std::uint8_t {
    pass,   // every required check passed (recommended findings may exist)
    fail,   // a required check failed and the case is not an expected failure
    xfail,  // a required check failed and the case is listed as an expected failure
    stale,  // listed as an expected failure but passed
    skip,   // not run (--skip, or the testee lacks the operation)
    info,   // implementation-defined case in the spec profile whose answer differs from the reference
};
const char* status_name(Status s) noexcept;

struct CaseResult {
    // What the case was (copied, so results outlive the corpus).
    std::string id, area, origin, source, description, input_path, expected_error;
    Kind kind = Kind::decode;
    Verdict verdict = Verdict::valid;
    std::vector<std::string> rules;
    // What happened.
    Status status = Status::pass;
    std::string answer;        // accept | reject | crash | timeout | unsupported | start-error
    std::string error_code;    // the testee's `error: CODE`
    std::vector<Finding> findings;
    int recommended_pass = 0, recommended_fail = 0;
    long rss_kb = 0;
    long rss_growth_kb = 0;
    double ms = 0;

    bool required_failed() const;
};

struct Options {
    std::string corpus_dir;
    std::string decoder, encoder, stream_decoder, persistent;
    std::string name;                     // the testee's name in reports
    std::string profile = "strict";       // strict | spec
    std::chrono::milliseconds timeout{10000};
    unsigned jobs = 2;
    std::vector<std::string> filters, skips;
    std::size_t max_derived = 500;
    bool derived = true;
    std::uint64_t seed = 0;
    bool seed_given = false;
    long memory_bound_kb = 64 * 1024;
    std::string junit, json, html;
    std::string expected_failures, write_expected_failures;
    bool require_rule_coverage = false;
    bool progress = true;
    bool progress_tty = false;
    bool verbose = false;
    std::vector<std::string> argv;        // the invocation, to print a rewrite command
};

struct RunSummary {
    int passed = 0, failed = 0, xfailed = 0, skipped = 0, stale = 0, info = 0;
    int recommended_fail = 0, recommended_pass = 0;
    int corpus_problems = 0, uncovered_rules = 0;
    bool ok = false;  // exit 0
};

struct RunReport {
    Options options;
    std::string testee;                   // description
    std::string corpus_version;
    int format_version = 0;
    std::uint64_t seed = 0;
    long baseline_rss_kb = 0;
    std::vector<CaseResult> results;
    std::vector<Rule> rules;
    std::map<std::string, int> rule_cases;  // rule id -> corpus cases naming it
    std::vector<std::string> corpus_problems;
    std::vector<std::string> stale;        // expected failures that passed
    std::vector<std::string> missing_expected;  // listed ids that are not in this run
    RunSummary summary;
    double seconds = 0;
};

// The checks of one case against one answer (exposed for the tests).
CaseResult check_case(const Case& c, const Outcome& o, const Options& opt, long baseline_rss_kb, bool measures_memory);

// Runs everything; writes the human report to `out` (progress to `err`). Throws
// std::runtime_error for problems of the invocation itself (unreadable corpus, bad command).
RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err);

// Reads an expected-failures file: one case id per line, `#` starts a comment.
std::set<std::string> read_expected_failures(const std::string& path);

}  // namespace ond::conformance
