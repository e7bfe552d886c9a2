#include "report.hpp"

#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "escape.hpp"
#include "runner.hpp"

namespace ond::conformance {

namespace {

std::string xml_escape(std::string_view s) {
    std::string o;
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '\'': o += "&#39;"; break;
            default:
                if (c < 0x20 && ch != '\n' && ch != '\t') o += "?";  // not allowed in XML 1.0
                else o += ch;
        }
    }
    return o;
}

// Valid UTF-8 without control characters (but newlines and tabs): what every format can hold.
// Testee bytes were escaped losslessly by the classifier already; this is idempotent on them.
std::string safe(const std::string& s) { return escape_text(s, false, true); }

std::string findings_text(const CaseResult& r) {
    std::string t;
    for (const auto& f : r.findings) {
        if (!t.empty()) t += "\n";
        t += std::string(level_name(f.level)) + " [" + check_name(f.check) + "] " + f.message;
    }
    return t;
}

}  // namespace

std::string summary_line(const RunSummary& s) {
    return std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed, " + std::to_string(s.xfailed) +
           " expected failures, " + std::to_string(s.skipped) + " skipped, " + std::to_string(s.info) + " informational, " +
           std::to_string(s.not_run) + " not run";
}

std::string final_line(const RunSummary& s) { return (s.ok ? "CONFORMANCE PASSED: " : "CONFORMANCE FAILED: ") + summary_line(s); }

