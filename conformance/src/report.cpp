#include "report.hpp"

#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

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

// nlohmann refuses invalid UTF-8 on dump; messages may quote testee bytes.
std::string utf8_safe(const std::string& s) {
    std::string o;
    std::size_t i = 0;
    while (i < s.size()) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = n > 0 && i + n <= s.size();
        for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
        if (ok && c == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0) ok = false;  // a surrogate (WTF-8)
        if (ok) o.append(s, i, n), i += n;
        else o += "\xEF\xBF\xBD", ++i;
    }
    return o;
}

std::string findings_text(const CaseResult& r) {
    std::string t;
    for (const auto& f : r.findings) {
        if (!t.empty()) t += "\n";
        t += std::string(level_name(f.level)) + " [" + f.check + "] " + f.message;
    }
    return t;
}

std::string summary_line(const RunSummary& s) {
    return std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed, " + std::to_string(s.xfailed) +
           " expected failures, " + std::to_string(s.skipped) + " skipped";
}

}  // namespace

std::string results_json(const RunReport& rep) {
    nlohmann::json j;
    j["tool"] = "ond conform";
    j["name"] = rep.options.name.empty() ? rep.testee : rep.options.name;
    j["testee"] = utf8_safe(rep.testee);
    j["profile"] = rep.options.profile;
    j["corpus"] = {{"dir", utf8_safe(rep.options.corpus_dir)}, {"corpus_version", rep.corpus_version}, {"format_version", rep.format_version}};
    j["seed"] = rep.seed;
    j["baseline_rss_kb"] = rep.baseline_rss_kb;
    j["memory_bound_kb"] = rep.options.memory_bound_kb;
    j["seconds"] = rep.seconds;
    const auto& s = rep.summary;
    j["summary"] = {{"passed", s.passed}, {"failed", s.failed}, {"expected_failures", s.xfailed}, {"skipped", s.skipped},
                    {"stale", s.stale}, {"informational", s.info}, {"recommended_pass", s.recommended_pass},
                    {"recommended_fail", s.recommended_fail}, {"corpus_problems", s.corpus_problems},
                    {"uncovered_rules", s.uncovered_rules}, {"ok", s.ok}, {"line", summary_line(s)}};
    nlohmann::json cov = nlohmann::json::array();
    for (const auto& rule : rep.rules) {
        auto it = rep.rule_cases.find(rule.id);
        cov.push_back({{"rule", rule.id}, {"title", utf8_safe(rule.title)}, {"cases", it == rep.rule_cases.end() ? 0 : it->second}});
    }
    j["rule_coverage"] = cov;
    j["stale"] = rep.stale;
    j["corpus_problems"] = nlohmann::json::array();
    for (const auto& p : rep.corpus_problems) j["corpus_problems"].push_back(utf8_safe(p));
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& r : rep.results) {
        nlohmann::json c;
        c["id"] = utf8_safe(r.id);
        c["kind"] = kind_name(r.kind);
        c["area"] = r.area;
        c["verdict"] = verdict_name(r.verdict);
        c["rules"] = r.rules;
        c["origin"] = r.origin;
        if (!r.source.empty()) c["source"] = utf8_safe(r.source);
        c["description"] = utf8_safe(r.description);
        c["status"] = status_name(r.status);
        c["answer"] = r.answer;
        c["expected_error"] = r.expected_error.empty() ? nlohmann::json() : nlohmann::json(r.expected_error);
        c["error"] = r.error_code.empty() ? nlohmann::json() : nlohmann::json(utf8_safe(r.error_code));
        nlohmann::json fs = nlohmann::json::array();
        for (const auto& f : r.findings) fs.push_back({{"level", level_name(f.level)}, {"check", f.check}, {"message", utf8_safe(f.message)}});
        c["findings"] = fs;
        c["ms"] = r.ms;
        if (r.rss_kb) c["rss_kb"] = r.rss_kb;
        cases.push_back(std::move(c));
    }
    j["cases"] = std::move(cases);
    return j.dump(1) + "\n";
}

