#include "runner.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "derive.hpp"
#include "ond/content_json.hpp"
#include "report.hpp"
#include "writer_check.hpp"

namespace ond::conformance {

const char* level_name(Level l) noexcept {
    switch (l) {
        case Level::required: return "required";
        case Level::recommended: return "recommended";
        case Level::info: return "info";
    }
    return "?";
}

const char* status_name(Status s) noexcept {
    switch (s) {
        case Status::pass: return "pass";
        case Status::fail: return "fail";
        case Status::xfail: return "xfail";
        case Status::stale: return "stale";
        case Status::skip: return "skip";
        case Status::info: return "info";
    }
    return "?";
}

bool CaseResult::required_failed() const {
    return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.level == Level::required; });
}

namespace {

std::vector<std::string> split_lines(std::string_view s) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        auto nl = s.find('\n', pos);
        std::string_view line = s.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.empty()) out.emplace_back(line);
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    return out;
}

std::string mib(long kb) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << static_cast<double>(kb) / 1024.0 << " MiB";
    return s.str();
}

std::string shell_quote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos)
        return s;
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') q += "'\\''";
        else q += c;
    }
    return q + "'";
}

}  // namespace

CaseResult check_case(const Case& c, const Outcome& o, const Options& opt, long baseline_rss_kb, bool measures_memory) {
    CaseResult r;
    r.id = c.id, r.area = c.area, r.origin = c.origin, r.source = c.source, r.description = c.description;
    r.input_path = c.input_path, r.expected_error = c.error, r.kind = c.kind, r.verdict = c.verdict, r.rules = c.rules;
    r.answer = status_name(o.status);
    r.error_code = o.code;
    r.rss_kb = o.rss_kb;
    r.ms = o.ms;

    const bool spec_info = opt.profile == "spec" && c.verdict == Verdict::impl;
    // Verdict and content findings of implementation-defined cases are informational under `spec`.
    auto required = [&](const std::string& check, const std::string& msg) {
        r.findings.push_back({spec_info ? Level::info : Level::required, check, msg});
    };
    auto always_required = [&](const std::string& check, const std::string& msg) {
        r.findings.push_back({Level::required, check, msg});
    };
    auto reason = [&]() {
        if (!c.check_reason || c.error.empty() || o.code.empty()) return;
        if (o.code == c.error) {
            ++r.recommended_pass;
        } else {
            ++r.recommended_fail;
            r.findings.push_back({Level::recommended, "reason", "expected error " + c.error + ", got " + o.code});
        }
    };
    auto expected_reject_text = [&]() { return c.error.empty() ? std::string("reject") : "reject (" + c.error + ")"; };
    auto got_reject_text = [&]() { return o.code.empty() ? std::string("reject") : "reject (error: " + o.code + ")"; };

    switch (o.status) {
        case Outcome::Status::unsupported:
            r.status = Status::skip;
            return r;
        case Outcome::Status::start_error: always_required("crash", "could not start the testee: " + o.detail); break;
        case Outcome::Status::crash: always_required("crash", o.detail.empty() ? "crashed" : o.detail); break;
        case Outcome::Status::timeout: always_required("timeout", o.detail); break;
        case Outcome::Status::accept:
        case Outcome::Status::reject: break;
    }

    if (measures_memory && c.check_memory && o.rss_kb > 0 && baseline_rss_kb > 0) {
        r.rss_growth_kb = o.rss_kb - baseline_rss_kb;
        if (r.rss_growth_kb > opt.memory_bound_kb)
            always_required("memory", "peak RSS " + mib(o.rss_kb) + " is " + mib(r.rss_growth_kb) + " over the baseline " +
                                          mib(baseline_rss_kb) + " (bound " + mib(opt.memory_bound_kb) +
                                          "): the testee allocates what the input declares, not what it holds");
    }

    // The testee's output against the case's expected content JSON.
    auto check_decoded_content = [&] {
        try {
            if (auto d = json::compare_content(*c.expected, o.out)) required("content", *d);
        } catch (const json::JsonError& e) {
            always_required("output", std::string("the output is not content JSON: ") + e.what());
        }
    };
    const bool accepted = o.status == Outcome::Status::accept;
    const bool rejected = o.status == Outcome::Status::reject;
    if (accepted || rejected) {
        switch (c.kind) {
            case Kind::decode:
                if (accepted && !c.expect_accept) {
                    required("verdict", "expected " + expected_reject_text() + ", got accept");
                    // A lenient answer to an implementation-defined case still has to be right.
                    if (spec_info && c.expected) check_decoded_content();
                } else if (accepted) {
                    check_decoded_content();
                } else if (c.expect_accept) {
                    required("verdict", "expected accept, got " + got_reject_text());
                } else {
                    reason();
                }
                break;
            case Kind::stream: {
                auto want = split_lines(c.expected.value_or(""));
                auto got = split_lines(o.out);
                bool lines_ok = true;
                for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
                    try {
                        if (auto d = json::compare_content(want[i], got[i])) {
                            required("content", "line " + std::to_string(i + 1) + ": " + *d);
                            lines_ok = false;
                            break;
                        }
                    } catch (const json::JsonError& e) {
                        always_required("output", "line " + std::to_string(i + 1) + " is not content JSON: " + e.what());
                        lines_ok = false;
                        break;
                    }
                }
                if (lines_ok && got.size() != want.size())
                    required("content", "expected " + std::to_string(want.size()) + " JSON lines before the " +
                                            (c.expect_accept ? "end" : "fault") + ", got " + std::to_string(got.size()));
                if (accepted && !c.expect_accept) required("verdict", "expected " + expected_reject_text() + " after " +
                                                                          std::to_string(want.size()) + " containers, got accept");
                else if (rejected && c.expect_accept) required("verdict", "expected accept, got " + got_reject_text());
                else if (rejected) reason();
                break;
            }
            case Kind::encode:
                if (accepted && !c.expect_accept) {
                    required("verdict", "expected the writer to refuse this content" + (c.error.empty() ? std::string() : " (" + c.error + ")") +
                                            ", it wrote " + std::to_string(o.out.size()) + " bytes");
                } else if (accepted) {
                    if (o.out == *c.expected) ++r.recommended_pass;
                    else add_writer_findings(*c.expected, o.out, "canonical-writer", r);  // writer_check.cpp
                } else if (c.expect_accept) {
                    required("verdict", "expected the canonical bytes, the writer refused" +
                                            (o.code.empty() ? std::string() : " (error: " + o.code + ")"));
                } else {
                    reason();
                }
                break;
        }
    }

    if (r.required_failed()) r.status = Status::fail;
    else if (std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.level == Level::info; }))
        r.status = Status::info;
    else r.status = Status::pass;
    return r;
}

