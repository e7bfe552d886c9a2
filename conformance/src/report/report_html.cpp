// The HTML results page: one self-contained file (inline style and script, nothing fetched) that
// merges one or more testees' results. Failures come first, grouped by the rule broken, each with its
// findings in full, what was expected and what came back, and links to the case's files and
// rules; then every case by area, each finding shown in its row. Filters by area, verdict and
// status hide rows in place, so the page stays usable with thousands of cases.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "ond/text_escape.hpp"
#include "report/report.hpp"
#include "suite/run_report.hpp"

namespace ond::conformance {

namespace {


std::string esc(const std::string& s) { return xml_escape(escape_text(s, false, true)); }

// A file: URL of an absolute path (its fragment, after '#', kept as it is).
std::string file_url(const std::string& path) {
    std::string p = path, fragment;
    if (auto hash = p.find('#'); hash != std::string::npos) fragment = p.substr(hash), p.resize(hash);
    std::string u = "file://";
    static const char* hex = "0123456789ABCDEF";
    for (unsigned char c : p) {
        if (std::isalnum(c) || std::string_view("/-._~").find(static_cast<char>(c)) != std::string_view::npos) u += static_cast<char>(c);
        else u += '%', u += hex[c >> 4], u += hex[c & 15];
    }
    return u + fragment;
}

// A path a result file may make a link of: relative, below its base. No scheme (no ':' at all),
// no leading '/' or '\\', no backslash, no ".." step, no control character; else it is shown as
// text. A merged result file is anyone's: `javascript:` or `https:` must not become a link.
bool linkable(std::string_view rel) {
    if (rel.empty() || rel.front() == '/') return false;
    for (char c : rel)
        if (c == ':' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
    for (std::size_t from = 0; from <= rel.size();) {
        std::size_t to = std::min(rel.find('/', from), rel.size());
        if (rel.substr(from, to - from) == "..") return false;
        from = to + 1;
    }
    return true;
}

// Element ids: case ids hold no spaces, but make sure.
std::string anchor(const std::string& prefix, const std::string& id) {
    std::string a = prefix + id;
    for (auto& c : a)
        if (c == ' ' || c == '"' || c == '\'') c = '_';
    return esc(a);
}

// R2 < R10 < W1 < no rule.
bool rule_less(const std::string& a, const std::string& b) {
    auto key = [](const std::string& r) {
        std::size_t digits = r.find_first_of("0123456789");
        int n = digits == std::string::npos ? 0 : std::atoi(r.c_str() + digits);
        return std::make_tuple(r.empty(), r.substr(0, digits), n, r);
    };
    return key(a) < key(b);
}

std::string expected_text(const CaseInfo& row) {
    std::string reject = "reject" + (row.error.empty() ? std::string() : " with error " + row.error);
    bool accepts = row.verdict != CaseVerdict::invalid && row.error.empty();
    std::string accept = row.kind == CaseKind::encode ? "accept: the canonical bytes" : "accept, with the expected content";
    if (row.verdict == CaseVerdict::impl)
        return "implementation-defined: the reference " + (accepts ? std::string("accepts") : reject.replace(0, 6, "rejects")) +
               "; under --profile spec either verdict passes (an acceptance gives the if-accepted content)";
    return accepts ? accept : reject;
}

std::string got_text(const CaseResult& cell) {
    return answer_name(cell.answer) + (cell.error_code.empty() ? "" : " with error " + cell.error_code);
}

bool has_recommended(const CaseResult& cell) { return cell.recommended_fail > 0; }

std::string css_class(const CaseResult& cell) {
    if (cell.status == Status::fail && (cell.answer == Answer::crash || cell.answer == Answer::timeout)) return "crash";
    if (cell.status == Status::pass && has_recommended(cell)) return "rec";
    return status_name(cell.status);
}

// Labels on the page: a derived case's files are those of the corpus case it was made from.
std::vector<std::pair<std::string, std::string>> labelled_files(const CaseInfo& c) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, rel] : case_files(c)) {
        if (rel->empty()) continue;
        const std::string label = std::string_view(key) == "if_accepted" ? "if-accepted" : key;
        out.emplace_back(c.origin == Origin::corpus ? label : "source " + label, *rel);
    }
    return out;
}

