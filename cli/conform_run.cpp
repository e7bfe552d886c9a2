#include "conform_run.hpp"

#include <algorithm>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "report/report.hpp"
#include "suite/execute.hpp"
#include "suite/expected_failures.hpp"
#include "suite/fuzz.hpp"
#include "suite/plan.hpp"
#include "suite/reference.hpp"
#include "suite/settle.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

namespace {

// The testee the options name: the transport's process testees, or the reference in-process.
std::unique_ptr<Testee> make_testee(const Options& opt) {
    const unsigned jobs = std::max(1u, opt.jobs);
    if (!opt.persistent.empty()) return make_persistent_testee(opt.persistent, jobs, opt.timeout, opt.memory_limit_kb);
    if (!opt.decoder.empty() || !opt.encoder.empty() || !opt.stream_decoder.empty())
        return make_command_testee(opt.decoder, opt.encoder, opt.stream_decoder, opt.timeout, opt.memory_limit_kb, jobs);
    return make_reference_testee();
}

// Each stage's input, from the options.

RunSetup setup_of(const Options& opt) {
    return RunSetup{opt.corpus_dir, opt.name, opt.profile, opt.jobs, opt.timeout, opt.memory_bound_kb, opt.large,
                    !opt.persistent.empty(), opt.expected_failures, opt.max_consecutive_failures,
                    opt.allow_unknown_expected_failures, opt.require_rule_coverage};
}

PlanInput plan_input(const Options& opt, std::uint64_t seed, bool streams) {
    return PlanInput{opt.filters, opt.derived, opt.max_derived, opt.large, seed, streams};
}

ClassifyOptions classify_options(const Options& opt) { return ClassifyOptions{opt.profile, opt.memory_bound_kb}; }

ExecuteInput execute_input(const Options& opt) {
    return ExecuteInput{opt.skips, std::max(1u, opt.jobs), opt.timeout, opt.max_consecutive_failures, classify_options(opt),
                        opt.progress, opt.progress_tty};
}

ReportInput report_input(const Options& opt) {
    return ReportInput{opt.verbose, opt.argv, opt.shell_ond, opt.shell_env, opt.json, opt.junit, opt.html, opt.write_expected_failures};
}

SettleInput settle_input(const Options& opt, const ReportInput& report) {
    return SettleInput{classify_options(opt), opt.allow_unknown_expected_failures, opt.require_rule_coverage,
                       saved_cases_dir(report), opt.corpus_dir};
}

}  // namespace

RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err) {
    const auto t_start = std::chrono::steady_clock::now();
    const ReportInput report_in = report_input(opt);
    check_report_files(report_in, opt.expected_failures);
    Corpus corpus = load_corpus(opt.corpus_dir);
    std::vector<ListedFailure> listed;
    if (!opt.expected_failures.empty()) listed = read_expected_failures(opt.expected_failures);
    std::unique_ptr<Testee> testee = make_testee(opt);
    RunReport rep = start_report(setup_of(opt), corpus, *testee);
    const Seeds seeds = choose_seeds(opt.seed_given ? std::optional<std::uint64_t>(opt.seed) : std::nullopt, opt.seed_random,
                                     corpus.corpus_version);
    rep.seed = seeds.seed, rep.fuzz_seed = seeds.fuzz_seed, rep.seed_origin = seeds.origin;
    if (opt.fuzz_seconds > 0 && !testee->supports(Op::decode)) throw std::runtime_error("--fuzz needs a decoder");

    // plan
    const Plan p = plan(corpus, plan_input(opt, rep.seed, testee->supports(Op::stream)));
    rep.expected_failures = resolve_expected_failures(listed, corpus, p.planned, opt.large);
    print_run_start(rep, p, out);
    if (testee->measures_memory()) record_memory(*testee, set_memory_baselines(*testee, corpus, 2 * opt.memory_bound_kb), rep);
    print_bounds(rep, testee->measures_memory(), out);

    // execute (the cases, then --fuzz through the same testee)
    Executed executed = execute(p, *testee, rep.expected_failures.reasons, execute_input(opt), err);
    if (testee->measures_memory()) update_memory(*testee, rep);  // what the run's processes had, and their largest baselines
    FuzzReport fuzzed;
    if (opt.fuzz_seconds > 0) {
        const FuzzOptions f{opt.fuzz_seconds, opt.fuzz_out, rep.fuzz_seed, std::max(1u, opt.jobs), opt.profile == Profile::spec,
                            p.selected.size()};
        fuzzed = run_fuzz(corpus, *testee, f, out, err);
    }

    // settle, then report
    settle(p, *testee, std::move(executed), fuzzed, settle_input(opt, report_in), rep);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    report(rep, report_in, out);
    return rep;
}

}  // namespace ond::conformance
