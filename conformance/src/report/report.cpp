#include "report/report.hpp"

#include <filesystem>
#include <iomanip>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ond/text_escape.hpp"
#include "suite/run_report.hpp"

namespace ond::conformance {

namespace {

// The corpus directory made absolute, so that the page's links work wherever it is opened.
std::string absolute_dir(const std::string& dir) {
    std::error_code ec;
    auto p = std::filesystem::absolute(dir, ec);
    return ec ? dir : p.lexically_normal().string();
}

std::string findings_text(const CaseResult& r) {
    std::string t;
    for (const auto& f : r.findings) {
        if (!t.empty()) t += "\n";
        t += std::string(level_name(f.level)) + " " + finding_text(f);
    }
    return t;
}

}  // namespace

std::string corpus_path(const RunReport& rep) { return absolute_dir(rep.setup.corpus_dir); }

std::vector<std::pair<const char*, const std::string*>> case_files(const CaseInfo& c) {
    return {{"input", &c.input_path}, {"expected", &c.expected_path}, {"if_accepted", &c.if_accepted_path}, {"listing", &c.listing_path}};
}

std::string results_json(const RunReport& rep) {
    nlohmann::json j;
    j["tool"] = "ond conform";
    j["name"] = rep.setup.name.empty() ? rep.testee : rep.setup.name;
    j["testee"] = safe(rep.testee);
    j["profile"] = profile_name(rep.setup.profile);
    j["corpus"] = {{"dir", safe(rep.setup.corpus_dir)}, {"path", safe(corpus_path(rep))},
                   {"corpus_version", rep.corpus_version}, {"format_version", rep.format_version}};
    j["seed"] = rep.seed;
    j["seed_origin"] = rep.seed_origin;
    j["baseline_kb"] = rep.baseline_kb;
    j["baseline_rss_kb"] = rep.baseline_kb.count("decode") ? rep.baseline_kb.at("decode") : 0;
    j["memory_bound_kb"] = rep.setup.memory_bound_kb;
    j["memory_cap"] = rep.memory_cap;
    j["memory_accounting"] = rep.memory_accounting;
    j["baseline_allowance_kb"] = rep.baseline_allowance_kb;
    j["output_limit"] = "1 MiB + 8 x the expected output + 64 x the input";
    j["stopped_early"] = rep.stopped_early;
    j["seconds"] = rep.seconds;
    const auto& s = rep.summary;
    j["summary"] = {{"passed", s.passed}, {"failed", s.failed}, {"expected_failures", s.xfailed}, {"skipped", s.skipped},
                    {"stale", s.stale}, {"informational", s.info}, {"not_run", s.not_run}, {"recommended_pass", s.recommended_pass},
                    {"recommended_fail", s.recommended_fail}, {"corpus_problems", s.corpus_problems},
                    {"uncovered_rules", s.uncovered_rules}, {"unknown_expected_failures", s.unknown_expected}, {"ok", s.ok}, {"line", summary_line(s)}};
    nlohmann::json cov = nlohmann::json::array();
    for (const auto& rule : rep.rules) {
        auto it = rep.rule_cases.find(rule.id);
        cov.push_back({{"rule", rule.id}, {"title", safe(rule.title)}, {"cases", it == rep.rule_cases.end() ? 0 : it->second}});
        if (!rule.doc.empty()) cov.back()["doc"] = safe(rule.doc);
    }
    j["rule_coverage"] = cov;
    j["stale"] = rep.stale;
    j["unknown_expected_failures"] = nlohmann::json::array();
    for (const auto& id : rep.expected_failures.unknown_ids) j["unknown_expected_failures"].push_back(escape_text(id));
    j["expected_failures_notes"] = rep.expected_failures.notes;  // already escaped
    for (const auto& line : rep.expected_failures.unknown) j["expected_failures_notes"].push_back(line);
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
        for (const auto& [key, rel] : case_files(r))
            if (!rel->empty()) files[key] = safe(*rel);
        c["files"] = std::move(files);
        c["status"] = status_name(r.status);
        c["answer"] = answer_name(r.answer);
        if (!r.xfail_reason.empty()) c["xfail_reason"] = safe(r.xfail_reason);
        c["expected_error"] = r.error.empty() ? nlohmann::json() : nlohmann::json(r.error);
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
      << profile_name(rep.setup.profile) << "\"/><property name=\"testee\" value=\"" << xml_escape(safe(rep.testee))
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

namespace {

// The value whose name is `name`, of an enum named by `name_of`; nullopt for none.
template <class E>
std::optional<E> enum_named(std::string_view name, const char* (*name_of)(E) noexcept) {
    for (unsigned v = 0; v < 64; ++v)
        if (name == name_of(static_cast<E>(v))) return static_cast<E>(v);
    return std::nullopt;
}

}  // namespace

RunReport read_results_json(const std::string& path) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    if (!j.is_object() || !j.contains("cases") || !j["cases"].is_array() || !j.contains("summary") || !j["summary"].is_object())
        throw std::runtime_error(path + ": not a result file of ond conform --json");
    auto str = [](const nlohmann::json& o, const char* key) {
        auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    auto num = [](const nlohmann::json& o, const char* key) {
        auto it = o.find(key);
        return it != o.end() && it->is_number_integer() ? it->get<long long>() : 0LL;
    };
    auto strings = [&](const nlohmann::json& o, const char* key) {
        std::vector<std::string> out;
        if (auto it = o.find(key); it != o.end() && it->is_array())
            for (const auto& v : *it)
                if (v.is_string()) out.push_back(safe(v.get<std::string>()));
        return out;
    };
    RunReport rep;
    rep.setup.name = safe(j.value("name", path));
    rep.testee = safe(str(j, "testee"));
    rep.setup.profile = enum_named<Profile>(str(j, "profile"), profile_name).value_or(Profile::spec);
    if (auto it = j.find("seed"); it != j.end() && it->is_number_unsigned()) rep.seed = it->get<std::uint64_t>();
    rep.memory_accounting = safe(str(j, "memory_accounting"));
    rep.baseline_allowance_kb = static_cast<long>(num(j, "baseline_allowance_kb"));
    if (auto it = j.find("baseline_kb"); it != j.end() && it->is_object())
        for (const auto& [op, kb] : it->items())
            if (kb.is_number()) rep.baseline_kb[safe(op)] = kb.get<long>();
    if (j.contains("corpus") && j["corpus"].is_object()) {
        const auto& c = j["corpus"];
        rep.setup.corpus_dir = safe(str(c, "path").empty() ? absolute_dir(str(c, "dir")) : str(c, "path"));
        rep.corpus_version = safe(str(c, "corpus_version"));
    }
    const auto& sj = j["summary"];
    RunSummary& s = rep.summary;
    s.passed = static_cast<int>(num(sj, "passed")), s.failed = static_cast<int>(num(sj, "failed"));
    s.xfailed = static_cast<int>(num(sj, "expected_failures")), s.skipped = static_cast<int>(num(sj, "skipped"));
    s.stale = static_cast<int>(num(sj, "stale")), s.info = static_cast<int>(num(sj, "informational"));
    s.not_run = static_cast<int>(num(sj, "not_run")), s.recommended_pass = static_cast<int>(num(sj, "recommended_pass"));
    s.recommended_fail = static_cast<int>(num(sj, "recommended_fail")), s.corpus_problems = static_cast<int>(num(sj, "corpus_problems"));
    s.uncovered_rules = static_cast<int>(num(sj, "uncovered_rules"));
    s.ok = sj.value("ok", false);
    if (j.contains("rule_coverage") && j["rule_coverage"].is_array())
        for (const auto& rule : j["rule_coverage"])
            if (rule.is_object()) rep.rules.push_back({safe(str(rule, "rule")), safe(str(rule, "title")), safe(str(rule, "doc"))});
    for (const auto& c : j["cases"]) {
        if (!c.is_object()) throw std::runtime_error(path + ": a case is not an object");
        CaseResult r;
        r.id = safe(str(c, "id"));
        auto must = [&](auto value, const char* key) {
            if (!value) throw std::runtime_error(path + ": case " + r.id + " has " + key + " '" + safe(str(c, key)) + "', not one of ond conform's");
            return *value;
        };
        r.kind = must(enum_named<CaseKind>(str(c, "kind"), corpus::kind_name), "kind");
        r.verdict = must(enum_named<CaseVerdict>(str(c, "verdict"), corpus::verdict_name), "verdict");
        r.status = must(enum_named<Status>(str(c, "status"), status_name), "status");
        r.answer = must(enum_named<Answer>(str(c, "answer"), answer_name), "answer");
        r.origin = enum_named<Origin>(c.value("origin", "corpus"), origin_name).value_or(Origin::corpus);
        r.area = safe(str(c, "area")), r.description = safe(str(c, "description")), r.source = safe(str(c, "source"));
        r.rules = strings(c, "rules");
        r.error = safe(str(c, "expected_error"));
        r.error_code = safe_message(str(c, "error"));
        r.xfail_reason = safe(str(c, "xfail_reason"));
        if (c.contains("files") && c["files"].is_object()) {
            const auto& files = c["files"];
            r.input_path = safe(str(files, "input")), r.expected_path = safe(str(files, "expected"));
            r.if_accepted_path = safe(str(files, "if_accepted")), r.listing_path = safe(str(files, "listing"));
        }
        if (c.contains("saved") && c["saved"].is_object())
            for (const auto& [label, saved] : c["saved"].items())
                if (saved.is_string()) r.saved.emplace_back(safe(label), safe(saved.get<std::string>()));
        if (c.contains("findings") && c["findings"].is_array())
            for (const auto& f : c["findings"]) {
                if (!f.is_object()) continue;
                Finding fd{must(enum_named<Level>(str(f, "level"), level_name), "level"), enum_named<Check>(str(f, "check"), check_name).value_or(Check::verdict),
                           safe_message(str(f, "message")), safe(str(f, "rule")), safe(str(f, "field"))};
                if (fd.level == Level::recommended) ++r.recommended_fail;
                r.findings.push_back(std::move(fd));
            }
        r.ms = c.value("ms", 0.0);
        r.peak_kb = static_cast<long>(num(c, "rss_kb")), r.growth_kb = static_cast<long>(num(c, "growth_kb"));
        rep.results.push_back(std::move(r));
    }
    return rep;
}

}  // namespace ond::conformance