// A column of the page: a run, its cases by id.
struct Column {
    const RunReport* run;
    std::string name;
    std::map<std::string, const CaseResult*> cells;
};

class Page {
public:
    explicit Page(const std::vector<RunReport>& runs) {
        for (const auto& run : runs) {
            Column col{&run, run.setup.name.empty() ? run.testee : run.setup.name, {}};
            for (const auto& r : run.results) {
                col.cells.emplace(r.id, &r);
                rows_.emplace(r.id, &r);
            }
            for (const auto& rule : run.rules)
                if (!rules_.count(rule.id) || rules_[rule.id].doc.empty()) rules_[rule.id] = rule;
            if (corpus_.empty() && !run.setup.corpus_dir.empty()) corpus_ = corpus_path(run);
            cols_.push_back(std::move(col));
        }
    }

    std::string render() {
        head();
        implementations();
        filters();
        failures();
        all_cases();
        script();
        h_ << "</body></html>\n";
        return h_.str();
    }

private:
    // Space-separated statuses of a case over the columns, plus "rec" for a recommended finding.
    std::string statuses(const std::string& id) const {
        std::set<std::string> s;
        for (const auto& c : cols_) {
            auto it = c.cells.find(id);
            if (it == c.cells.end()) continue;
            s.insert(status_name(it->second->status));
            if (has_recommended(*it->second)) s.insert("rec");
        }
        std::string out;
        for (const auto& x : s) out += (out.empty() ? "" : " ") + x;
        return out;
    }

    std::string data_attrs(const std::string& id, const CaseInfo& row) const {
        return " data-id=\"" + esc(id) + "\" data-area=\"" + esc(row.area) + "\" data-verdict=\"" + verdict_name(row.verdict) +
               "\" data-status=\"" + esc(statuses(id)) + "\"";
    }

    std::string rule_link(const std::string& rule) const {
        auto it = rules_.find(rule);
        std::string title = it == rules_.end() ? std::string() : it->second.title;
        if (it == rules_.end() || !linkable(it->second.doc) || corpus_.empty())
            return "<span class=\"rule\" title=\"" + esc(title) + "\">" + esc(rule) + "</span>";
        std::string doc = (std::filesystem::path(corpus_).parent_path() / it->second.doc).lexically_normal().string();
        return "<a class=\"rule\" href=\"" + esc(file_url(doc)) + "\">" + esc(rule) + "</a>";
    }

    std::string file_links(const CaseInfo& row) const {
        std::string s;
        for (const auto& [label, rel] : labelled_files(row)) {
            if (!linkable(rel)) {
                s += "<span title=\"not a relative path: no link\">" + esc(label) + "</span> ";
                continue;
            }
            std::string abs = corpus_.empty() ? rel : (std::filesystem::path(corpus_) / rel).lexically_normal().string();
            s += "<a href=\"" + esc(corpus_.empty() ? rel : file_url(abs)) + "\">" + esc(label) + "</a> ";
        }
        return s;
    }

    // A finding: its level and check, the rule it breaks (a link), where, and the message.
    std::string finding_html(const Finding& f) const {
        std::string lvl = f.level == Level::required ? "req" : f.level == Level::recommended ? "recf" : "inf";
        return "<div class=\"fnd " + lvl + "\" data-rule=\"" + esc(f.rule) + "\"><b>" + level_name(f.level) + " [" +
               check_name(f.check) + "]</b>" +
               (f.rule.empty() ? "" : " breaks " + rule_link(f.rule)) +
               (f.field.empty() ? "" : " at <code class=\"path\">" + esc(f.field) + "</code>") + "<div class=\"msg\">" +
               esc(f.message) + "</div></div>";
    }