std::string results_json(const RunReport& rep) {
    nlohmann::json j;
    j["tool"] = "ond conform";
    j["name"] = rep.options.name.empty() ? rep.testee : rep.options.name;
    j["testee"] = safe(rep.testee);
    j["profile"] = profile_name(rep.options.profile);
    j["corpus"] = {{"dir", safe(rep.options.corpus_dir)}, {"corpus_version", rep.corpus_version}, {"format_version", rep.format_version}};
    j["seed"] = rep.seed;
    j["seed_origin"] = rep.seed_origin;
    j["baseline_kb"] = rep.baseline_kb;
    j["baseline_rss_kb"] = rep.baseline_kb.count("decode") ? rep.baseline_kb.at("decode") : 0;
    j["memory_bound_kb"] = rep.options.memory_bound_kb;
    j["memory_cap"] = rep.memory_cap;
    j["output_limit"] = "1 MiB + 8 x the expected output + 64 x the input";
    j["stopped_early"] = rep.stopped_early;
    j["seconds"] = rep.seconds;
    const auto& s = rep.summary;
    j["summary"] = {{"passed", s.passed}, {"failed", s.failed}, {"expected_failures", s.xfailed}, {"skipped", s.skipped},
                    {"stale", s.stale}, {"informational", s.info}, {"not_run", s.not_run}, {"recommended_pass", s.recommended_pass},
                    {"recommended_fail", s.recommended_fail}, {"corpus_problems", s.corpus_problems},
                    {"uncovered_rules", s.uncovered_rules}, {"ok", s.ok}, {"line", summary_line(s)}};
    nlohmann::json cov = nlohmann::json::array();
    for (const auto& rule : rep.rules) {
        auto it = rep.rule_cases.find(rule.id);
        cov.push_back({{"rule", rule.id}, {"title", safe(rule.title)}, {"cases", it == rep.rule_cases.end() ? 0 : it->second}});
    }
    j["rule_coverage"] = cov;
    j["stale"] = rep.stale;
    j["corpus_problems"] = nlohmann::json::array();
    for (const auto& p : rep.corpus_problems) j["corpus_problems"].push_back(safe(p));
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& r : rep.results) {
        nlohmann::json c;
        c["id"] = safe(r.id);
        c["kind"] = kind_name(r.kind);
        c["area"] = r.area;
        c["verdict"] = verdict_name(r.verdict);
        c["rules"] = r.rules;
        c["origin"] = origin_name(r.origin);
        if (!r.source.empty()) c["source"] = safe(r.source);
        c["description"] = safe(r.description);
        c["status"] = status_name(r.status);
        c["answer"] = answer_name(r.answer);
        if (!r.xfail_reason.empty()) c["xfail_reason"] = safe(r.xfail_reason);
        c["expected_error"] = r.expected_error.empty() ? nlohmann::json() : nlohmann::json(r.expected_error);
        c["error"] = r.error_code.empty() ? nlohmann::json() : nlohmann::json(safe(r.error_code));
        nlohmann::json fs = nlohmann::json::array();
        for (const auto& f : r.findings)
            fs.push_back({{"level", level_name(f.level)}, {"check", check_name(f.check)}, {"message", safe(f.message)}});
        c["findings"] = fs;
        c["ms"] = r.ms;
        c["output_limit"] = r.output_limit;
        if (r.peak_kb) c["rss_kb"] = r.peak_kb, c["growth_kb"] = r.growth_kb;
        cases.push_back(std::move(c));
    }
    j["cases"] = std::move(cases);
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string junit_xml(const RunReport& rep) {
    std::map<std::string, std::vector<const CaseResult*>> by_area;
    for (const auto& r : rep.results) by_area[r.area].push_back(&r);
    std::ostringstream x;
    const auto& s = rep.summary;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites name=\"ond conform\" tests=\"" << rep.results.size() << "\" failures=\"" << s.failed << "\" skipped=\""
      << s.skipped + s.xfailed + s.not_run << "\" time=\"" << rep.seconds << "\">\n";
    x << " <properties><property name=\"seed\" value=\"" << rep.seed << "\"/><property name=\"profile\" value=\""
      << profile_name(rep.options.profile) << "\"/><property name=\"testee\" value=\"" << xml_escape(safe(rep.testee))
      << "\"/></properties>\n";
    for (const auto& [area, list] : by_area) {
        int f = 0, sk = 0;
        double t = 0;
        for (const auto* r : list) {
            f += r->status == Status::fail;
            sk += r->status == Status::skip || r->status == Status::xfail || r->status == Status::not_run;
            t += r->ms / 1000.0;
        }
        x << " <testsuite name=\"" << xml_escape(area) << "\" tests=\"" << list.size() << "\" failures=\"" << f << "\" skipped=\"" << sk
          << "\" time=\"" << t << "\">\n";
        for (const auto* r : list) {
            x << "  <testcase classname=\"conformance." << xml_escape(area) << "\" name=\"" << xml_escape(safe(r->id)) << "\" time=\""
              << r->ms / 1000.0 << "\">";
            std::string text = xml_escape(safe(findings_text(*r)));
            if (r->status == Status::fail) {
                std::string first;
                for (const auto& fd : r->findings)
                    if (fd.level == Level::required) {
                        first = "[" + std::string(check_name(fd.check)) + "] " + fd.message;
                        break;
                    }
                x << "<failure message=\"" << xml_escape(safe(first)) << "\">" << text << "</failure>";
            } else if (r->status == Status::xfail) {
                x << "<skipped message=\"expected failure\"/>";
            } else if (r->status == Status::skip) {
                x << "<skipped message=\"skipped\"/>";
            } else if (r->status == Status::not_run) {
                x << "<skipped message=\"not run: the run stopped first\"/>";
            }
            if (!r->findings.empty() && r->status != Status::fail) x << "<system-out>" << text << "</system-out>";
            x << "</testcase>\n";
        }
        x << " </testsuite>\n";
    }
    x << "</testsuites>\n";
    return x.str();
}

MatrixColumn column_from_report(const RunReport& rep) {
    MatrixColumn col;
    col.name = rep.options.name.empty() ? rep.testee : rep.options.name;
    col.testee = rep.testee;
    col.summary = summary_line(rep.summary);
    col.ok = rep.summary.ok;
    col.seed = std::to_string(rep.seed);
    col.profile = profile_name(rep.options.profile);
    for (const auto& r : rep.results) {
        col.cells[r.id] = {status_name(r.status), answer_name(r.answer), findings_text(r), r.recommended_fail > 0};
        col.rows[r.id] = {r.area, kind_name(r.kind), verdict_name(r.verdict), r.description, r.origin != Origin::corpus};
    }
    return col;
}

