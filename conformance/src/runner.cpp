#include "runner.hpp"

#include <algorithm>
#include <atomic>
#include <iomanip>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "derive.hpp"
#include "proctree.hpp"
#include "report.hpp"
#include "writer_check.hpp"

namespace ond::conformance {

std::map<std::string, std::string> read_expected_failures(const std::string& path) {
    std::map<std::string, std::string> ids;
    std::istringstream in(read_file(path));
    std::string line;
    while (std::getline(in, line)) {
        std::string reason;
        auto hash = line.find('#');
        if (hash != std::string::npos) {
            reason = line.substr(hash + 1);
            line.resize(hash);
        }
        auto trim = [](std::string& s) {
            auto b = s.find_first_not_of(" \t\r");
            auto e = s.find_last_not_of(" \t\r");
            s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
        };
        trim(line);
        trim(reason);
        if (!line.empty()) ids[line] = reason;
    }
    return ids;
}

std::uint64_t default_seed(const std::string& corpus_version) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : corpus_version) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h % 1000000000u;
}

namespace {

Op op_of(CaseKind k) { return k == CaseKind::decode ? Op::decode : k == CaseKind::encode ? Op::encode : Op::stream; }

bool is_failure_answer(Answer a) {
    return a == Answer::crash || a == Answer::timeout || a == Answer::protocol || a == Answer::start_error;
}

// ---- plan ----------------------------------------------------------------------------------

struct Plan {
    std::vector<Case> cases;            // corpus and derived
    std::vector<const Case*> selected;  // in run order
};

Plan plan(const Options& opt, const Corpus& corpus, std::uint64_t seed, bool streams) {
    Plan p;
    p.cases = corpus.cases;
    if (opt.derived && opt.max_derived > 0) {
        DeriveOptions d;
        d.max_per_kind = opt.max_derived;
        d.seed = seed;
        d.streams = streams;
        auto more = derive_cases(corpus.cases, d);
        p.cases.insert(p.cases.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    std::vector<bool> used(opt.filters.size(), false);
    for (const auto& c : p.cases) {
        bool take = opt.filters.empty();
        for (std::size_t i = 0; i < opt.filters.size(); ++i)
            if (glob_match(opt.filters[i], c.id)) take = used[i] = true;
        if (take) p.selected.push_back(&c);
    }
    for (std::size_t i = 0; i < opt.filters.size(); ++i)
        if (!used[i]) throw std::runtime_error("--filter '" + opt.filters[i] + "' matches no case");
    return p;
}

std::unique_ptr<Testee> make_testee(const Options& opt) {
    if (!opt.persistent.empty()) return make_persistent_testee(opt.persistent, std::max(1u, opt.jobs), opt.timeout, opt.memory_limit_kb);
    if (!opt.decoder.empty() || !opt.encoder.empty() || !opt.stream_decoder.empty())
        return make_command_testee(opt.decoder, opt.encoder, opt.stream_decoder, opt.timeout, opt.memory_limit_kb, std::max(1u, opt.jobs));
    return make_reference_testee();
}

// The memory baseline's inputs: per operation, the smallest case the reference accepts.
std::map<Op, std::string> baseline_inputs(const Corpus& corpus) {
    std::map<Op, const Case*> smallest;
    for (const auto& c : corpus.cases) {
        if (!c.expect_accept) continue;
        auto& s = smallest[op_of(c.kind)];
        if (!s || c.input.size() < s->input.size()) s = &c;
    }
    std::map<Op, std::string> in;
    for (const auto& [op, c] : smallest) in[op] = c->input;
    return in;
}

// ---- execute and classify ------------------------------------------------------------------

void execute(const Options& opt, const Plan& p, Testee& testee, const std::map<std::string, std::string>& expected, RunReport& rep,
             std::ostream& err) {
    const auto& selected = p.selected;
    ClassifyOptions copt{opt.profile, opt.memory_bound_kb};
    rep.results.resize(selected.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<unsigned> active{0};
    std::atomic<int> failing{0}, consecutive{0};
    std::atomic<bool> stop{false};
    auto worker = [&](unsigned w) {
        struct Leave {
            std::atomic<unsigned>& n;
            ~Leave() { --n; }
        } leave{active};
        for (;;) {
            if (stop.load()) return;
            std::size_t i = next.fetch_add(1);
            if (i >= selected.size()) return;
            const Case& c = *selected[i];
            bool skipped = std::any_of(opt.skips.begin(), opt.skips.end(), [&](const std::string& g) { return glob_match(g, c.id); });
            TesteeResult o;
            if (skipped || !testee.supports(op_of(c.kind))) o.status = Answer::unsupported;
            else o = testee.run(op_of(c.kind), c.input, w, RunContext{i, output_limit(c)});
            if (is_failure_answer(o.status)) {
                if (opt.max_consecutive_failures > 0 && ++consecutive >= opt.max_consecutive_failures) stop = true;
            } else if (o.status != Answer::unsupported) {
                consecutive = 0;
            }
            CaseResult r = classify(c, o, copt);
            // The round trip's extra request is not made in persistent mode yet: there a late answer of
            // a misbehaving testee could be taken for it, and the late-verdict accounting is per case.
            if (!skipped && opt.persistent.empty()) check_round_trip(c, o, testee, w, i, r);  // writer_check.cpp
            if (r.status == Status::fail && !expected.count(r.id)) failing++;
            rep.results[i] = std::move(r);
            done++;
        }
    };
    std::vector<std::thread> threads;
    unsigned jobs = std::max(1u, opt.jobs);
    try {
        for (unsigned w = 0; w < jobs; ++w) {
            ++active;
            try {
                threads.emplace_back(worker, w);
            } catch (...) {
                --active;
                throw;
            }
        }
    } catch (const std::system_error& e) {
        stop = true;
        for (auto& t : threads) t.join();
        testee.finish();
        throw std::runtime_error("cannot start " + std::to_string(jobs) + " threads (-j " + std::to_string(jobs) + "): " + e.what());
    }
    auto last_plain = std::chrono::steady_clock::now();
    bool printed_tty = false;
    while (active.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!opt.progress) continue;
        auto now = std::chrono::steady_clock::now();
        std::size_t d = done.load();
        if (opt.progress_tty) {
            int pct = selected.empty() ? 100 : static_cast<int>(d * 100 / selected.size());
            err << "\r\033[K[" << std::setw(3) << pct << "%] " << d << "/" << selected.size() << " cases, " << failing.load()
                << " failing" << std::flush;
            printed_tty = true;
        } else if (now - last_plain >= std::chrono::seconds(5)) {
            err << "progress: " << d << "/" << selected.size() << " cases, " << failing.load() << " failing\n" << std::flush;
            last_plain = now;
        }
    }
    for (auto& t : threads) t.join();
    if (printed_tty) err << "\r\033[K" << std::flush;
    // Verdicts that came late: a persistent testee's bytes after a response void that answer.
    for (auto& a : testee.finish())
        if (a.case_index < selected.size()) rep.results[a.case_index] = classify(*selected[a.case_index], a.outcome, copt);
    // Cases no worker took: the run stopped first.
    for (std::size_t i = 0; i < selected.size(); ++i) {
        if (!rep.results[i].id.empty()) continue;
        TesteeResult o;
        o.status = Answer::not_run;
        rep.results[i] = classify(*selected[i], o, copt);
        rep.stopped_early = true;
    }
}

void apply_expected_failures(const std::map<std::string, std::string>& expected, RunReport& rep) {
    std::set<std::string> ran;
    for (auto& r : rep.results) {
        ran.insert(r.id);
        auto it = expected.find(r.id);
        if (it == expected.end()) continue;
        r.xfail_reason = it->second;
        if (r.status == Status::fail) r.status = Status::xfail;
        else if (r.status == Status::pass || r.status == Status::info) {
            r.status = Status::stale;
            rep.stale.push_back(r.id);
        }
    }
    for (const auto& [id, reason] : expected)
        if (!ran.count(id)) rep.missing_expected.push_back(id);
}

void count(RunReport& rep) {
    auto& s = rep.summary;
    for (const auto& r : rep.results) {
        switch (r.status) {
            case Status::pass: s.passed++; break;
            case Status::stale: s.passed++, s.stale++; break;
            case Status::fail: s.failed++; break;
            case Status::xfail: s.xfailed++; break;
            case Status::skip: s.skipped++; break;
            case Status::info: s.info++; break;
            case Status::not_run: s.not_run++; break;
        }
        s.recommended_fail += r.recommended_fail;
        s.recommended_pass += r.recommended_pass;
    }
    for (const auto& rule : rep.rules)
        if (!rep.rule_cases.count(rule.id)) s.uncovered_rules++;
    s.corpus_problems = static_cast<int>(rep.corpus_problems.size());
    s.ok = s.failed == 0 && s.not_run == 0 && s.corpus_problems == 0 && !(rep.options.require_rule_coverage && s.uncovered_rules > 0);
}

std::string expected_failures_text(const RunReport& rep) {
    const auto& opt = rep.options;
    std::string text = "# Expected failures of '" + (opt.name.empty() ? rep.testee : opt.name) +
                       "': one case id a line, then '  # ' and why (written by ond conform --write-expected-failures)\n";
    std::vector<const CaseResult*> failing;
    for (const auto& r : rep.results)
        if (r.status == Status::fail || r.status == Status::xfail) failing.push_back(&r);
    std::sort(failing.begin(), failing.end(), [](const CaseResult* a, const CaseResult* b) { return a->id < b->id; });
    for (const auto* r : failing) {
        std::string why;
        for (const auto& f : r->findings)
            if (f.level == Level::required) {
                why = "[" + std::string(check_name(f.check)) + "] " + f.message;
                break;
            }
        std::replace(why.begin(), why.end(), '#', ' ');
        if (why.size() > 120) why = why.substr(0, 117) + "...";
        text += r->id + (why.empty() ? "" : "  # " + why) + "\n";
    }
    return text;
}

}  // namespace

RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err) {
    auto t_start = std::chrono::steady_clock::now();
    // Every file the run will write is checked first: a bad path costs nothing but this line.
    for (const std::string* path : {&opt.json, &opt.junit, &opt.html, &opt.write_expected_failures})
        if (!path->empty()) check_writable(*path);
    RunReport rep;
    rep.options = opt;
    Corpus corpus = load_corpus(opt.corpus_dir);
    rep.corpus_version = corpus.corpus_version;
    rep.format_version = corpus.format_version;
    rep.rules = corpus.rules;
    rep.corpus_problems = corpus.problems;
    for (const auto& c : corpus.cases)
        for (const auto& rule : c.rules) rep.rule_cases[rule]++;
    std::map<std::string, std::string> expected;
    if (!opt.expected_failures.empty()) expected = read_expected_failures(opt.expected_failures);

    std::unique_ptr<Testee> testee = make_testee(opt);
    rep.testee = testee->describe();
    for (CaseKind k : {CaseKind::decode, CaseKind::encode, CaseKind::stream})
        if (testee->supports(op_of(k))) rep.commands[k] = testee->command(op_of(k));
    if (opt.seed_random) rep.seed = std::random_device{}() % 1000000000u, rep.seed_origin = "random";
    else if (opt.seed_given) rep.seed = opt.seed, rep.seed_origin = "--seed";
    else rep.seed = default_seed(corpus.corpus_version), rep.seed_origin = "default";
    Plan p = plan(opt, corpus, rep.seed, testee->supports(Op::stream));
    rep.memory_cap = testee->memory_cap();

    out << "ond conform: corpus " << opt.corpus_dir << " (corpus " << corpus.corpus_version << ", format " << corpus.format_version
        << ", " << corpus.cases.size() << " cases)\n";
    out << "testee: " << rep.testee << (opt.name.empty() ? "" : " as '" + opt.name + "'") << "; profile " << profile_name(opt.profile)
        << "; " << opt.jobs << " jobs; time-out " << opt.timeout.count() << " ms\n";
    out << "seed: " << rep.seed << " (" << (rep.seed_origin == "default" ? "the default for this corpus" : rep.seed_origin)
        << "; --seed " << rep.seed << " replays the derived cases)\n";
    std::size_t from_corpus = static_cast<std::size_t>(
        std::count_if(p.selected.begin(), p.selected.end(), [](const Case* c) { return c->origin == Origin::corpus; }));
    out << "running " << p.selected.size() << " cases (" << from_corpus << " from the corpus, the rest derived)\n";
    out.flush();

    if (testee->measures_memory()) {
        auto inputs = baseline_inputs(corpus);
        testee->set_baselines(inputs);
        out << "memory: per case, the peak of the testee's whole process tree (VmHWM of each process, sampled every 1-4 ms)"
            << " over its baseline on the smallest valid input (";
        bool first = true;
        for (const auto& [op, in] : inputs) {
            if (!testee->supports(op)) continue;
            long kb = testee->baseline_kb(op);
            rep.baseline_kb[op == Op::decode ? "decode" : op == Op::encode ? "encode" : "stream"] = kb;
            out << (first ? "" : ", ") << (op == Op::decode ? "decode " : op == Op::encode ? "encode " : "stream ") << kb / 1024 << " MiB";
            first = false;
        }
        out << "); bound " << opt.memory_bound_kb / 1024 << " MiB; hard cap " << rep.memory_cap << "\n";
    }
    out << "output: at most 1 MiB + 8 x the expected output + 64 x the input per case\n";
    out.flush();

    execute(opt, p, *testee, expected, rep, err);
    sweep_orphans(0, true);
    apply_expected_failures(expected, rep);
    count(rep);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();

    text_report(rep, out);
    if (!opt.write_expected_failures.empty()) {
        write_file(opt.write_expected_failures, expected_failures_text(rep));
        out << "wrote " << rep.summary.failed + rep.summary.xfailed << " expected failures to " << opt.write_expected_failures << "\n";
    }
    if (!opt.json.empty()) write_file(opt.json, results_json(rep));
    if (!opt.junit.empty()) write_file(opt.junit, junit_xml(rep));
    if (!opt.html.empty()) write_file(opt.html, html_matrix({column_from_report(rep)}));
    out << final_line(rep.summary) << "\n";
    out.flush();
    return rep;
}

}  // namespace ond::conformance