    void head() {
        h_ << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>ONDC/ONDB conformance</title>\n<style>\n"
              "body{font:13px/1.35 system-ui,sans-serif;margin:1.5em;color:#222}\n"
              "h1{font-size:20px;margin:0 0 .4em}h2{font-size:16px;margin:1.4em 0 .3em}h3{font-size:14px;margin:1em 0 .3em}\n"
              "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\n"
              "th{background:#f2f2f2;position:sticky;top:0}td.id{font-family:monospace;white-space:nowrap}\n"
              "td.c{text-align:center;min-width:6em;font-family:monospace}td.c a{color:inherit}\n"
              ".pass{background:#6c6}.fail{background:#e55;color:#fff}.crash,.timeout{background:#800;color:#fff}\n"
              ".xfail{background:#f93}.stale{background:#9cf}.skip,.not-run{background:#eee;color:#888}.info{background:#ccf}\n"
              ".rec{background:#ee6}.ok{color:#070;font-weight:bold}.bad{color:#b00;font-weight:bold}\n"
              ".legend span{display:inline-block;padding:1px 8px;margin-right:4px;border:1px solid #ccc}\n"
              "td.d{color:#333;max-width:60em}\n"
              "#filters{position:sticky;top:0;z-index:2;background:#fff;padding:.4em 0;border-bottom:1px solid #ccc}\n"
              "#filters label{margin-right:1em}\n"
              ".card{border:1px solid #d99;border-left:5px solid #c33;margin:.5em 0;padding:.4em .7em;max-width:75em}\n"
              ".card .cid{font-family:monospace;font-weight:bold}.card dl{display:grid;grid-template-columns:7em auto;margin:.3em 0}\n"
              ".card dt{color:#666}.card dd{margin:0}\n"
              ".fnd{margin:.2em 0}.fnd .msg{font-family:monospace;white-space:pre-wrap;word-break:break-word}\n"
              ".fnd.req b{color:#b00}.fnd.recf b{color:#960}.fnd.inf b{color:#44a}code.path{background:#fee;padding:0 3px}\n"
              "</style></head><body>\n";
    }

    void implementations() {
        h_ << "<h1>ONDC/ONDB conformance results</h1>\n<table>\n<tr><th>implementation</th><th>testee</th><th>profile</th>"
              "<th>seed</th><th>memory</th><th>result</th></tr>\n";
        for (const auto& c : cols_) {
            const RunReport& run = *c.run;
            const bool ok = run.summary.ok;
            h_ << "<tr><td>" << esc(c.name) << "</td><td>" << esc(run.testee) << "</td><td>" << profile_name(run.setup.profile)
               << "</td><td>" << run.seed << "</td><td>" << esc(memory_line(run)) << "</td><td class=\"" << (ok ? "ok" : "bad") << "\">" << (ok ? "PASSED: " : "FAILED: ")
               << esc(summary_line(run.summary)) << "</td></tr>\n";
        }
        h_ << "</table>\n";
    }

    void filters() {
        std::set<std::string> areas, verdicts, statuses;
        for (const auto& [id, row] : rows_) areas.insert(row->area), verdicts.insert(verdict_name(row->verdict));
        for (const auto& c : cols_)
            for (const auto& [id, cell] : c.cells) {
                statuses.insert(status_name(cell->status));
                if (has_recommended(*cell)) statuses.insert("rec");
            }
        auto select = [&](const char* id, const char* label, const std::set<std::string>& values) {
            h_ << "<label>" << label << " <select id=\"" << id << "\"><option value=\"\">all</option>";
            for (const auto& v : values) h_ << "<option>" << esc(v) << "</option>";
            h_ << "</select></label>";
        };
        h_ << "<div id=\"filters\">";
        select("f-area", "area", areas);
        select("f-verdict", "verdict", verdicts);
        select("f-status", "status", statuses);
        h_ << "<label>case id <input id=\"f-text\" size=\"30\" placeholder=\"part of an id\"></label><span id=\"f-count\">"
           << rows_.size() << " cases</span></div>\n";
        h_ << "<p class=\"legend\"><span class=\"pass\">pass</span><span class=\"rec\">pass, recommended finding</span>"
              "<span class=\"fail\">fail</span><span class=\"crash\">crash / time-out</span><span class=\"xfail\">expected failure"
              "</span><span class=\"stale\">stale expected failure</span><span class=\"info\">implementation-defined, differs</span>"
              "<span class=\"skip\">skipped / not run</span> Status \"rec\" selects cases with a recommended-level finding.</p>\n";
    }