MatrixColumn column_from_json_file(const std::string& path) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    if (!j.contains("cases") || !j.contains("summary")) throw std::runtime_error(path + ": not a result file of ond conform --json");
    MatrixColumn col;
    col.name = j.value("name", path);
    col.testee = j.value("testee", "");
    col.summary = j["summary"].value("line", "");
    col.ok = j["summary"].value("ok", false);
    col.seed = j.contains("seed") ? j["seed"].dump() : "";
    col.profile = j.value("profile", "");
    for (const auto& c : j["cases"]) {
        std::string id = c.value("id", "");
        std::string tip;
        bool rec = false;
        for (const auto& f : c["findings"]) {
            if (!tip.empty()) tip += "\n";
            tip += f.value("level", "") + " [" + f.value("check", "") + "] " + f.value("message", "");
            rec = rec || f.value("level", "") == "recommended";
        }
        col.cells[id] = {c.value("status", ""), c.value("answer", ""), tip, rec};
        col.rows[id] = {c.value("area", ""), c.value("kind", ""), c.value("verdict", ""), c.value("description", ""),
                        c.value("origin", "corpus") != "corpus"};
    }
    return col;
}

std::string html_matrix(const std::vector<MatrixColumn>& columns) {
    // Rows: the union of all case ids, grouped by area (corpus areas first).
    std::map<std::string, std::map<std::string, MatrixColumn::Row>> areas;
    std::map<std::string, bool> derived_area;
    for (const auto& col : columns)
        for (const auto& [id, row] : col.rows) areas[row.area].emplace(id, row), derived_area[row.area] = row.derived;
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>ONDC/ONDB conformance</title>\n<style>\n"
         "body{font:13px/1.35 system-ui,sans-serif;margin:1.5em;color:#222}\n"
         "h1{font-size:20px;margin:0 0 .4em}h2{font-size:15px;margin:1.4em 0 .3em}\n"
         "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\n"
         "th{background:#f2f2f2;position:sticky;top:0}td.id{font-family:monospace;white-space:nowrap}\n"
         "td.c{text-align:center;min-width:7em;font-family:monospace}\n"
         ".pass{background:#6c6}.fail{background:#e55;color:#fff}.crash,.timeout{background:#800;color:#fff}\n"
         ".xfail{background:#f93}.stale{background:#9cf}.skip{background:#eee;color:#888}.info{background:#ccf}\n"
         ".rec{background:#ee6}.ok{color:#070;font-weight:bold}.bad{color:#b00;font-weight:bold}\n"
         ".legend span{display:inline-block;padding:1px 8px;margin-right:4px;border:1px solid #ccc}\n"
         "td.d{color:#555;max-width:40em}\n</style></head><body>\n";
    h << "<h1>ONDC/ONDB conformance results</h1>\n<table>\n<tr><th>implementation</th><th>testee</th><th>profile</th><th>seed</th><th>result</th></tr>\n";
    for (const auto& c : columns)
        h << "<tr><td>" << xml_escape(safe(c.name)) << "</td><td>" << xml_escape(safe(c.testee)) << "</td><td>" << xml_escape(c.profile)
          << "</td><td>" << xml_escape(safe(c.seed)) << "</td><td class=\""
          << (c.ok ? "ok" : "bad") << "\">" << (c.ok ? "PASSED: " : "FAILED: ") << xml_escape(c.summary) << "</td></tr>\n";
    h << "</table>\n<p class=\"legend\"><span class=\"pass\">pass</span><span class=\"rec\">pass, recommended finding</span>"
         "<span class=\"fail\">fail</span><span class=\"crash\">crash / time-out</span><span class=\"xfail\">expected failure</span>"
         "<span class=\"stale\">stale expected failure</span><span class=\"info\">implementation-defined, differs</span>"
         "<span class=\"skip\">skipped</span> Hover a cell for its findings.</p>\n";
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto& [area, rows] : areas) {
            if (derived_area[area] != (pass == 1)) continue;
            h << "<h2>" << xml_escape(area) << " (" << rows.size() << " cases)</h2>\n<table>\n<tr><th>case</th><th>kind</th><th>verdict</th>";
            for (const auto& c : columns) h << "<th>" << xml_escape(safe(c.name)) << "</th>";
            h << "<th>description</th></tr>\n";
            for (const auto& [id, row] : rows) {
                h << "<tr><td class=\"id\">" << xml_escape(safe(id)) << "</td><td>" << xml_escape(row.kind) << "</td><td>"
                  << xml_escape(row.verdict) << "</td>";
                for (const auto& c : columns) {
                    auto it = c.cells.find(id);
                    if (it == c.cells.end()) {
                        h << "<td class=\"c skip\">-</td>";
                        continue;
                    }
                    const auto& cell = it->second;
                    std::string cls = cell.status;
                    if (cell.status == "fail" && (cell.answer == "crash" || cell.answer == "timeout")) cls = "crash";
                    if (cell.status == "pass" && cell.recommended) cls = "rec";
                    std::string label = cell.status == "skip" ? "skip" : cell.answer;
                    h << "<td class=\"c " << cls << "\" title=\"" << xml_escape(safe(cell.tooltip.empty() ? cell.status : cell.tooltip))
                      << "\">" << xml_escape(label) << "</td>";
                }
                h << "<td class=\"d\">" << xml_escape(safe(row.description)) << "</td></tr>\n";
            }
            h << "</table>\n";
        }
    }
    h << "</body></html>\n";
    return h.str();
}