std::string junit_xml(const RunReport& rep) {
    std::map<std::string, std::vector<const CaseResult*>> by_area;
    for (const auto& r : rep.results) by_area[r.area].push_back(&r);
    std::ostringstream x;
    const auto& s = rep.summary;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites name=\"ond conform\" tests=\"" << rep.results.size() << "\" failures=\"" << s.failed << "\" skipped=\""
      << s.skipped + s.xfailed << "\" time=\"" << rep.seconds << "\">\n";
    for (const auto& [area, list] : by_area) {
        int f = 0, sk = 0;
        double t = 0;
        for (const auto* r : list) {
            f += r->status == Status::fail;
            sk += r->status == Status::skip || r->status == Status::xfail;
            t += r->ms / 1000.0;
        }
        x << " <testsuite name=\"" << xml_escape(area) << "\" tests=\"" << list.size() << "\" failures=\"" << f << "\" skipped=\"" << sk
          << "\" time=\"" << t << "\">\n";
        for (const auto* r : list) {
            x << "  <testcase classname=\"conformance." << xml_escape(area) << "\" name=\"" << xml_escape(utf8_safe(r->id)) << "\" time=\""
              << r->ms / 1000.0 << "\">";
            std::string text = xml_escape(utf8_safe(findings_text(*r)));
            if (r->status == Status::fail) {
                std::string first;
                for (const auto& fd : r->findings)
                    if (fd.level == Level::required) { first = "[" + fd.check + "] " + fd.message; break; }
                x << "<failure message=\"" << xml_escape(utf8_safe(first)) << "\">" << text << "</failure>";
            } else if (r->status == Status::xfail) {
                x << "<skipped message=\"expected failure\"/>";
            } else if (r->status == Status::skip) {
                x << "<skipped message=\"not run\"/>";
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
    for (const auto& r : rep.results) {
        col.cells[r.id] = {status_name(r.status), r.answer, findings_text(r), r.recommended_fail > 0};
        col.rows[r.id] = {r.area, kind_name(r.kind), verdict_name(r.verdict), r.description};
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
        col.rows[id] = {c.value("area", ""), c.value("kind", ""), c.value("verdict", ""), c.value("description", "")};
    }
    return col;
}

std::string html_matrix(const std::vector<MatrixColumn>& columns) {
    // Rows: the union of all case ids, grouped by area (corpus areas first).
    std::map<std::string, std::map<std::string, MatrixColumn::Row>> areas;
    for (const auto& col : columns)
        for (const auto& [id, row] : col.rows) areas[row.area].emplace(id, row);
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
    h << "<h1>ONDC/ONDB conformance results</h1>\n<table>\n<tr><th>implementation</th><th>testee</th><th>result</th></tr>\n";
    for (const auto& c : columns)
        h << "<tr><td>" << xml_escape(utf8_safe(c.name)) << "</td><td>" << xml_escape(utf8_safe(c.testee)) << "</td><td class=\""
          << (c.ok ? "ok" : "bad") << "\">" << (c.ok ? "PASSED: " : "FAILED: ") << xml_escape(c.summary) << "</td></tr>\n";
    h << "</table>\n<p class=\"legend\"><span class=\"pass\">pass</span><span class=\"rec\">pass, recommended finding</span>"
         "<span class=\"fail\">fail</span><span class=\"crash\">crash / time-out</span><span class=\"xfail\">expected failure</span>"
         "<span class=\"stale\">stale expected failure</span><span class=\"info\">implementation-defined, differs</span>"
         "<span class=\"skip\">skipped</span> Hover a cell for its findings.</p>\n";
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto& [area, rows] : areas) {
            bool derived = area.rfind("derived-", 0) == 0 || area.rfind("robustness-", 0) == 0;
            if (derived != (pass == 1)) continue;
            h << "<h2>" << xml_escape(area) << " (" << rows.size() << " cases)</h2>\n<table>\n<tr><th>case</th><th>kind</th><th>verdict</th>";
            for (const auto& c : columns) h << "<th>" << xml_escape(utf8_safe(c.name)) << "</th>";
            h << "<th>description</th></tr>\n";
            for (const auto& [id, row] : rows) {
                h << "<tr><td class=\"id\">" << xml_escape(utf8_safe(id)) << "</td><td>" << xml_escape(row.kind) << "</td><td>"
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
                    h << "<td class=\"c " << cls << "\" title=\"" << xml_escape(utf8_safe(cell.tooltip.empty() ? cell.status : cell.tooltip))
                      << "\">" << xml_escape(label) << "</td>";
                }
                h << "<td class=\"d\">" << xml_escape(utf8_safe(row.description)) << "</td></tr>\n";
            }
            h << "</table>\n";
        }
    }
    h << "</body></html>\n";
    return h.str();
}

}  // namespace ond::conformance
