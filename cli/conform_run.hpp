// `ond conform`'s run: the command line's options, and the one pipeline they drive,
// plan -> execute -> settle -> report (conformance/README.md, "One run"). Each stage gets its own
// small input, derived here from the options; none sees the options whole.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "suite/classify.hpp"
#include "suite/run_report.hpp"

namespace ond::conformance {

// The options as `ond conform` parsed them (conform_cli.cpp).
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

// Runs the pipeline; writes the human report to `out` (progress to `err`). Throws
// std::runtime_error for problems of the invocation itself (unreadable corpus, bad command, a
// filter that matches nothing, a report that cannot be written): exit status 2.
RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err);

}  // namespace ond::conformance