// ---- text ---------------------------------------------------------------------------------

namespace {

void print_table(std::ostream& out, const RunReport& rep) {
    struct Row { int cases = 0, pass = 0, fail = 0, xfail = 0, rpass = 0, rfail = 0, skip = 0, info = 0, not_run = 0; bool derived = false; };
    std::map<std::string, Row> rows;
    Row total;
    for (const auto& r : rep.results) {
        rows[r.area].derived = r.origin != Origin::corpus;
        for (Row* row : {&rows[r.area], &total}) {
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
    auto line = [&](const std::string& name, const Row& row) {
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

void print_findings(std::ostream& out, const RunReport& rep, Status status, Level level, const char* tag) {
    for (const auto& r : rep.results)
        if (r.status == status)
            for (const auto& f : r.findings)
                if (f.level == level) out << "  " << tag << " " << r.id << " [" << check_name(f.check) << "] " << f.message << "\n";
}

}  // namespace

void text_report(const RunReport& rep, std::ostream& out) {
    const auto& s = rep.summary;
    const auto& opt = rep.options;
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
                if (f.level == Level::recommended && (opt.verbose || shown++ < 50))
                    out << "  WARN " << r.id << " [" << check_name(f.check) << "] " << f.message << "\n";
        if (!opt.verbose && shown > 50) out << "  ... " << shown - 50 << " more (--verbose, or see --json)\n";
    }
    if (s.info) {
        out << "\nImplementation-defined cases answered otherwise than the reference, as the spec allows: " << s.info << "\n";
        if (opt.verbose) print_findings(out, rep, Status::info, Level::info, "INFO");
    }
    if (rep.stopped_early)
        out << "\nSTOPPED after " << opt.max_consecutive_failures << " crashes, time-outs or protocol errors in a row "
            << "(--max-consecutive-failures): " << s.not_run << " cases not run\n";
    print_table(out, rep);
    print_coverage(out, rep);
    if (!rep.corpus_problems.empty()) {
        out << "\nCorpus problems (each fails the run):\n";
        for (const auto& p : rep.corpus_problems) out << "  " << safe(p) << "\n";
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
    out << "\n" << s.recommended_fail << " recommended-level findings; " << s.stale << " stale expected failures; "
        << s.uncovered_rules << " rules without a case" << (opt.require_rule_coverage ? " (required)" : "") << "; seed " << rep.seed
        << "; " << std::fixed << std::setprecision(1) << rep.seconds << " s\n";
}

}  // namespace ond::conformance
