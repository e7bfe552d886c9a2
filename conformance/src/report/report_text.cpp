// The text report: what a person reads at the end of a run, ending with the commands that
// reproduce the first few failures by hand.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

#include "ond/text_escape.hpp"
#include "report/report.hpp"
#include "suite/run_report.hpp"

namespace ond::conformance {

namespace {


}  // namespace

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

std::string finding_text(const Finding& f) {
    const std::string where = rule_and_field(f);
    return "[" + std::string(check_name(f.check)) + "] " + safe_message(f.message) + (where.empty() ? "" : " (" + safe(where) + ")");
}

std::string memory_line(const RunReport& rep) {
    if (rep.memory_accounting.empty()) return {};
    std::string line = rep.memory_accounting + "; baselines";
    bool first = true;
    for (const auto& [op, kb] : rep.baseline_kb) line += (first ? " " : ", ") + op + " " + std::to_string(kb / 1024) + " MiB", first = false;
    if (first) line += " none";
    if (rep.baseline_allowance_kb > 0) line += " (over " + std::to_string(rep.baseline_allowance_kb / 1024) + " MiB charged to every case)";
    return line;
}

std::string summary_line(const RunSummary& s) {
    return std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed, " + std::to_string(s.xfailed) +
           " expected failures, " + std::to_string(s.skipped) + " skipped, " + std::to_string(s.info) + " informational, " +
           std::to_string(s.not_run) + " not run";
}

std::string final_line(const RunSummary& s) { return (s.ok ? "CONFORMANCE PASSED: " : "CONFORMANCE FAILED: ") + summary_line(s); }

// ---- text ---------------------------------------------------------------------------------

namespace {

void print_table(std::ostream& out, const RunReport& rep) {
    struct AreaRow { int cases = 0, pass = 0, fail = 0, xfail = 0, rpass = 0, rfail = 0, skip = 0, info = 0, not_run = 0; bool derived = false; };
    std::map<std::string, AreaRow> rows;
    AreaRow total;
    for (const auto& r : rep.results) {
        rows[r.area].derived = r.origin != Origin::corpus;
        for (AreaRow* row : {&rows[r.area], &total}) {
            row->cases++;
            if (r.status == Status::pass || r.status == Status::stale) row->pass++;
            if (r.status == Status::fail) row->fail++;
            if (r.status == Status::xfail) row->xfail++;
            if (r.status == Status::skip) row->skip++;
            if (r.status == Status::info) row->info++;
            if (r.status == Status::not_run) row->not_run++;
            row->rpass += r.recommended_pass;
            row->rfail += r.recommended_fail;
        }
    }
    out << "\nSummary by area (required = must; recommended = should, reported apart; info = an implementation-defined case\n"
           "answered otherwise than the reference, as the spec allows):\n";
    out << std::left << std::setw(22) << "area" << std::right << std::setw(7) << "cases" << std::setw(10) << "req.pass"
        << std::setw(10) << "req.fail" << std::setw(7) << "xfail" << std::setw(10) << "rec.pass" << std::setw(10) << "rec.fail"
        << std::setw(9) << "skipped" << std::setw(6) << "info" << std::setw(9) << "not run" << "\n";
    auto line = [&](const std::string& name, const AreaRow& row) {
        out << std::left << std::setw(22) << name << std::right << std::setw(7) << row.cases << std::setw(10) << row.pass
            << std::setw(10) << row.fail << std::setw(7) << row.xfail << std::setw(10) << row.rpass << std::setw(10) << row.rfail
            << std::setw(9) << row.skip << std::setw(6) << row.info << std::setw(9) << row.not_run << "\n";
    };
    for (int pass = 0; pass < 2; ++pass)  // corpus areas first, then the derived ones
        for (const auto& [name, row] : rows)
            if (row.derived == (pass == 1)) line(name, row);
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

std::string quoted_argv(const std::vector<std::string>& argv) {
    std::string s;
    for (const auto& a : argv) s += (s.empty() ? "" : " ") + shell_quote(a);
    return s;
}

// `ond conform` as this run was invoked, narrowed to one case: the options that choose other
// cases or write reports are left out; the seed is pinned whenever it matters.
std::string rerun_command(const RunReport& rep, const ReportInput& in, const CaseResult& r) {
    static const std::set<std::string> dropped = {"--filter", "--skip", "--json", "--junit", "--html", "--expected-failures",
                                                  "--write-expected-failures", "--seed"};
    const auto& argv = in.argv;
    std::string cmd = in.shell_env + in.shell_ond;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        const auto eq = arg.find('=');
        if (dropped.count(arg.substr(0, eq))) {
            if (eq == std::string::npos) ++i;  // its value
            continue;
        }
        cmd += " " + shell_quote(arg);
    }
    if (r.origin != Origin::corpus || rep.seed_origin != "default") cmd += " --seed " + std::to_string(rep.seed);
    return cmd + " --filter " + shell_quote(r.id);
}

std::string first_required(const CaseResult& r) {
    for (const auto& f : r.findings)
        if (f.level == Level::required) {
            // The rule and field stay whole: a long message is cut before them.
            const std::string where = rule_and_field(f);
            std::string m = "[" + std::string(check_name(f.check)) + "] " + f.message;
            if (m.size() > 200) m = m.substr(0, 197) + "...";
            return where.empty() ? m : m + " (" + where + ")";
        }
    return {};
}

// For the first few failures: the case's file, the testee's command as it was run on it, its
// listing (`ond inspect`) and the `ond conform` line that runs that case alone.
void print_reproduce(std::ostream& out, const RunReport& rep, const ReportInput& in) {
    constexpr std::size_t shown = 3;
    std::vector<const CaseResult*> failing;
    for (const auto& r : rep.results)
        if (r.status == Status::fail) failing.push_back(&r);
    if (failing.empty()) return;
    const auto& opt = rep.setup;
    if (failing.size() == 1) out << "\nTo reproduce the failure:\n";
    else
        out << "\nTo reproduce the first " << std::min(shown, failing.size()) << " of " << failing.size() << " failures:\n";
    auto line = [&](const std::string& label, const std::string& text) {
        out << "    " << std::left << std::setw(9) << label << (label.size() >= 9 ? " " : "") << text << "\n";
    };
    for (std::size_t k = 0; k < failing.size() && k < shown; ++k) {
        const CaseResult& r = *failing[k];
        const std::string file = shell_quote((std::filesystem::path(opt.corpus_dir) / r.input_path).string());
        const std::string inspect = in.shell_ond + (r.kind == CaseKind::stream ? " inspect --stream " : " inspect ");
        out << "  " << r.id << "  " << safe(first_required(r)) << "\n";
        auto saved_file = [&](const char* label) {
            for (const auto& [l, path] : r.saved)
                if (l == label) return shell_quote(path);
            return std::string();
        };
        const std::string argv_of_kind =
            rep.commands.count(r.kind) ? quoted_argv(rep.commands.at(r.kind)) : in.shell_ond + " " + kind_name(r.kind);
        // A persistent adapter reads frames, not a file: the rerun line sends it the case alone.
        auto run_line = [&](const std::string& bytes, const char* what) {
            if (opt.persistent)
                line("testee:", argv_of_kind + "  (persistent: it got " + what + " as one request; rerun sends it alone)");
            else
                line("run:", in.shell_env + argv_of_kind + " < " + bytes);
        };
        if (r.origin == Origin::large) {
            line("input:", safe(r.description) + " (made by the runner piece by piece; too large to save: rerun makes it again)");
            if (!saved_file("recipe").empty()) line("recipe:", saved_file("recipe"));
        } else if (r.origin == Origin::fuzz) {
            line("file:", shell_quote(r.input_path) + "  (saved by --fuzz, with its .meta.json)");
            run_line(shell_quote(r.input_path), "this file");
        } else if (r.origin != Origin::corpus) {
            const std::string bytes = saved_file("input");
            if (!bytes.empty()) {
                line("bytes:", bytes + "  (this case's input, saved next to the reports; derived from " + r.source + ")");
                run_line(bytes, "these bytes");
            } else {
                line("bytes:", "not saved (give --json, --junit or --html: the failing cases' bytes are written next to them)");
            }
            line("source:", file + "  (" + r.source + "; this case's bytes are derived from it at run time: rerun replays them)");
            line("inspect:", inspect + (bytes.empty() ? file : bytes));
        } else {
            auto it = rep.commands.find(r.kind);
            const std::string argv = it == rep.commands.end() ? std::string() : quoted_argv(it->second);
            line("file:", file);
            if (opt.persistent) line("testee:", argv + "  (persistent: it got this file as one request; rerun sends it alone)");
            else if (argv.empty()) line("run:", in.shell_ond + " " + kind_name(r.kind) + " < " + file);
            else line("run:", in.shell_env + argv + " < " + file + (r.kind == CaseKind::encode ? " | " + in.shell_ond + " inspect" : ""));
            if (r.kind != CaseKind::encode) line("inspect:", inspect + file);
            else if (!r.expected_path.empty())
                line("inspect:", in.shell_ond + " inspect " + shell_quote((std::filesystem::path(opt.corpus_dir) / r.expected_path).string()) +
                                     "  (the expected bytes)");
            if (!saved_file("written").empty())
                line("written:", saved_file("written") + "  (what the encoder wrote" +
                                     (r.kind == CaseKind::encode ? std::string() : " on the round trip") + "; compare with `" +
                                     in.shell_ond + " inspect` of it)");
            if (!saved_file("expected").empty())
                line("expected:", saved_file("expected") + "  (the canonical bytes it should have written)");
        }
        line("rerun:", rerun_command(rep, in, r));
    }
}

void print_findings(std::ostream& out, const RunReport& rep, Status status, Level level, const char* tag) {
    for (const auto& r : rep.results)
        if (r.status == status)
            for (const auto& f : r.findings)
                if (f.level == level) out << "  " << tag << " " << r.id << " " << finding_text(f) << "\n";
}

}  // namespace

void text_report(const RunReport& rep, const ReportInput& in, std::ostream& out) {
    const auto& s = rep.summary;
    const auto& opt = rep.setup;
    if (s.failed) out << "\nFailures (required):\n";
    print_findings(out, rep, Status::fail, Level::required, "FAIL");
    if (s.xfailed) {
        out << "\nExpected failures (listed in " << opt.expected_failures << "):\n";
        for (const auto& r : rep.results)
            if (r.status == Status::xfail)
                out << "  XFAIL " << r.id << (r.xfail_reason.empty() ? "" : "  # " + safe(r.xfail_reason)) << "\n";
    }
    if (s.recommended_fail) {
        out << "\nRecommended-level findings (do not fail the run):\n";
        int shown = 0;
        for (const auto& r : rep.results)
            for (const auto& f : r.findings)
                if (f.level == Level::recommended && (in.verbose || shown++ < 50))
                    out << "  WARN " << r.id << " " << finding_text(f) << "\n";
        if (!in.verbose && shown > 50) out << "  ... " << shown - 50 << " more (--verbose, or see --json)\n";
    }
    if (s.info) {
        out << "\nImplementation-defined cases answered otherwise than the reference, as the spec allows: " << s.info << "\n";
        if (in.verbose) print_findings(out, rep, Status::info, Level::info, "INFO");
    }
    if (rep.stopped_early)
        out << "\nSTOPPED after " << opt.max_consecutive_failures << " crashes, time-outs or protocol errors in a row "
            << "(--max-consecutive-failures): " << s.not_run << " cases not run\n";
    print_table(out, rep);
    print_coverage(out, rep);
    for (const auto& [op, why] : rep.not_tested)
        out << "\nNOT TESTED: " << op << " (" << why << ")" << (op == "decode" ? ": a run that checks no decode case fails" : "")
            << "\n";
    if (!rep.corpus_problems.empty()) {
        out << "\nCorpus problems (each fails the run):\n";
        for (const auto& p : rep.corpus_problems) out << "  " << safe(p) << "\n";
    }
    const ExpectedFailures& listed = rep.expected_failures;
    if (!listed.notes.empty() || !listed.unknown.empty()) {
        out << "\nExpected-failures list " << safe(opt.expected_failures) << ":\n";
        std::size_t shown = 0;
        for (const auto* lines : {&listed.unknown, &listed.notes})
            for (const auto& line : *lines)
                if (in.verbose || shown++ < 50) out << "  " << line << "\n";
        if (!in.verbose && shown > 50) out << "  ... " << shown - 50 << " more (--verbose, or see --json)\n";
        if (!listed.unknown.empty())
            out << "  " << (opt.allow_unknown_expected_failures ? "allowed by --allow-unknown-expected-failures"
                                                                 : "an entry that matches no case fails the run (--allow-unknown-expected-failures: a warning)")
                << "\n";
    }
    if (!rep.stale.empty()) {
        out << "\nStale expected failures (listed, but these cases now pass):\n";
        for (const auto& id : rep.stale) out << "  STALE " << id << "\n";
    }
    if (!rep.stale.empty() || !listed.unknown.empty() || (s.failed && !opt.expected_failures.empty())) {
        std::string cmd = in.shell_env + in.shell_ond;
        for (std::size_t i = 0; i < in.argv.size(); ++i) {
            if (in.argv[i] == "--write-expected-failures") {
                ++i;
                continue;
            }
            if (in.argv[i].rfind("--write-expected-failures=", 0) == 0) continue;
            cmd += " " + shell_quote(in.argv[i]);
        }
        std::string file = opt.expected_failures.empty() ? "expected-failures.txt" : opt.expected_failures;
        cmd += " --write-expected-failures " + shell_quote(file);
        out << "To rewrite the expected-failures list from this run:\n  " << cmd << "\n";
    }
    out << "\n" << s.recommended_fail << " recommended-level findings; " << s.stale << " stale expected failures; "
        << s.uncovered_rules << " rules without a case" << (opt.require_rule_coverage ? " (required)" : "") << "; seed " << rep.seed
        << "; " << std::fixed << std::setprecision(1) << rep.seconds << " s\n";
    if (!rep.memory_accounting.empty()) out << "memory: " << memory_line(rep) << "\n";
    print_reproduce(out, rep, in);
}

}  // namespace ond::conformance
