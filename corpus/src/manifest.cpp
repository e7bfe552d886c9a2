#include "ond/corpus_manifest.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ond/corpus_sha256.hpp"

namespace ond::corpus {

const char* kind_name(CaseKind k) noexcept {
    switch (k) {
        case CaseKind::decode: return "decode";
        case CaseKind::stream: return "stream";
        case CaseKind::encode: return "encode";
    }
    return "?";
}

const char* verdict_name(CaseVerdict v) noexcept {
    switch (v) {
        case CaseVerdict::valid: return "valid";
        case CaseVerdict::noncanonical: return "noncanonical";
        case CaseVerdict::invalid: return "invalid";
        case CaseVerdict::impl: return "impl";
    }
    return "?";
}

CaseKind parse_kind(std::string_view s) {
    if (s == "decode") return CaseKind::decode;
    if (s == "stream") return CaseKind::stream;
    if (s == "encode") return CaseKind::encode;
    throw std::runtime_error("unknown case kind '" + std::string(s) + "'");
}

CaseVerdict parse_verdict(std::string_view s) {
    if (s == "valid") return CaseVerdict::valid;
    if (s == "noncanonical" || s == "valid-noncanonical") return CaseVerdict::noncanonical;
    if (s == "invalid") return CaseVerdict::invalid;
    if (s == "impl" || s == "implementation-defined") return CaseVerdict::impl;
    throw std::runtime_error("unknown verdict '" + std::string(s) + "'");
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

namespace {

std::string str_or(const nlohmann::json& j, const char* key, std::string def = {}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return def;
    if (it->is_string()) return it->get<std::string>();
    return it->dump();
}

// A case id as the corpus spells them: 2 to 8 segments joined by '/', each of lower-case ASCII
// letters, digits, '-', '_' and '.' and not starting with '.'; at most 255 bytes.
bool well_formed_id(std::string_view id) {
    if (id.empty() || id.size() > 255) return false;
    int segments = 1;
    bool segment_start = true;
    for (char c : id) {
        if (c == '/') {
            if (segment_start) return false;
            ++segments, segment_start = true;
            continue;
        }
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || (c == '.' && !segment_start);
        if (!ok) return false;
        segment_start = false;
    }
    return !segment_start && segments >= 2 && segments <= 8;
}

// "former_ids": absent, or an array of well-formed ids (read strictly: anything else is a problem
// of the case).
std::vector<std::string> former_ids_of(const nlohmann::json& jc) {
    std::vector<std::string> ids;
    auto it = jc.find("former_ids");
    if (it == jc.end()) return ids;
    if (!it->is_array()) throw std::runtime_error("former_ids must be an array of case ids");
    for (const auto& f : *it) {
        if (!f.is_string() || !well_formed_id(f.get<std::string>()))
            throw std::runtime_error("former_ids holds " + f.dump() + ", not a case id");
        ids.push_back(f.get<std::string>());
    }
    return ids;
}

// One id for one case, in every version: a former id may not be a current id, nor a former id of
// two cases (or twice of one).
void check_former_ids(Manifest& m) {
    std::set<std::string> current;
    std::map<std::string, std::string> claimed;  // former id -> the case that had it
    for (const auto& c : m.cases) current.insert(c.id);
    for (const auto& c : m.cases)
        for (const auto& f : c.former_ids) {
            if (current.count(f)) m.problems.push_back(c.id + ": former id '" + f + "' is the id of a current case");
            else if (auto [it, fresh] = claimed.emplace(f, c.id); !fresh)
                m.problems.push_back(c.id + ": former id '" + f + "' is " +
                                     (it->second == c.id ? std::string("listed twice") : "also a former id of " + it->second));
        }
}

ManifestCase case_of(const nlohmann::json& jc, std::string& id) {
    ManifestCase k;
    k.id = id = jc.at("id").get<std::string>();
    k.kind = parse_kind(jc.at("kind").get<std::string>());
    k.area = str_or(jc, "area", "other");
    k.verdict = parse_verdict(jc.at("verdict").get<std::string>());
    if (jc.contains("rules") && jc["rules"].is_array())
        for (const auto& r : jc["rules"]) k.rules.push_back(r.get<std::string>());
    k.description = str_or(jc, "description");
    k.error = str_or(jc, "error");
    k.canonical = jc.value("canonical", false);
    k.input = jc.at("input").get<std::string>();
    k.expected = str_or(jc, "expected");
    // One file, or (also readable) an array of acceptable ones; more in "if_accepted_also".
    if (auto it = jc.find("if_accepted"); it != jc.end() && it->is_array()) {
        for (const auto& f : *it) {
            if (k.if_accepted.empty()) k.if_accepted = f.get<std::string>();
            else k.if_accepted_also.push_back(f.get<std::string>());
        }
    } else {
        k.if_accepted = str_or(jc, "if_accepted");
    }
    if (auto it = jc.find("if_accepted_also"); it != jc.end() && !it->is_null())
        for (const auto& f : it->get<std::vector<std::string>>()) k.if_accepted_also.push_back(f);
    k.listing = str_or(jc, "listing");
    k.canonical_bytes = str_or(jc, "canonical_bytes");
    k.string_table = str_or(jc, "string_table");
    if (jc.contains("sha256") && jc["sha256"].is_object())
        for (const auto& [rel, sum] : jc["sha256"].items()) k.sha256[rel] = sum.get<std::string>();
    k.former_ids = former_ids_of(jc);
    return k;
}

}  // namespace

Manifest Manifest::read(const std::string& dir) {
    Manifest m;
    m.dir = dir;
    const std::string text = read_file(dir + "/manifest.json");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const std::exception& e) {
        throw std::runtime_error(dir + "/manifest.json: " + e.what());
    }
    m.corpus_version = str_or(j, "corpus_version", "?");
    m.format_version = j.value("format_version", 0);
    for (const auto& jc : j.at("cases")) {
        std::string id;
        try {
            m.cases.push_back(case_of(jc, id));
        } catch (const std::exception& e) {
            m.problems.push_back((id.empty() ? std::string("a case") : id) + ": " + e.what());
        }
    }
    check_former_ids(m);
    return m;
}

std::string Manifest::read_checked(const ManifestCase& c, const std::string& rel, std::vector<std::string>& out) const {
    std::string data = read_file(dir + "/" + rel);
    if (auto it = c.sha256.find(rel); it != c.sha256.end()) {
        const std::string got = sha256_hex(data);
        if (it->second != got) out.push_back(c.id + ": " + rel + " has SHA-256 " + got + ", the manifest says " + it->second);
    }
    return data;
}

std::vector<std::string> Manifest::mismatched_files() const {
    std::vector<std::string> out;
    for (const auto& c : cases)
        for (const auto& [rel, sum] : c.sha256)
            if (sha256_hex(read_file(dir + "/" + rel)) != sum) out.push_back(rel);
    return out;
}

std::vector<Rule> read_rules(const std::string& dir) {
    std::vector<Rule> rules;
    std::string text;
    try {
        text = read_file(dir + "/rules.json");
    } catch (const std::exception&) {
        return rules;
    }
    auto j = nlohmann::json::parse(text);
    const nlohmann::json* list = &j;
    if (j.is_object() && j.contains("rules")) list = &j["rules"];
    if (list->is_array()) {
        for (const auto& r : *list) {
            if (r.is_string()) rules.push_back({r.get<std::string>(), "", ""});
            else rules.push_back({str_or(r, "id"), str_or(r, "title"), str_or(r, "doc")});
        }
    } else if (list->is_object()) {
        for (auto it = list->begin(); it != list->end(); ++it) {
            std::string title = it->is_string() ? it->get<std::string>()
                                : it->is_object() ? str_or(*it, "title") : std::string();
            rules.push_back({it.key(), title, it->is_object() ? str_or(*it, "doc") : std::string()});
        }
    }
    return rules;
}

}  // namespace ond::corpus
