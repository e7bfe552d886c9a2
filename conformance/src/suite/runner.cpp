#include "suite/runner.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <mutex>
#include <thread>

#include "suite/derive.hpp"
#include "suite/fuzz.hpp"
#include "suite/large.hpp"
#include "suite/large_answer.hpp"
#include "transport/proctree.hpp"
#include "ond/text_escape.hpp"
#include "report/report.hpp"
#include "suite/writer_check.hpp"

namespace ond::conformance {

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
    std::vector<Case> cases;            // corpus, derived (those a filter selects) and large
    std::vector<const Case*> selected;  // in run order
    std::set<std::string> planned;      // the id of every case the run makes, selected or not
};

// The filters pick cases before derived ones are made: a derived case no filter selects gets
// neither bytes nor a reference answer, so `--max-derived 50000 --filter ID` costs one case's
// memory (its id is still planned: an expected failure listed for it is not unknown).
Plan plan(const Options& opt, const Corpus& corpus, std::uint64_t seed, bool streams) {
    Plan p;
    std::vector<bool> used(opt.filters.size(), false);
    auto take = [&](const std::string& id) {
        p.planned.insert(id);
        bool selected = opt.filters.empty();
        for (std::size_t i = 0; i < opt.filters.size(); ++i)
            if (glob_match(opt.filters[i], id)) selected = used[i] = true;
        return selected;
    };
    p.cases = corpus.cases;
    if (opt.derived && opt.max_derived > 0) {
        DeriveOptions d;
        d.max_per_kind = opt.max_derived;
        d.seed = seed;
        d.streams = streams;
        d.keep = take;
        auto more = derive_cases(corpus.cases, d);
        p.cases.insert(p.cases.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    if (opt.large)
        for (Case& c : large_cases()) p.cases.push_back(std::move(c));
    for (const auto& c : p.cases)
        if (take(c.id)) p.selected.push_back(&c);
    for (std::size_t i = 0; i < opt.filters.size(); ++i)
        if (!used[i]) throw std::runtime_error("--filter '" + opt.filters[i] + "' matches no case");
    // --large asks for the large cases: filters that leave them all out are a mistake too.
    if (opt.large && !opt.filters.empty() &&
        std::none_of(p.selected.begin(), p.selected.end(), [](const Case* c) { return c->origin == Origin::large; }))
        throw std::runtime_error("--large: no --filter matches a large/* case, so none would run (add --filter 'large/*')");
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

// execute() marks each case it put to the testee (not --skip, not an operation the testee lacks).
// `written`: what the encoder wrote on the encode cases that failed, by case index.
void execute(const Options& opt, const Plan& p, Testee& testee, const std::map<std::string, std::string>& expected, RunReport& rep,
             std::vector<char>& asked, std::map<std::size_t, std::string>& written, std::ostream& err) {
    std::mutex written_mutex;
    const auto& selected = p.selected;
    ClassifyOptions copt{opt.profile, opt.memory_bound_kb};
    rep.results.resize(selected.size());
    asked.assign(selected.size(), 0);
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
            // A large case to be accepted: its answer is judged as it arrives (large_answer.hpp).
            std::shared_ptr<StreamedAnswer> streamed = c.generated && c.generated->answer ? c.generated->answer() : nullptr;
            // The reference in-process holds its input whole: the large cases go to adapters only.
            const bool in_process_large = c.generated && testee.command(op_of(c.kind)).empty();
            if (skipped || in_process_large || !testee.supports(op_of(c.kind))) {
                o.status = Answer::unsupported;
            } else if (c.generated) {
                const Input in{{}, c.generated->size, c.generated->open()};
                RunContext ctx{i, streamed ? c.generated->answer_limit : output_limit(c), large_timeout(opt.timeout)};
                if (streamed) ctx.sink = [streamed](std::string_view b) { return streamed->feed(b); };
                o = testee.run(op_of(c.kind), in, w, ctx);
                asked[i] = 1;
            } else {
                o = testee.run(op_of(c.kind), c.input, w, RunContext{i, output_limit(c)});
                asked[i] = 1;
            }
            if (is_failure_answer(o.status)) {
                if (opt.max_consecutive_failures > 0 && ++consecutive >= opt.max_consecutive_failures) stop = true;
            } else if (o.status != Answer::unsupported) {
                consecutive = 0;
            }
            CaseResult r = streamed && o.status != Answer::unsupported ? judge_streamed(c, o, *streamed, c.generated->answer_limit, copt)
                                                                       : classify(c, o, copt);
            if (in_process_large && !skipped)
                r.findings.push_back({Level::info, Check::verdict,
                                      "not run: the reference codec in-process would hold the whole input; --large runs through an adapter",
                                      c.rules.empty() ? std::string() : c.rules.front(), "(top level)"});
            // The decode -> encode round trip is one more request in every mode (a persistent testee
            // numbers its answers, or, under protocol 1, gets one request at a time).
            std::string round_trip_written;
            if (!skipped) check_round_trip(c, o, testee, w, i, r, round_trip_written);  // writer_check.cpp
            if (r.status == Status::fail && !expected.count(r.id)) failing++;
            if (r.status == Status::fail && c.kind == CaseKind::encode && o.status == Answer::accept) {
                std::lock_guard<std::mutex> lock(written_mutex);
                written[i] = std::move(o.out);
            } else if (r.status == Status::fail && !round_trip_written.empty()) {
                std::lock_guard<std::mutex> lock(written_mutex);
                written[i] = std::move(round_trip_written);
            }
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
}

// After execute() (and the fuzzing phase, which uses the same testee): ends the testee, takes
// the verdicts that came late and marks the cases no worker took.
void settle_late(const Options& opt, const Plan& p, Testee& testee, RunReport& rep) {
    const auto& selected = p.selected;
    const ClassifyOptions copt{opt.profile, opt.memory_bound_kb};
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

const char* op_word(Op op) { return op == Op::decode ? "decode" : op == Op::encode ? "encode" : "stream"; }

// Whether the testee supports an operation is fixed by its first answer to it (the first case of
// that operation in run order it answered at all). A later answer that disagrees - 'unsupported'
// (status 2) for an operation it answered, or an answer for one it called unsupported - fails
// that case [protocol]. Then the operations of which no case was checked are reported; decode
// among them fails the run.
void settle_support(const Options& opt, const Plan& p, const Testee& testee, const std::vector<char>& asked, RunReport& rep) {
    const ClassifyOptions copt{opt.profile, opt.memory_bound_kb};
    auto answered = [](Answer a) { return a == Answer::accept || a == Answer::reject || a == Answer::unsupported; };
    for (Op op : {Op::decode, Op::encode, Op::stream}) {
        std::size_t first = p.selected.size();
        for (std::size_t i = 0; i < p.selected.size() && first == p.selected.size(); ++i)
            if (asked[i] && op_of(p.selected[i]->kind) == op && answered(rep.results[i].answer)) first = i;
        std::size_t selected = 0, checked = 0;
        for (std::size_t i = 0; i < p.selected.size(); ++i) {
            if (op_of(p.selected[i]->kind) != op) continue;
            ++selected;
            CaseResult& r = rep.results[i];
            if (asked[i] && first < p.selected.size() && answered(r.answer) &&
                (r.answer == Answer::unsupported) != (rep.results[first].answer == Answer::unsupported)) {
                TesteeResult o;
                o.status = Answer::protocol;
                o.detail = r.answer == Answer::unsupported
                               ? std::string("answered 'unsupported' (status 2) to a ") + op_word(op) + " request, an operation it answered on " +
                                     rep.results[first].id + ": an operation is supported for every case or for none"
                               : std::string("answered a ") + op_word(op) + " request, an operation it called unsupported (status 2) on " +
                                     rep.results[first].id + ": an operation is supported for every case or for none";
                r = classify(*p.selected[i], o, copt);
            }
            if (r.status != Status::skip && r.status != Status::not_run) ++checked;
        }
        if (selected == 0 || checked > 0) continue;
        std::string why;
        if (!testee.supports(op))
            why = op == Op::decode ? "no --decoder" : op == Op::encode ? "no --encoder" : "no --stream-decoder";
        else if (first < p.selected.size() && rep.results[first].answer == Answer::unsupported)
            why = "the testee answered 'unsupported' (status 2) to every " + std::string(op_word(op)) + " request";
        else
            why = "every case was skipped or not run";
        rep.not_tested[op_word(op)] = why;
        if (op == Op::decode) rep.summary.decode_unchecked = true;
    }
}

// The listed cases (resolve_expected_failures mapped former ids to current ones): a failure is
// expected, a pass is stale.
void apply_expected_failures(const std::map<std::string, std::string>& expected, RunReport& rep) {
    for (auto& r : rep.results) {
        auto it = expected.find(r.id);
        if (it == expected.end()) continue;
        r.xfail_reason = it->second;
        if (r.status == Status::fail) r.status = Status::xfail;
        else if (r.status == Status::pass || r.status == Status::info) {
            r.status = Status::stale;
            rep.stale.push_back(r.id);
        }
    }
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
    s.unknown_expected = static_cast<int>(rep.expected_failures.unknown.size());
    s.ok = s.failed == 0 && s.not_run == 0 && s.corpus_problems == 0 && !s.decode_unchecked &&
           (s.unknown_expected == 0 || rep.options.allow_unknown_expected_failures) &&
           !(rep.options.require_rule_coverage && s.uncovered_rules > 0);
}

// Next to the reports (the folder of --json, else --junit, else --html), in cases/: for every
// failing case whose bytes are in no file - derived and fuzz inputs, a large case's recipe (its
// bytes are hundreds of MB), what an encoder wrote - a file to reproduce it by hand.
void save_failure_files(const Options& opt, const Plan& p, const std::map<std::size_t, std::string>& written, RunReport& rep) {
    namespace fs = std::filesystem;
    const std::string& first = !opt.json.empty() ? opt.json : !opt.junit.empty() ? opt.junit : opt.html;
    if (first.empty()) return;
    const fs::path dir = fs::absolute(first).parent_path() / "cases";
    auto file_of = [&](const std::string& id, const std::string& ext) {
        std::string name = id;
        for (char& ch : name)
            if (ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) ch = '_';
        return (dir / (name + ext)).string();
    };
    for (std::size_t i = 0; i < p.selected.size(); ++i) {
        CaseResult& r = rep.results[i];
        if (r.status != Status::fail && r.status != Status::xfail) continue;
        const Case& c = *p.selected[i];
        std::vector<std::pair<std::string, std::string>> files;
        if (c.generated) {
            files.emplace_back("recipe", file_of(c.id, ".recipe.txt"));
            fs::create_directories(dir);
            write_file(files.back().second, c.generated->recipe + "\nThe bytes are not saved (" +
                                                std::to_string(c.generated->size) + " bytes): `ond conform --large --filter " +
                                                c.id + "` makes them again.\n");
        } else if (c.origin != Origin::corpus) {
            files.emplace_back("input", file_of(c.id, c.kind == CaseKind::encode ? ".json" : c.kind == CaseKind::stream ? ".onds" : ".ondc"));
            fs::create_directories(dir);
            write_file(files.back().second, c.input);
        }
        if (auto w = written.find(i); w != written.end()) {
            // What the encoder wrote, and the bytes it should have written: the case's expected
            // file (an encode case), its input (a valid decode case's round trip) or, with none in
            // the corpus, the reference's canonical bytes saved beside it.
            files.emplace_back("written", file_of(c.id, ".written.ondc"));
            fs::create_directories(dir);
            write_file(files.back().second, w->second);
            const std::string& in_corpus = c.kind == CaseKind::encode ? c.expected_path
                                           : c.verdict == CaseVerdict::valid ? c.input_path : std::string();
            if (!in_corpus.empty()) {
                files.emplace_back("expected", (fs::absolute(opt.corpus_dir) / in_corpus).lexically_normal().string());
            } else if (auto canonical = c.kind == CaseKind::decode ? canonical_bytes(c) : std::nullopt) {
                files.emplace_back("expected", file_of(c.id, ".expected.ondc"));
                write_file(files.back().second, *canonical);
            }
        }
        r.saved = std::move(files);
    }
}

std::string expected_failures_text(const RunReport& rep) {
    const auto& opt = rep.options;
    std::string text = "# Expected failures of '" + escape_text(opt.name.empty() ? rep.testee : opt.name) +
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

// Two options naming one file: the second write would silently replace the first (or the
// expected-failures list read at the start, unless it is rewritten on purpose).
void check_distinct_paths(const Options& opt) {
    namespace fs = std::filesystem;
    const std::pair<const char*, const std::string*> paths[] = {
        {"--json", &opt.json}, {"--junit", &opt.junit}, {"--html", &opt.html},
        {"--write-expected-failures", &opt.write_expected_failures}, {"--expected-failures", &opt.expected_failures}};
    std::vector<std::pair<const char*, fs::path>> seen;
    for (const auto& [name, path] : paths) {
        if (path->empty()) continue;
        std::error_code ec;
        fs::path p = fs::weakly_canonical(fs::absolute(*path), ec);
        if (ec) p = fs::absolute(*path).lexically_normal();
        for (const auto& [other, q] : seen) {
            // Rewriting the list the run read is the ratchet (the command the report prints).
            const bool ratchet = std::string(other) == "--write-expected-failures" && std::string(name) == "--expected-failures";
            if (p == q && !ratchet) throw std::runtime_error(std::string(other) + " and " + name + " name the same file " + *path);
        }
        seen.emplace_back(name, p);
    }
}

RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err) {
    auto t_start = std::chrono::steady_clock::now();
    check_distinct_paths(opt);
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
    std::vector<ListedFailure> listed;
    if (!opt.expected_failures.empty()) listed = read_expected_failures(opt.expected_failures);

    std::unique_ptr<Testee> testee = make_testee(opt);
    rep.testee = testee->describe();
    for (CaseKind k : {CaseKind::decode, CaseKind::encode, CaseKind::stream})
        if (testee->supports(op_of(k))) rep.commands[k] = testee->command(op_of(k));
    if (opt.seed_random) rep.seed = std::random_device{}() % 1000000000u, rep.seed_origin = "random";
    else if (opt.seed_given) rep.seed = opt.seed, rep.seed_origin = "--seed";
    else rep.seed = default_seed(corpus.corpus_version), rep.seed_origin = "default";
    rep.fuzz_seed = rep.seed_origin == "default" ? std::random_device{}() % 1000000000u : rep.seed;
    if (opt.fuzz_seconds > 0 && !testee->supports(Op::decode)) throw std::runtime_error("--fuzz needs a decoder");
    Plan p = plan(opt, corpus, rep.seed, testee->supports(Op::stream));
    rep.expected_failures = resolve_expected_failures(listed, corpus, p.planned, opt.large);
    const std::map<std::string, std::string>& expected = rep.expected_failures.reasons;
    rep.memory_cap = testee->memory_cap();

    out << "ond conform: corpus " << opt.corpus_dir << " (corpus " << corpus.corpus_version << ", format " << corpus.format_version
        << ", " << corpus.cases.size() << " cases)\n";
    // --name is the user's, but escaped like testee text: a line of its own, an ESC sequence or a
    // bidi override would forge or hide the terminal's lines.
    out << "testee: " << rep.testee << (opt.name.empty() ? "" : " as '" + escape_text(opt.name) + "'") << "; profile " << profile_name(opt.profile)
        << "; " << opt.jobs << " jobs; time-out " << opt.timeout.count() << " ms\n";
    out << "seed: " << rep.seed << " (" << (rep.seed_origin == "default" ? "the default for this corpus" : rep.seed_origin)
        << "; --seed " << rep.seed << " replays the derived cases)\n";
    auto count_of = [&](auto pred) { return std::count_if(p.selected.begin(), p.selected.end(), pred); };
    const auto from_corpus = count_of([](const Case* c) { return c->origin == Origin::corpus; });
    const auto large = count_of([](const Case* c) { return c->origin == Origin::large; });
    out << "running " << p.selected.size() << " cases (" << from_corpus << " from the corpus, "
        << static_cast<long>(p.selected.size()) - from_corpus - large << " derived" << (opt.large ? ", " + std::to_string(large) + " large" : "")
        << ")\n";
    {
        // The first few here; the summary says them again, the JSON has them all.
        const ExpectedFailures& xf = rep.expected_failures;
        std::size_t shown = 0;
        for (const auto& line : xf.unknown)
            if (shown++ < 10)
                out << line << (opt.allow_unknown_expected_failures ? " (allowed: --allow-unknown-expected-failures)\n" : " (fails the run)\n");
        for (const auto& line : xf.notes)
            if (shown++ < 10) out << line << "\n";
        if (shown > 10) out << "... " << shown - 10 << " more lines about the expected-failures list in the summary\n";
    }
    out.flush();

    if (testee->measures_memory()) {
        auto inputs = baseline_inputs(corpus);
        testee->set_baseline_allowance(2 * opt.memory_bound_kb);
        testee->set_baselines(inputs);
        rep.memory_accounting = testee->memory_accounting();
        rep.baseline_allowance_kb = testee->baseline_allowance_kb();
        out << "memory (" << rep.memory_accounting << "): per case, the peak of all the testee started over its baseline on the smallest valid input (";
        bool first = true;
        for (const auto& [op, in] : inputs) {
            if (!testee->supports(op)) continue;
            long kb = testee->baseline_kb(op);
            rep.baseline_kb[op == Op::decode ? "decode" : op == Op::encode ? "encode" : "stream"] = kb;
            out << (first ? "" : ", ") << (op == Op::decode ? "decode " : op == Op::encode ? "encode " : "stream ") << kb / 1024 << " MiB";
            first = false;
        }
        out << "; the part over " << rep.baseline_allowance_kb / 1024 << " MiB is charged to every case); bound "
            << opt.memory_bound_kb / 1024 << " MiB; hard cap " << rep.memory_cap << "\n";
    }
    out << "output: at most 1 MiB + 8 x the expected output + 64 x the input per case\n";
    // The caps' own cases are too large for the corpus (conformance/README.md, "Limits at full size").
    if (!opt.large)
        out << "limits: without --large the token cap (2^25) and the stream body cap (2^30) are met only in small inputs that "
               "declare the cap or one more: a reader with no cap, or with either cap off by one, is caught there only by a wrong "
               "error code (recommended level); --large adds each cap (accepted) and one past it (refused) at full size\n";
    out.flush();

    std::vector<char> asked;
    std::map<std::size_t, std::string> written;
    execute(opt, p, *testee, expected, rep, asked, written, err);
    if (testee->measures_memory()) {  // what the run's processes had, and their largest baselines
        rep.memory_accounting = testee->memory_accounting();
        for (auto& [op, kb] : rep.baseline_kb) kb = std::max(kb, testee->baseline_kb(op == "decode" ? Op::decode : op == "encode" ? Op::encode : Op::stream));
    }
    FuzzReport fuzzed;
    if (opt.fuzz_seconds > 0) {
        FuzzOptions f{opt.fuzz_seconds, opt.fuzz_out, rep.fuzz_seed, std::max(1u, opt.jobs), opt.profile == Profile::spec,
                      p.selected.size()};
        fuzzed = run_fuzz(corpus, *testee, f, out, err);
    }
    settle_late(opt, p, *testee, rep);
    sweep_orphans(0, true);
    const ClassifyOptions copt{opt.profile, opt.memory_bound_kb};
    for (const FuzzFinding& f : fuzzed.findings) rep.results.push_back(classify(f.c, f.answer, copt));
    settle_support(opt, p, *testee, asked, rep);
    apply_expected_failures(expected, rep);
    save_failure_files(opt, p, written, rep);
    count(rep);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();

    text_report(rep, out);
    if (!opt.write_expected_failures.empty()) {
        write_file(opt.write_expected_failures, expected_failures_text(rep));
        out << "wrote " << rep.summary.failed + rep.summary.xfailed << " expected failures to " << opt.write_expected_failures << "\n";
    }
    if (!opt.json.empty()) write_file(opt.json, results_json(rep));
    if (!opt.junit.empty()) write_file(opt.junit, junit_xml(rep));
    if (!opt.html.empty()) write_file(opt.html, html_matrix({rep}));
    out << final_line(rep.summary) << "\n";
    out.flush();
    return rep;
}

}  // namespace ond::conformance
