#include "suite/cases.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>


namespace ond::conformance {

const char* origin_name(Origin o) noexcept {
    switch (o) {
        case Origin::corpus: return "corpus";
        case Origin::bitflip: return "bitflip";
        case Origin::prefix: return "prefix";
        case Origin::mutation: return "mutation";
        case Origin::memory: return "memory";
        case Origin::large: return "large";
        case Origin::fuzz: return "fuzz";
    }
    return "?";
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

Corpus load_corpus(const std::string& dir) {
    const corpus::Manifest m = corpus::Manifest::read(dir);
    Corpus c;
    c.dir = dir;
    c.corpus_version = m.corpus_version;
    c.format_version = m.format_version;
    c.problems = m.problems;
    for (const corpus::ManifestCase& mc : m.cases) {
        for (const std::string& f : mc.former_ids) c.former_ids.emplace(f, mc.id);
        Case k;
        try {
            k.id = mc.id;
            k.kind = mc.kind;
            k.area = mc.area;
            k.verdict = mc.verdict;
            k.rules = mc.rules;
            k.description = mc.description;
            k.error = mc.error;
            k.canonical = mc.canonical;
            k.input_path = mc.input;
            k.input = m.read_checked(mc, mc.input, c.problems);
            if (!mc.expected.empty()) k.expected = m.read_checked(mc, mc.expected, c.problems), k.expected_path = mc.expected;
            k.listing_path = mc.listing;
            // What a testee that accepts an implementation-defined case must produce: content
            // JSON (decode), JSON lines (stream) or bytes (encode).
            if (!mc.if_accepted.empty())
                k.if_accepted = m.read_checked(mc, mc.if_accepted, c.problems), k.if_accepted_path = mc.if_accepted;
            for (const std::string& also : mc.if_accepted_also) {
                k.if_accepted_also.push_back(m.read_checked(mc, also, c.problems));
                k.if_accepted_also_paths.push_back(also);
            }
            // The reference's choice: implementation-defined cases that name an error are
            // rejected (their `expected` is then what a lenient reader would produce).
            k.expect_accept = k.verdict != CaseVerdict::invalid && k.error.empty();
            // Small inputs that must be refused are where a reader might trust a declared size.
            k.check_memory = !k.expect_accept && k.kind != CaseKind::encode && k.input.size() < (1u << 20);
            if (k.expect_accept && !k.expected && k.kind != CaseKind::stream)
                throw std::runtime_error("an accepted case without an expected file");
        } catch (const std::exception& e) {
            c.problems.push_back(k.id + ": " + e.what());
            continue;
        }
        c.cases.push_back(std::move(k));
    }
    try {
        c.rules = corpus::read_rules(dir);
    } catch (const std::exception& e) {
        c.problems.push_back(std::string("rules.json: ") + e.what());
    }
    return c;
}

}  // namespace ond::conformance
