#include "report.hpp"

#include <filesystem>
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

// The corpus directory made absolute, so that the page's links work wherever it is opened.
std::string absolute_dir(const std::string& dir) {
    std::error_code ec;
    auto p = std::filesystem::absolute(dir, ec);
    return ec ? dir : p.lexically_normal().string();
}

// The case's files under their keys in the JSON results, in the order the page lists them.
std::vector<std::pair<const char*, const std::string*>> file_keys(const CaseResult& r) {
    return {{"input", &r.input_path}, {"expected", &r.expected_path}, {"if_accepted", &r.if_accepted_path}, {"listing", &r.listing_path}};
}

// Labels on the page: a derived case's files are those of the corpus case it was made from.
std::string file_label(const std::string& key, bool derived) {
    std::string label = key == "if_accepted" ? "if-accepted" : key;
    return derived ? "source " + label : label;
}

// Valid UTF-8 without control characters (but newlines and tabs): what every format can hold.
// Testee bytes were escaped losslessly by the classifier already; this is idempotent on them.

std::string findings_text(const CaseResult& r) {
    std::string t;
    for (const auto& f : r.findings) {
        if (!t.empty()) t += "\n";
        t += std::string(level_name(f.level)) + " " + finding_text(f);
    }
    return t;
}

}  // namespace

std::string results_json(const RunReport& rep) {
    nlohmann::json j;
    j["tool"] = "ond conform";
    j["name"] = rep.options.name.empty() ? rep.testee : rep.options.name;
    j["testee"] = safe(rep.testee);
    j["profile"] = profile_name(rep.options.profile);
    j["corpus"] = {{"dir", safe(rep.options.corpus_dir)}, {"path", safe(absolute_dir(rep.options.corpus_dir))},
                   {"corpus_version", rep.corpus_version}, {"format_version", rep.format_version}};
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
        if (!rule.doc.empty()) cov.back()["doc"] = safe(rule.doc);
    }
    j["rule_coverage"] = cov;
    j["stale"] = rep.stale;
    j["unknown_expected_failures"] = nlohmann::json::array();
    for (const auto& id : rep.missing_expected) j["unknown_expected_failures"].push_back(escape_text(id));
    j["not_tested"] = nlohmann::json::object();
    for (const auto& [op, why] : rep.not_tested) j["not_tested"][op] = why;
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
        for (const auto& [label, path] : r.saved) c["saved"][label] = safe(path);
        c["description"] = safe(r.description);
        nlohmann::json files = nlohmann::json::object();
        for (const auto& [key, rel] : file_keys(r))
            if (!rel->empty()) files[key] = safe(*rel);
        c["files"] = std::move(files);
        c["status"] = status_name(r.status);
        c["answer"] = answer_name(r.answer);
        if (!r.xfail_reason.empty()) c["xfail_reason"] = safe(r.xfail_reason);
        c["expected_error"] = r.expected_error.empty() ? nlohmann::json() : nlohmann::json(r.expected_error);
        c["error"] = r.error_code.empty() ? nlohmann::json() : nlohmann::json(safe_message(r.error_code));
        nlohmann::json fs = nlohmann::json::array();
        for (const auto& f : r.findings)
            fs.push_back({{"level", level_name(f.level)}, {"check", check_name(f.check)}, {"rule", f.rule}, {"field", safe(f.field)},
                          {"message", safe_message(f.message)}});
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
                        first = finding_text(fd);
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
    col.corpus = absolute_dir(rep.options.corpus_dir);
    for (const auto& rule : rep.rules) col.rules[rule.id] = {rule.title, rule.doc};
    for (const auto& r : rep.results) {
        MatrixColumn::Cell cell{status_name(r.status), answer_name(r.answer), r.error_code, {}, r.recommended_fail > 0};
        for (const auto& f : r.findings) cell.findings.push_back({level_name(f.level), check_name(f.check), f.message, f.rule, f.field});
        col.cells[r.id] = std::move(cell);
        MatrixColumn::Row row{r.area, kind_name(r.kind), verdict_name(r.verdict), r.description, r.expected_error, r.source, r.rules,
                              {}, r.origin != Origin::corpus};
        for (const auto& [key, rel] : file_keys(r))
            if (!rel->empty()) row.files.emplace_back(file_label(key, row.derived), *rel);
        col.rows[r.id] = std::move(row);
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
    auto str = [](const nlohmann::json& o, const char* key) {
        auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    MatrixColumn col;
    col.name = j.value("name", path);
    col.testee = str(j, "testee");
    col.summary = j["summary"].value("line", "");
    col.ok = j["summary"].value("ok", false);
    col.seed = j.contains("seed") ? j["seed"].dump() : "";
    col.profile = str(j, "profile");
    if (j.contains("corpus") && j["corpus"].is_object()) {
        col.corpus = str(j["corpus"], "path");
        if (col.corpus.empty()) col.corpus = absolute_dir(str(j["corpus"], "dir"));
    }
    if (j.contains("rule_coverage") && j["rule_coverage"].is_array())
        for (const auto& rule : j["rule_coverage"]) col.rules[str(rule, "rule")] = {str(rule, "title"), str(rule, "doc")};
    for (const auto& c : j["cases"]) {
        std::string id = str(c, "id");
        MatrixColumn::Cell cell{str(c, "status"), str(c, "answer"), safe_message(str(c, "error")), {}, false};
        if (c.contains("findings") && c["findings"].is_array())
            for (const auto& f : c["findings"]) {
                cell.findings.push_back({str(f, "level"), str(f, "check"), safe_message(str(f, "message")), safe(str(f, "rule")),
                                         safe(str(f, "field"))});
                cell.recommended = cell.recommended || cell.findings.back().level == "recommended";
            }
        col.cells[id] = std::move(cell);
        MatrixColumn::Row row{str(c, "area"), str(c, "kind"), str(c, "verdict"), str(c, "description"), str(c, "expected_error"),
                              str(c, "source"), {}, {}, c.value("origin", "corpus") != "corpus"};
        if (c.contains("rules") && c["rules"].is_array())
            for (const auto& rule : c["rules"])
                if (rule.is_string()) row.rules.push_back(rule.get<std::string>());
        if (c.contains("files") && c["files"].is_object())
            for (const char* key : {"input", "expected", "if_accepted", "listing"})
                if (!str(c["files"], key).empty()) row.files.emplace_back(file_label(key, row.derived), str(c["files"], key));
        col.rows[id] = std::move(row);
    }
    return col;
}

}  // namespace ond::conformance