    // Cases that fail in some column, grouped by the rule each required finding breaks (a case
    // that breaks two rules is under both); a result file without rules in its findings (older
    // than them) groups by the first rule the case cites.
    void failures() {
        std::map<std::string, std::vector<std::string>, bool (*)(const std::string&, const std::string&)> groups(rule_less);
        std::size_t n = 0;
        for (const auto& [id, row] : rows_) {
            std::set<std::string> broken;
            bool failed = false;
            for (const auto& c : cols_) {
                auto it = c.cells.find(id);
                if (it == c.cells.end() || it->second->status != Status::fail) continue;
                failed = true;
                for (const auto& f : it->second->findings)
                    if (f.level == Level::required && !f.rule.empty()) broken.insert(f.rule);
            }
            if (!failed) continue;
            if (broken.empty()) broken.insert(row->rules.empty() ? std::string() : row->rules.front());
            for (const auto& rule : broken) groups[rule].push_back(id);
            ++n;
        }
        h_ << "<h2 id=\"failures\">Failures: " << n << (n == 1 ? " case" : " cases") << ", by the rule broken</h2>\n";
        if (!n) h_ << "<p>No case fails.</p>\n";
        else {
            h_ << "<p class=\"toc\">By rule:";
            for (const auto& [rule, ids] : groups)
                h_ << " <a href=\"#" << anchor("group-", rule) << "\">" << (rule.empty() ? std::string("no rule") : esc(rule))
                   << "</a>&nbsp;" << ids.size();
            h_ << "</p>\n";
        }
        for (const auto& [rule, ids] : groups) {
            auto it = rules_.find(rule);
            h_ << "<section class=\"group\" id=\"" << anchor("group-", rule) << "\" data-rule=\"" << esc(rule) << "\"><h3>" << (rule.empty() ? std::string("no rule") : rule_link(rule))
               << (it == rules_.end() || it->second.title.empty() ? "" : " " + esc(it->second.title)) << " (" << ids.size()
               << ")</h3>\n";
            for (const auto& id : ids) card(id, *rows_.at(id));
            h_ << "</section>\n";
        }
    }

    void card(const std::string& id, const CaseInfo& row) {
        // Under a second rule the card has no id: the row's link goes to the first.
        const bool first = carded_.insert(id).second;
        h_ << "<div class=\"card\"" << (first ? " id=\"" + anchor("card-", id) + "\"" : std::string()) << data_attrs(id, row)
           << "><div><span class=\"cid\">"
           << esc(id) << "</span> <a href=\"#" << anchor("row-", id) << "\">row</a></div>\n<dl><dt>description</dt><dd>"
           << esc(row.description) << "</dd><dt>kind</dt><dd>" << kind_name(row.kind) << ", " << verdict_name(row.verdict)
           << (row.source.empty() ? "" : ", derived from " + esc(row.source)) << "</dd><dt>rules</dt><dd>";
        for (const auto& r : row.rules) h_ << rule_link(r) << " ";
        h_ << "</dd><dt>files</dt><dd class=\"files\">" << file_links(row) << "</dd><dt>expected</dt><dd>" << esc(expected_text(row)) << "</dd>";
        for (const auto& c : cols_) {
            auto it = c.cells.find(id);
            if (it == c.cells.end()) continue;
            const CaseResult& cell = *it->second;
            std::string who = cols_.size() > 1 ? " (" + esc(c.name) + ")" : "";
            h_ << "<dt>got" << who << "</dt><dd><span class=\"" << css_class(cell) << "\">&nbsp;" << status_name(cell.status) << "&nbsp;</span> "
               << esc(got_text(cell)) << "</dd>";
            if (!cell.findings.empty()) {
                h_ << "<dt>findings" << who << "</dt><dd>";
                for (const auto& f : cell.findings) h_ << finding_html(f);
                h_ << "</dd>";
            }
        }
        h_ << "</dl></div>\n";
    }

