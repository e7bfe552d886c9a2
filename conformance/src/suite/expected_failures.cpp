#include "suite/expected_failures.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "ond/text_escape.hpp"
#include "suite/large.hpp"

namespace ond::conformance {

namespace {

std::string where(std::size_t line) { return "expected-failures:" + std::to_string(line) + ": "; }

// The file's bytes, refused at the first byte past a bound or at a NUL byte: never more than
// the bound in memory, whatever the file is (/dev/zero, an endless pipe). A pipe is polled, so a
// writer that stalls costs at most `seconds`.
std::string read_bounded(const std::string& path, int seconds) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO without a writer must not block
    if (fd < 0) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    struct Close {
        int fd;
        ~Close() { ::close(fd); }
    } close_fd{fd};
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    std::string text;
    std::size_t line = 1;
    char buf[1 << 16];
    for (;;) {
        if (!regular) {
            // A FIFO whose writer has not come yet polls as not ready (and reads as at its end).
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            pollfd p{fd, POLLIN, 0};
            const int ready = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0)
                throw std::runtime_error("expected-failures: " + path + " did not end within " +
                                         std::to_string(seconds) + " s");
        }
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
        if (n == 0) return text;
        for (ssize_t i = 0; i < n; ++i) {
            if (text.size() == expected_failures_max_bytes)
                throw std::runtime_error(where(line) + path + " is longer than " + std::to_string(expected_failures_max_bytes) +
                                         " bytes (1 MiB), the most an expected-failures list may hold");
            if (line > expected_failures_max_lines)
                throw std::runtime_error(where(line) + path + " has more than " + std::to_string(expected_failures_max_lines) +
                                         " lines, the most an expected-failures list may hold");
            if (buf[i] == '\0')
                throw std::runtime_error(where(line) + "a NUL byte: " + path + " is not a text list of case ids");
            if (buf[i] == '\n') ++line;
            text.push_back(buf[i]);
        }
    }
}

void trim(std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string quoted(const std::string& id) { return "'" + escape_text(id) + "'"; }

}  // namespace

std::vector<ListedFailure> read_expected_failures(const std::string& path, int seconds) {
    std::string text = read_bounded(path, seconds);
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // a UTF-8 BOM some editors write
    std::vector<ListedFailure> list;
    std::size_t line = 0, at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        ListedFailure f;
        f.line = ++line;
        f.id = text.substr(at, end - at);
        at = end + 1;
        if (auto hash = f.id.find('#'); hash != std::string::npos) {
            f.reason = f.id.substr(hash + 1);
            f.id.resize(hash);
        }
        trim(f.id);
        trim(f.reason);
        if (!f.id.empty()) list.push_back(std::move(f));
    }
    return list;
}

ExpectedFailures resolve_expected_failures(const std::vector<ListedFailure>& list, const Corpus& corpus,
                                           const std::set<std::string>& planned, bool large) {
    std::set<std::string> current;
    for (const Case& c : corpus.cases) current.insert(c.id);
    const std::string version = corpus.corpus_version;
    std::set<std::string> large_ids;  // made when an entry needs them
    auto is_large_case = [&](const std::string& id) {
        if (id.rfind("large/", 0) != 0) return false;
        if (large_ids.empty())
            for (const Case& c : large_cases()) large_ids.insert(c.id);
        return large_ids.count(id) > 0;
    };
    ExpectedFailures out;
    for (const ListedFailure& f : list) {
        std::string id = f.id;
        // A derived case is named after its source: derived/ORIGIN/SOURCE/VARIANT.
        const bool is_derived = id.rfind("derived/", 0) == 0;
        const std::size_t source_at = is_derived ? id.find('/', 8) : std::string::npos;
        const std::size_t variant_at = id.rfind('/');
        std::string source = source_at != std::string::npos && variant_at > source_at ? id.substr(source_at + 1, variant_at - source_at - 1)
                                                                                     : std::string();
        if (auto renamed = corpus.former_ids.find(is_derived ? source : id); renamed != corpus.former_ids.end()) {
            id = is_derived ? id.substr(0, source_at + 1) + renamed->second + id.substr(variant_at) : renamed->second;
            source = renamed->second;
            out.notes.push_back(where(f.line) + quoted(f.id) + " is now " + quoted(id) + " (" + (is_derived ? "its source was " : "") +
                                "renamed before corpus " + version + "); update the list");
        }
        if (!current.count(id) && !planned.count(id)) {
            if (id.rfind("fuzz/", 0) == 0) {
                // A --fuzz case exists only in the run that found it: never unknown.
            } else if (is_derived && current.count(source)) {
                out.notes.push_back(where(f.line) + quoted(id) + " is a case derived from " + quoted(source) +
                                    " that this run did not make (the derived cases depend on --seed and --max-derived)");
            } else if (!large && is_large_case(id)) {
                out.notes.push_back(where(f.line) + quoted(id) + " runs only with --large");
            } else {
                out.unknown.push_back(where(f.line) + quoted(id) + " matches no case of corpus " + version);
                out.unknown_ids.push_back(id);
                continue;
            }
        }
        out.reasons.emplace(id, f.reason);
    }
    return out;
}

}  // namespace ond::conformance
