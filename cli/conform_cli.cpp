#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <iostream>
#include <optional>
#include <sstream>
#include <ostream>

#include <CLI/CLI.hpp>

#include "conform_cli.hpp"
#include "report/report.hpp"
#include "conform_run.hpp"

#ifndef OND_DEFAULT_CORPUS_DIR
#define OND_DEFAULT_CORPUS_DIR "corpus"
#endif

namespace ond::conformance {

std::string default_corpus_dir() {
    const char* env = std::getenv("OND_CORPUS_DIR");
    if (env && *env) return env;
    return OND_DEFAULT_CORPUS_DIR;
}

namespace {

// What the command line gives that Options holds only after a check or a conversion.
struct RawArgs {
    double timeout_s = 10.0;
    double fuzz_seconds = 0;
    std::string fuzz_out = "fuzz-findings";
    long memory_bound_mib = 64;
    bool no_derived = false, quiet = false, large = false;
    std::string html_merge;
    std::vector<std::string> merge_inputs;
    std::string seed_text, profile = "spec";
    long memory_limit_mib = 0;
};

void add_options(CLI::App& app, Options& opt, RawArgs& raw) {
    app.add_option("--corpus", opt.corpus_dir, "corpus directory (manifest.json); default $OND_CORPUS_DIR or the source tree's")
        ->capture_default_str();
    app.add_option("--persistent", opt.persistent,
                   "use this mode: one long-lived adapter process per job, framed requests (docs/protocol.md; version 2, "
                   "version 1 still accepted)");
    app.add_option("--decoder", opt.decoder, "per-case mode, one process per case: decode adapter command (stdin: container bytes; stdout: content JSON)");
    app.add_option("--encoder", opt.encoder, "encode adapter command (stdin: content JSON; stdout: container bytes)");
    app.add_option("--stream-decoder", opt.stream_decoder, "stream adapter command (stdin: back-to-back ONDC; stdout: JSON lines)");
    app.add_option("--name", opt.name, "the implementation's name in reports (a column of the HTML matrix)");
    app.add_option("--profile", raw.profile,
                   "spec (the default): an implementation-defined case passes either verdict (an accepted one must give the if-accepted "
                   "content); strict (opt-in): it must get the reference's verdict")
        ->check(CLI::IsMember({"strict", "spec"}))
        ->capture_default_str();
    app.add_option("--timeout", raw.timeout_s, "seconds per case (0.01 to 3600) before the testee's process tree is killed")
        ->capture_default_str();
    app.add_option("-j,--jobs", opt.jobs, "cases run in parallel (1 to 256)")->capture_default_str();
    app.add_option("--filter", opt.filters, "run only cases whose id matches this glob (repeatable)")->allow_extra_args(false);
    app.add_option("--skip", opt.skips, "skip cases whose id matches this glob (repeatable; counted as skipped)")
        ->allow_extra_args(false);
    app.add_option("--max-derived", opt.max_derived, "cap per kind of derived case (bit flips, prefixes, mutations, memory)")
        ->capture_default_str();
    app.add_flag("--no-derived", raw.no_derived, "run the corpus cases only");
    app.add_flag("--large", raw.large, "also the limits at full size, made on the fly: 2^25 + 1 tokens (--decoder), a 2^30 + 1 "
                                   "byte body in a stream (--stream-decoder); see conformance/README.md for time and memory");
    app.add_option("--seed", raw.seed_text,
                   "seed of the derived mutations and of --fuzz: a number, or 'random'; default: a function of the corpus version");
    app.add_option("--memory-bound", raw.memory_bound_mib, "MiB of peak RSS over the baseline allowed on every case that must be rejected (huge declared lengths, bit flips, prefixes, invalid corpus inputs)")
        ->capture_default_str();
    app.add_option("--memory-limit", raw.memory_limit_mib, "hard cap: MiB of memory the testee's whole process tree may use (the runner kills it past that; default: half the memory, shared by the jobs, at least 1 GiB)");
    app.add_option("--max-consecutive-failures", opt.max_consecutive_failures,
                   "stop after this many crashes, time-outs or protocol errors in a row (0: never)")
        ->capture_default_str();
    app.add_option("--junit", opt.junit, "write JUnit XML");
    app.add_option("--json", opt.json, "write all results as JSON (input of --html-merge)");
    app.add_option("--html", opt.html, "write a self-contained HTML results page (failures first, by rule; filters)");
    app.add_option("--html-merge", raw.html_merge, "merge result files (given after the options) into one HTML matrix, then exit");
    app.add_option("results", raw.merge_inputs, "result files for --html-merge");
    app.add_option("--expected-failures", opt.expected_failures,
                   "file of case ids (one a line, # comments; at most 1 MiB and 100000 lines) allowed to fail; a case's former id "
                   "counts as its id (with a note), an id that matches no case fails the run");
    app.add_flag("--allow-unknown-expected-failures", opt.allow_unknown_expected_failures,
                 "an --expected-failures entry that matches no case is a warning, not a failure");
    app.add_option("--write-expected-failures", opt.write_expected_failures, "write the ids of this run's required failures to FILE");
    app.add_flag("--require-rule-coverage", opt.require_rule_coverage, "fail when a rule of rules.json has no case");
    app.add_option("--fuzz", raw.fuzz_seconds, "also fuzz the decoder against the reference for SECONDS after the cases; each minimised disagreement is a case of the run (fuzz/...)");
    app.add_option("--fuzz-out", raw.fuzz_out, "where --fuzz saves minimised disagreements")->capture_default_str();
    app.add_flag("-q,--quiet", raw.quiet, "no progress output");
    app.add_flag("-v,--verbose", opt.verbose, "list every recommended and informational finding");
}

// Range checks and conversions into `opt`: the message of a usage error, or none.
std::optional<std::string> check_options(const CLI::App& app, const RawArgs& raw, Options& opt, bool stderr_is_tty) {
    opt.profile = raw.profile == "strict" ? Profile::strict : Profile::spec;
    // Every number is range-checked before it is used (a large --memory-bound would overflow).
    struct Range {
        const char* name;
        double value, low, high;
    };
    for (const Range& r : {Range{"--memory-bound", static_cast<double>(raw.memory_bound_mib), 1, 1 << 22},
                           Range{"--max-derived", static_cast<double>(opt.max_derived), 0, 10000},
                           Range{"--max-consecutive-failures", static_cast<double>(opt.max_consecutive_failures), 0, 1000000},
                           Range{"--fuzz", raw.fuzz_seconds, 0, 86400}})
        if (app.count(r.name) && !(r.value >= r.low && r.value <= r.high)) {
            std::ostringstream m;
            m << r.name << " must be between " << static_cast<long long>(r.low) << " and " << static_cast<long long>(r.high);
            return m.str();
        }
    if (raw.seed_text == "random") {
        opt.seed_random = true;
    } else if (!raw.seed_text.empty()) {
        if (raw.seed_text.find_first_not_of("0123456789") != std::string::npos || raw.seed_text.size() > 18)
            return "--seed takes a number (up to 18 digits) or 'random', not '" + raw.seed_text + "'";
        opt.seed = std::stoull(raw.seed_text);
        opt.seed_given = true;
    }
    if (app.count("--memory-limit") && (raw.memory_limit_mib < 16 || raw.memory_limit_mib > (1L << 22)))
        return "--memory-limit must be between 16 and 4194304 MiB";
    opt.memory_limit_kb = raw.memory_limit_mib * 1024;
    if (opt.jobs < 1 || opt.jobs > 256) return "-j must be between 1 and 256, not " + std::to_string(opt.jobs);
    opt.derived = !raw.no_derived;
    opt.progress = !raw.quiet;
    opt.progress_tty = stderr_is_tty;
    if (!(raw.timeout_s >= 0.01 && raw.timeout_s <= 3600)) return "--timeout must be between 0.01 and 3600 seconds";
    opt.timeout = std::chrono::milliseconds(static_cast<long long>(raw.timeout_s * 1000.0));
    opt.memory_bound_kb = raw.memory_bound_mib * 1024;
    return std::nullopt;
}

// --html-merge OUT FILES...: one HTML matrix of several runs' result files.
int merge_html(const RawArgs& raw, std::ostream& out, std::ostream& err) {
    if (raw.merge_inputs.empty()) {
        err << "ond conform: --html-merge OUT needs result files (written by --json)\n";
        return 2;
    }
    std::vector<RunReport> runs;
    for (const auto& f : raw.merge_inputs) runs.push_back(read_results_json(f));
    write_file(raw.html_merge, html_matrix(runs));
    out << "wrote " << raw.html_merge << ": " << runs.size() << " implementations\n";
    return 0;
}

}  // namespace

int conform_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool stderr_is_tty,
                const ShellContext& shell) {
    CLI::App app{"Tests an implementation of the ONDC/ONDB binary format against the golden corpus.\n"
                 "Without --decoder/--encoder/--stream-decoder/--persistent it tests the reference codec in-process.",
                 "ond conform"};
    app.footer(
        "Levels: a required check (verdict, content, writer rules the specification states, crashes, time-outs, memory)\n"
        "fails the run; a recommended one (the error code of a rejection, an error code not in the table, canonical bytes\n"
        "only the rulings fix) is reported apart and does not. The summary ends with the commands that reproduce the first\n"
        "failures. Exit status: 0 passed, 1 failed, 2 usage error. Guide: conformance/README.md; protocol: docs/protocol.md.");
    Options opt;
    opt.corpus_dir = default_corpus_dir();
    RawArgs raw;
    add_options(app, opt, raw);

    std::vector<std::string> rev(args.rbegin(), args.rend());
    try {
        app.parse(rev);
    } catch (const CLI::ParseError& e) {
        std::ostringstream o, e2;
        int code = app.exit(e, o, e2);
        out << o.str();
        err << e2.str();
        return code == 0 ? 0 : 2;
    }
    if (auto message = check_options(app, raw, opt, stderr_is_tty)) {
        err << "ond conform: " << *message << "\n";
        return 2;
    }
    opt.shell_ond = shell.ond;
    opt.shell_env = shell.env;
    opt.argv.push_back("conform");
    opt.argv.insert(opt.argv.end(), args.begin(), args.end());

    try {
        if (!raw.html_merge.empty()) return merge_html(raw, out, err);
        if (!raw.merge_inputs.empty()) {
            err << "ond conform: unexpected argument '" << raw.merge_inputs.front() << "' (result files go with --html-merge)\n";
            return 2;
        }
        opt.large = raw.large;
        opt.fuzz_seconds = raw.fuzz_seconds;
        opt.fuzz_out = raw.fuzz_out;
        RunReport rep = run_conformance(opt, out, err);
        return rep.summary.ok ? 0 : 1;
    } catch (const std::exception& e) {
        err << "ond conform: " << e.what() << "\n";
        return 2;
    }
}

ShellContext this_shell_context() {
    namespace fs = std::filesystem;
    ShellContext c;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    bool on_path = false;
    if (const char* path = std::getenv("PATH"); path && !ec) {
        std::string_view rest(path);
        while (!on_path && !rest.empty()) {
            const std::string_view dir = rest.substr(0, rest.find(':'));
            rest.remove_prefix(std::min(rest.size(), dir.size() + 1));
            if (dir.empty()) continue;
            std::error_code e2;
            on_path = fs::equivalent(fs::path(dir) / "ond", self, e2);
        }
    }
    if (!on_path && !ec) c.ond = shell_quote(self.string());
    if (const char* ond = std::getenv("OND"); ond && *ond) c.env = "OND=" + shell_quote(ond) + " ";
    return c;
}

int conform_main(int argc, char** argv) {
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    return conform_run(args, std::cout, std::cerr, ::isatty(STDERR_FILENO) != 0, this_shell_context());
}

}  // namespace ond::conformance