std::set<std::string> read_expected_failures(const std::string& path) {
    std::set<std::string> ids;
    std::istringstream in(read_file(path));
    std::string line;
    while (std::getline(in, line)) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        auto b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos) continue;
        auto e = line.find_last_not_of(" \t\r");
        ids.insert(line.substr(b, e - b + 1));
    }
    return ids;
}

namespace {

Op op_of(Kind k) { return k == Kind::decode ? Op::decode : k == Kind::encode ? Op::encode : Op::stream; }

void print_table(std::ostream& out, const RunReport& rep) {
    struct Row { int cases = 0, pass = 0, fail = 0, xfail = 0, rpass = 0, rfail = 0, skip = 0, info = 0; };
    std::map<std::string, Row> rows;
    Row total;
    for (const auto& r : rep.results) {
        for (Row* row : {&rows[r.area], &total}) {
            row->cases++;
            if (r.status == Status::pass || r.status == Status::stale) row->pass++;
            if (r.status == Status::fail) row->fail++;
            if (r.status == Status::xfail) row->xfail++;
            if (r.status == Status::skip) row->skip++;
            if (r.status == Status::info) row->info++;
            row->rpass += r.recommended_pass;
            row->rfail += r.recommended_fail;
        }
    }
    out << "\nSummary by area (required = must; recommended = should, reported apart):\n";
    out << std::left << std::setw(22) << "area" << std::right << std::setw(7) << "cases" << std::setw(10) << "req.pass"
        << std::setw(10) << "req.fail" << std::setw(7) << "xfail" << std::setw(10) << "rec.pass" << std::setw(10) << "rec.fail"
        << std::setw(9) << "skipped" << std::setw(6) << "info" << "\n";
    auto line = [&](const std::string& name, const Row& row) {
        out << std::left << std::setw(22) << name << std::right << std::setw(7) << row.cases << std::setw(10) << row.pass
            << std::setw(10) << row.fail << std::setw(7) << row.xfail << std::setw(10) << row.rpass << std::setw(10) << row.rfail
            << std::setw(9) << row.skip << std::setw(6) << row.info << "\n";
    };
    // Corpus areas first, then the derived ones.
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& [name, row] : rows) {
            bool derived = name.rfind("derived-", 0) == 0 || name.rfind("robustness-", 0) == 0;
            if (derived == (pass == 1)) line(name, row);
        }
    line("total", total);
}

