// The report stage's frame: the checks before a run, the lines printed as it starts, and the
// reports written after it (the formats themselves: report.cpp, report_text.cpp, report_html.cpp).
#include <algorithm>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <system_error>

#include "ond/text_escape.hpp"
#include "report/report.hpp"
#include "suite/plan.hpp"
#include "suite/run_report.hpp"

namespace ond::conformance {

namespace {

// Two options naming one file: the second write would silently replace the first (or the
// expected-failures list read at the start, unless it is rewritten on purpose).
void check_distinct_paths(const ReportInput& opt, const std::string& expected_failures) {
    namespace fs = std::filesystem;
    const std::pair<const char*, const std::string*> paths[] = {
        {"--json", &opt.json}, {"--junit", &opt.junit}, {"--html", &opt.html},
        {"--write-expected-failures", &opt.write_expected_failures}, {"--expected-failures", &expected_failures}};
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

}  // namespace

void check_report_files(const ReportInput& in, const std::string& expected_failures) {
    check_distinct_paths(in, expected_failures);
    // Every file the run will write is checked first: a bad path costs nothing but this line.
    for (const std::string* path : {&in.json, &in.junit, &in.html, &in.write_expected_failures})
        if (!path->empty()) check_writable(*path);
}

std::string saved_cases_dir(const ReportInput& in) {
    const std::string& first = !in.json.empty() ? in.json : !in.junit.empty() ? in.junit : in.html;
    if (first.empty()) return {};
    return std::filesystem::absolute(first).parent_path().string();
}

void print_run_start(const RunReport& rep, const Plan& p, std::ostream& out) {
    const RunSetup& opt = rep.setup;
    out << "ond conform: corpus " << opt.corpus_dir << " (corpus " << rep.corpus_version << ", format " << rep.format_version
        << ", " << rep.corpus_cases << " cases)\n";
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
}

void print_bounds(const RunReport& rep, bool measures_memory, std::ostream& out) {
    const RunSetup& opt = rep.setup;
    if (measures_memory) {
        out << "memory (" << rep.memory_accounting << "): per case, the peak of all the testee started over its baseline on the smallest valid input (";
        bool first = true;
        for (const auto& [op, kb] : rep.baseline_kb) {
            out << (first ? "" : ", ") << op << " " << kb / 1024 << " MiB";
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
               "error code (recommended level), and a writer's token and body caps not at all; --large adds each cap (accepted) and "
               "one past it (refused) at full size, the writer's two caps too (its body cap per case only)\n";
    out.flush();
}

void report(const RunReport& rep, const ReportInput& in, std::ostream& out) {
    text_report(rep, in, out);
    if (!in.write_expected_failures.empty()) {
        write_file(in.write_expected_failures, expected_failures_text(rep));
        out << "wrote " << rep.summary.failed + rep.summary.xfailed << " expected failures to " << in.write_expected_failures << "\n";
    }
    if (!in.json.empty()) write_file(in.json, results_json(rep));
    if (!in.junit.empty()) write_file(in.junit, junit_xml(rep));
    if (!in.html.empty()) write_file(in.html, html_matrix({rep}));
    out << final_line(rep.summary) << "\n";
    out.flush();
}

std::string expected_failures_text(const RunReport& rep) {
    const auto& opt = rep.setup;
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

}  // namespace ond::conformance
