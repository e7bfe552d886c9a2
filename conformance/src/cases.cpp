#include "cases.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ond/corpus_sha256.hpp"

namespace ond::conformance {

const char* kind_name(Kind k) noexcept {
    switch (k) {
        case Kind::decode: return "decode";
        case Kind::stream: return "stream";
        case Kind::encode: return "encode";
    }
    return "?";
}

const char* verdict_name(Verdict v) noexcept {
    switch (v) {
        case Verdict::valid: return "valid";
        case Verdict::noncanonical: return "noncanonical";
        case Verdict::invalid: return "invalid";
        case Verdict::impl: return "impl";
    }
    return "?";
}

const char* origin_name(Origin o) noexcept {
    switch (o) {
        case Origin::corpus: return "corpus";
        case Origin::bitflip: return "bitflip";
        case Origin::prefix: return "prefix";
        case Origin::mutation: return "mutation";
        case Origin::memory: return "memory";
    }
    return "?";
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void write_file(const std::string& path, const std::string& data) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t w = ::write(fd, data.data() + done, data.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            ::close(fd);
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
        }
        done += static_cast<std::size_t>(w);
    }
    if (::close(fd) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

void check_writable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw std::runtime_error("cannot write " + path + ": it is a directory");
        if (::access(path.c_str(), W_OK) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        return;
    }
    auto slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw std::runtime_error("cannot write " + path + ": no directory " + dir);
    if (::access(dir.c_str(), W_OK) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

bool glob_match(const std::string& p, const std::string& t) {
    std::size_t pi = 0, ti = 0, star_p = std::string::npos, star_t = 0;
    auto match_one = [&](std::size_t& pj, char c) -> bool {
        // pj at p[pj]; on return, pj is past the token. Returns whether c matches.
        if (p[pj] == '?') return ++pj, true;
        if (p[pj] == '[') {
            std::size_t j = pj + 1;
            bool neg = j < p.size() && (p[j] == '!' || p[j] == '^');
            if (neg) ++j;
            bool hit = false;
            std::size_t start = j;
            while (j < p.size() && (p[j] != ']' || j == start)) {
                if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
                    if (c >= p[j] && c <= p[j + 2]) hit = true;
                    j += 3;
                } else {
                    if (c == p[j]) hit = true;
                    ++j;
                }
            }
            if (j >= p.size()) return pj += 1, c == '[';  // no closing bracket: a literal '['
            pj = j + 1;
            return hit != neg;
        }
        return p[pj++] == c;
    };
    while (ti < t.size()) {
        if (pi < p.size() && p[pi] == '*') {
            star_p = pi++;
            star_t = ti;
            continue;
        }
        std::size_t pj = pi;
        if (pi < p.size() && match_one(pj, t[ti])) {
            pi = pj;
            ++ti;
            continue;
        }
        if (star_p == std::string::npos) return false;
        pi = star_p + 1;
        ti = ++star_t;
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

namespace {

Kind parse_kind(const std::string& s) {
    if (s == "decode") return Kind::decode;
    if (s == "stream") return Kind::stream;
    if (s == "encode") return Kind::encode;
    throw std::runtime_error("unknown case kind '" + s + "'");
}

Verdict parse_verdict(const std::string& s) {
    if (s == "valid") return Verdict::valid;
    if (s == "noncanonical" || s == "valid-noncanonical") return Verdict::noncanonical;
    if (s == "invalid") return Verdict::invalid;
    if (s == "impl" || s == "implementation-defined") return Verdict::impl;
    throw std::runtime_error("unknown verdict '" + s + "'");
}

std::string str_or(const nlohmann::json& j, const char* key, std::string def = {}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return def;
    if (it->is_string()) return it->get<std::string>();
    return it->dump();
}

void load_rules(Corpus& c) {
    std::string text;
    try {
        text = read_file(c.dir + "/rules.json");
    } catch (const std::exception&) {
        return;
    }
    auto j = nlohmann::json::parse(text);
    const nlohmann::json* list = &j;
    if (j.is_object() && j.contains("rules")) list = &j["rules"];
    if (list->is_array()) {
        for (const auto& r : *list) {
            if (r.is_string()) c.rules.push_back({r.get<std::string>(), "", ""});
            else c.rules.push_back({str_or(r, "id"), str_or(r, "title"), str_or(r, "doc")});
        }
    } else if (list->is_object()) {
        for (auto it = list->begin(); it != list->end(); ++it) {
            std::string title = it->is_string() ? it->get<std::string>()
                                : it->is_object() ? str_or(*it, "title") : std::string();
            c.rules.push_back({it.key(), title, it->is_object() ? str_or(*it, "doc") : std::string()});
        }
    }
}

}  // namespace

Corpus load_corpus(const std::string& dir) {
    Corpus c;
    c.dir = dir;
    std::string text = read_file(dir + "/manifest.json");
    nlohmann::json m;
    try {
        m = nlohmann::json::parse(text);
    } catch (const std::exception& e) {
        throw std::runtime_error(dir + "/manifest.json: " + e.what());
    }
    c.corpus_version = str_or(m, "corpus_version", "?");
    c.format_version = m.value("format_version", 0);
    std::map<std::string, std::string> hashes;
    for (const auto& jc : m.at("cases")) {
        Case k;
        try {
            k.id = jc.at("id").get<std::string>();
            k.kind = parse_kind(jc.at("kind").get<std::string>());
            k.area = str_or(jc, "area", "other");
            k.verdict = parse_verdict(jc.at("verdict").get<std::string>());
            if (jc.contains("rules") && jc["rules"].is_array())
                for (const auto& r : jc["rules"]) k.rules.push_back(r.get<std::string>());
            k.description = str_or(jc, "description");
            k.error = str_or(jc, "error");
            k.canonical = jc.value("canonical", false);
            k.input_path = jc.at("input").get<std::string>();
            auto read_checked = [&](const std::string& rel) {
                std::string data = read_file(dir + "/" + rel);
                if (jc.contains("sha256") && jc["sha256"].is_object() && jc["sha256"].contains(rel)) {
                    std::string want = jc["sha256"][rel].get<std::string>();
                    std::string got = corpus::sha256_hex(data);
                    if (want != got)
                        c.problems.push_back(k.id + ": " + rel + " has SHA-256 " + got + ", the manifest says " + want);
                }
                return data;
            };
            k.input = read_checked(k.input_path);
            std::string exp = str_or(jc, "expected");
            if (!exp.empty()) k.expected = read_checked(exp), k.expected_path = exp;
            k.listing_path = str_or(jc, "listing");
            // What a testee that accepts an implementation-defined case must produce: content
            // JSON (decode), JSON lines (stream) or bytes (encode).
            std::string if_acc = str_or(jc, "if_accepted");
            if (!if_acc.empty()) k.if_accepted = read_checked(if_acc), k.if_accepted_path = if_acc;
            // The reference's choice: implementation-defined cases that name an error are
            // rejected (their `expected` is then what a lenient reader would produce).
            k.expect_accept = k.verdict != Verdict::invalid && k.error.empty();
            // Small inputs that must be refused are where a reader might trust a declared size.
            k.check_memory = !k.expect_accept && k.kind != Kind::encode && k.input.size() < (1u << 20);
            if (k.expect_accept && !k.expected && k.kind != Kind::stream)
                throw std::runtime_error("an accepted case without an expected file");
        } catch (const std::exception& e) {
            c.problems.push_back((k.id.empty() ? std::string("a case") : k.id) + ": " + e.what());
            continue;
        }
        c.cases.push_back(std::move(k));
    }
    try {
        load_rules(c);
    } catch (const std::exception& e) {
        c.problems.push_back(std::string("rules.json: ") + e.what());
    }
    return c;
}

}  // namespace ond::conformance