void print_coverage(std::ostream& out, const RunReport& rep) {
    if (rep.rules.empty()) {
        out << "\nRule coverage: no rules.json in the corpus\n";
        return;
    }
    out << "\nRule coverage (corpus cases per rule):\n";
    int col = 0;
    for (const auto& rule : rep.rules) {
        auto it = rep.rule_cases.find(rule.id);
        int n = it == rep.rule_cases.end() ? 0 : it->second;
        std::ostringstream cell;
        cell << std::left << std::setw(5) << rule.id << std::right << std::setw(5) << n << (n == 0 ? " NO CASE" : "");
        out << std::left << std::setw(22) << cell.str();
        if (++col % 4 == 0) out << "\n";
    }
    if (col % 4) out << "\n";
    for (const auto& rule : rep.rules)
        if (!rep.rule_cases.count(rule.id)) out << "  no case exercises " << rule.id << (rule.title.empty() ? "" : ": " + rule.title) << "\n";
}

}  // namespace

RunReport run_conformance(const Options& opt, std::ostream& out, std::ostream& err) {
    auto t_start = std::chrono::steady_clock::now();
    RunReport rep;
    rep.options = opt;
    Corpus corpus = load_corpus(opt.corpus_dir);
    rep.corpus_version = corpus.corpus_version;
    rep.format_version = corpus.format_version;
    rep.rules = corpus.rules;
    rep.corpus_problems = corpus.problems;
    for (const auto& c : corpus.cases)
        for (const auto& rule : c.rules) rep.rule_cases[rule]++;

    std::unique_ptr<Testee> testee;
    if (!opt.persistent.empty()) testee = make_persistent_testee(opt.persistent, std::max(1u, opt.jobs), opt.timeout);
    else if (!opt.decoder.empty() || !opt.encoder.empty() || !opt.stream_decoder.empty())
        testee = make_command_testee(opt.decoder, opt.encoder, opt.stream_decoder, opt.timeout);
    else testee = make_reference_testee();
    rep.testee = testee->describe();

    rep.seed = opt.seed_given ? opt.seed : std::random_device{}() % 1000000000u;
    std::vector<Case> cases = corpus.cases;
    if (opt.derived && opt.max_derived > 0) {
        DeriveOptions d;
        d.max_per_kind = opt.max_derived;
        d.seed = rep.seed;
        d.streams = testee->supports(Op::stream);
        auto more = derive_cases(corpus.cases, d);
        cases.insert(cases.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }

    // Selection.
    std::vector<const Case*> selected;
    for (const auto& c : cases) {
        if (!opt.filters.empty() &&
            std::none_of(opt.filters.begin(), opt.filters.end(), [&](const std::string& g) { return glob_match(g, c.id); }))
            continue;
        selected.push_back(&c);
    }
    out << "ond conform: corpus " << opt.corpus_dir << " (corpus " << corpus.corpus_version << ", format "
        << corpus.format_version << ", " << corpus.cases.size() << " cases)\n";
    out << "testee: " << rep.testee << (opt.name.empty() ? "" : " as '" + opt.name + "'") << "; profile " << opt.profile
        << "; " << opt.jobs << " jobs; time-out " << opt.timeout.count() << " ms\n";
    out << "seed: " << rep.seed << " (replay the derived mutations with --seed " << rep.seed << ")\n";
    out << "running " << selected.size() << " cases (" << selected.size() - std::count_if(selected.begin(), selected.end(), [](const Case* c) {
               return c->origin != "corpus"; })
        << " from the corpus, the rest derived)\n";
    out.flush();

    // Memory baseline per operation: the smallest accepted case, run three times.
    std::map<Op, long> baseline;
    if (testee->measures_memory()) {
        for (Op op : {Op::decode, Op::stream, Op::encode}) {
            if (!testee->supports(op)) continue;
            const Case* smallest = nullptr;
            for (const auto& c : corpus.cases)
                if (op_of(c.kind) == op && c.expect_accept && (!smallest || c.input.size() < smallest->input.size())) smallest = &c;
            if (!smallest) continue;
            long b = 0;
            for (int i = 0; i < 3; ++i) {
                Outcome o = testee->run(op, smallest->input, 0);
                if (o.status == Outcome::Status::accept || o.status == Outcome::Status::reject) b = std::max(b, o.rss_kb);
            }
            baseline[op] = b;
        }
        if (baseline.count(Op::decode)) rep.baseline_rss_kb = baseline[Op::decode];
        out << "memory: baseline peak RSS " << mib(rep.baseline_rss_kb) << "; bound " << mib(opt.memory_bound_kb)
            << " over it for inputs that declare huge lengths\n";
    }

    // Run.
    std::set<std::string> expected;
    if (!opt.expected_failures.empty()) expected = read_expected_failures(opt.expected_failures);
    rep.results.resize(selected.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<int> failing{0};
    auto worker = [&](unsigned w) {
        for (;;) {
            std::size_t i = next.fetch_add(1);
            if (i >= selected.size()) return;
            const Case& c = *selected[i];
            bool skipped = std::any_of(opt.skips.begin(), opt.skips.end(), [&](const std::string& g) { return glob_match(g, c.id); });
            Outcome o;
            if (skipped) o.status = Outcome::Status::unsupported;
            else o = testee->supports(op_of(c.kind)) ? testee->run(op_of(c.kind), c.input, w) : Outcome{Outcome::Status::unsupported, {}, {}, {}, 0, 0};
            auto b = baseline.find(op_of(c.kind));
            CaseResult r = check_case(c, o, opt, b == baseline.end() ? 0 : b->second, testee->measures_memory());
            if (!skipped) check_round_trip(c, o, *testee, w, r);  // writer_check.cpp
            if (r.status == Status::fail && !expected.count(r.id)) failing++;
            rep.results[i] = std::move(r);
            done++;
        }
    };
    std::vector<std::thread> threads;
    unsigned jobs = std::max(1u, opt.jobs);
    for (unsigned w = 0; w < jobs; ++w) threads.emplace_back(worker, w);
    auto last_plain = std::chrono::steady_clock::now();
    bool printed_tty = false;
    while (done.load() < selected.size()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
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

    // Expected failures.
    std::set<std::string> ran;
    for (auto& r : rep.results) {
        ran.insert(r.id);
        bool listed = expected.count(r.id) > 0;
        if (r.status == Status::fail && listed) r.status = Status::xfail;
        else if (listed && (r.status == Status::pass || r.status == Status::info)) {
            r.status = Status::stale;
            rep.stale.push_back(r.id);
        }
    }
    for (const auto& id : expected)
        if (!ran.count(id)) rep.missing_expected.push_back(id);

    // Findings, worst first.
    auto& s = rep.summary;
    int shown_rec = 0;
    for (const auto& r : rep.results) {
        switch (r.status) {
            case Status::pass: s.passed++; break;
            case Status::stale: s.passed++, s.stale++; break;
            case Status::fail: s.failed++; break;
            case Status::xfail: s.xfailed++; break;
            case Status::skip: s.skipped++; break;
            case Status::info: s.passed++, s.info++; break;
        }
        s.recommended_fail += r.recommended_fail;
        s.recommended_pass += r.recommended_pass;
    }
    if (s.failed) out << "\nFailures (required):\n";
    for (const auto& r : rep.results)
        if (r.status == Status::fail)
            for (const auto& f : r.findings)
                if (f.level == Level::required) out << "  FAIL " << r.id << " [" << f.check << "] " << f.message << "\n";
    if (s.xfailed) {
        out << "\nExpected failures (listed in " << opt.expected_failures << "):\n";
        for (const auto& r : rep.results)
            if (r.status == Status::xfail)
                for (const auto& f : r.findings)
                    if (f.level == Level::required) out << "  XFAIL " << r.id << " [" << f.check << "] " << f.message << "\n";
    }
    if (s.recommended_fail) {
        out << "\nRecommended-level findings (do not fail the run):\n";
        for (const auto& r : rep.results)
            for (const auto& f : r.findings)
                if (f.level == Level::recommended && (opt.verbose || shown_rec++ < 50))
                    out << "  WARN " << r.id << " [" << f.check << "] " << f.message << "\n";
        if (!opt.verbose && shown_rec > 50) out << "  ... " << shown_rec - 50 << " more (--verbose, or see --json)\n";
    }
    if (s.info) {
        out << "\nImplementation-defined cases answered otherwise than the reference (informational under --profile spec): "
            << s.info << "\n";
        if (opt.verbose)
            for (const auto& r : rep.results)
                if (r.status == Status::info) out << "  INFO " << r.id << ": " << r.findings.front().message << "\n";
    }
    print_table(out, rep);
    print_coverage(out, rep);
    for (const auto& rule : rep.rules)
        if (!rep.rule_cases.count(rule.id)) s.uncovered_rules++;
    if (!rep.corpus_problems.empty()) {
        out << "\nCorpus problems (each fails the run):\n";
        for (const auto& p : rep.corpus_problems) out << "  " << p << "\n";
    }
    s.corpus_problems = static_cast<int>(rep.corpus_problems.size());

    if (!opt.write_expected_failures.empty()) {
        std::vector<std::string> ids;
        for (const auto& r : rep.results)
            if (r.status == Status::fail || r.status == Status::xfail) ids.push_back(r.id);
        std::sort(ids.begin(), ids.end());
        std::string text = "# Expected failures of '" + (opt.name.empty() ? rep.testee : opt.name) +
                           "' (one case id per line; written by ond conform --write-expected-failures)\n";
        for (const auto& id : ids) text += id + "\n";
        write_file(opt.write_expected_failures, text);
        out << "\nwrote " << ids.size() << " expected failures to " << opt.write_expected_failures << "\n";
    }
    if (!rep.stale.empty()) {
        out << "\nStale expected failures (listed, but these cases now pass):\n";
        for (const auto& id : rep.stale) out << "  STALE " << id << "\n";
    }
    if (!rep.stale.empty() || (s.failed && !opt.expected_failures.empty())) {
        std::string cmd = "ond";
        for (std::size_t i = 0; i < opt.argv.size(); ++i) {
            if (opt.argv[i] == "--write-expected-failures") {
                ++i;
                continue;
            }
            if (opt.argv[i].rfind("--write-expected-failures=", 0) == 0) continue;
            cmd += " " + shell_quote(opt.argv[i]);
        }
        std::string file = opt.expected_failures.empty() ? "expected-failures.txt" : opt.expected_failures;
        cmd += " --write-expected-failures " + shell_quote(file);
        out << "To rewrite the expected-failures list from this run:\n  " << cmd << "\n";
    }

    s.ok = s.failed == 0 && s.corpus_problems == 0 && !(opt.require_rule_coverage && s.uncovered_rules > 0);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();

    if (!opt.json.empty()) write_file(opt.json, results_json(rep));
    if (!opt.junit.empty()) write_file(opt.junit, junit_xml(rep));
    if (!opt.html.empty()) write_file(opt.html, html_matrix({column_from_report(rep)}));

    out << "\n" << s.recommended_fail << " recommended-level findings; " << s.stale << " stale expected failures; "
        << (opt.require_rule_coverage ? std::to_string(s.uncovered_rules) + " rules without a case (required)"
                                      : std::to_string(s.uncovered_rules) + " rules without a case")
        << "; " << std::fixed << std::setprecision(1) << rep.seconds << " s\n";
    out << (s.ok ? "CONFORMANCE PASSED: " : "CONFORMANCE FAILED: ") << s.passed << " passed, " << s.failed << " failed, "
        << s.xfailed << " expected failures, " << s.skipped << " skipped\n";
    out.flush();
    return rep;
}

}  // namespace ond::conformance