    void all_cases() {
        std::map<std::string, std::vector<std::string>> areas;
        std::map<std::string, bool> derived;
        for (const auto& [id, row] : rows_) areas[row->area].push_back(id), derived[row->area] = row->origin != Origin::corpus;
        h_ << "<h2>All cases by area</h2>\n";
        for (int pass = 0; pass < 2; ++pass)  // corpus areas first
            for (const auto& [area, ids] : areas) {
                if (derived[area] != (pass == 1)) continue;
                h_ << "<section class=\"area\"><h3>" << esc(area) << " (" << ids.size() << " cases)</h3>\n<table>\n<tr><th>case</th>"
                   << "<th>kind</th><th>verdict</th><th>rules</th>";
                for (const auto& c : cols_) h_ << "<th>" << esc(c.name) << "</th>";
                h_ << "<th>description and findings</th></tr>\n";
                for (const auto& id : ids) row(id, *rows_.at(id));
                h_ << "</table></section>\n";
            }
    }

    void row(const std::string& id, const CaseInfo& r) {
        h_ << "<tr id=\"" << anchor("row-", id) << "\"" << data_attrs(id, r) << "><td class=\"id\">" << esc(id) << "</td><td>"
           << kind_name(r.kind) << "</td><td>" << verdict_name(r.verdict) << "</td><td>";
        for (const auto& rule : r.rules) h_ << rule_link(rule) << " ";
        h_ << "</td>";
        std::string findings;
        for (const auto& c : cols_) {
            auto it = c.cells.find(id);
            if (it == c.cells.end()) {
                h_ << "<td class=\"c skip\">-</td>";
                continue;
            }
            const CaseResult& cell = *it->second;
            std::string label = cell.status == Status::skip || cell.status == Status::not_run ? status_name(cell.status) : answer_name(cell.answer);
            if (cell.status == Status::fail) label = "<a href=\"#" + anchor("card-", id) + "\">" + label + "</a>";
            h_ << "<td class=\"c " << css_class(cell) << "\">" << label << "</td>";
            for (const auto& f : cell.findings)
                findings += (cols_.size() > 1 ? "<div>" + esc(c.name) + ":</div>" : std::string()) + finding_html(f);
        }
        h_ << "<td class=\"d\">" << esc(r.description) << findings << "</td></tr>\n";
    }

    void script() {
        h_ << "<script>\n(function () {\n"
              "  var area = document.getElementById('f-area'), verdict = document.getElementById('f-verdict'),\n"
              "      status = document.getElementById('f-status'), text = document.getElementById('f-text'),\n"
              "      count = document.getElementById('f-count');\n"
              "  function apply() {\n"
              "    var a = area.value, v = verdict.value, s = status.value, q = text.value.toLowerCase(), shown = 0, total = 0;\n"
              "    document.querySelectorAll('[data-id]').forEach(function (e) {\n"
              "      var d = e.dataset;\n"
              "      var ok = (!a || d.area === a) && (!v || d.verdict === v) &&\n"
              "               (!s || (' ' + d.status + ' ').indexOf(' ' + s + ' ') >= 0) && (!q || d.id.toLowerCase().indexOf(q) >= 0);\n"
              "      e.hidden = !ok;\n"
              "      if (e.tagName === 'TR') { total++; if (ok) shown++; }\n"
              "    });\n"
              "    document.querySelectorAll('section').forEach(function (sec) {\n"
              "      sec.hidden = !sec.querySelector('[data-id]:not([hidden])');\n"
              "    });\n"
              "    count.textContent = shown === total ? total + ' cases' : shown + ' of ' + total + ' cases shown';\n"
              "  }\n"
              "  [area, verdict, status, text].forEach(function (e) {\n"
              "    e.addEventListener('change', apply);\n"
              "    e.addEventListener('input', apply);\n"
              "  });\n"
              "})();\n</script>\n";
    }

    std::vector<Column> cols_;
    std::map<std::string, const CaseInfo*> rows_;  // the union of the columns' cases
    std::map<std::string, Rule> rules_;
    std::set<std::string> carded_;  // cases whose card is on the page
    std::string corpus_;
    std::ostringstream h_;
};

}  // namespace

std::string html_matrix(const std::vector<RunReport>& runs) { return Page(runs).render(); }

}  // namespace ond::conformance
