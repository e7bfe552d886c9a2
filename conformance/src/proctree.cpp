#include "proctree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>


namespace ond::conformance {

namespace {

std::mutex roots_mutex;
std::map<pid_t, std::uint64_t> roots;  // live root pid -> serial

// A small /proc file, read with one open/read/close (no iostreams: this runs every few ms).
std::string slurp(const std::string& path, std::size_t cap = 65536) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    std::string s;
    char buf[4096];
    for (;;) {
        ssize_t r = ::read(fd, buf, sizeof buf);
        if (r > 0) {
            s.append(buf, static_cast<std::size_t>(r));
            if (s.size() >= cap) break;
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        break;
    }
    ::close(fd);
    return s;
}

std::vector<pid_t> children_of(pid_t pid) {
    std::vector<pid_t> out;
    std::string base = "/proc/" + std::to_string(pid) + "/task";
    DIR* d = ::opendir(base.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::string list = slurp(base + "/" + e->d_name + "/children");
        const char* p = list.c_str();
        char* end = nullptr;
        for (long v = std::strtol(p, &end, 10); end != p; v = std::strtol(p, &end, 10)) {
            out.push_back(static_cast<pid_t>(v));
            p = end;
        }
    }
    ::closedir(d);
    return out;
}

char state_of(pid_t pid) {
    std::string s = slurp("/proc/" + std::to_string(pid) + "/stat", 1024);
    auto close = s.rfind(')');
    if (close == std::string::npos || close + 2 >= s.size()) return '?';
    return s[close + 2];
}

// The serial of the testee a process belongs to; 0 when it carries no marker of this runner.
std::uint64_t marker_of(pid_t pid, bool& has_marker) {
    std::string env = slurp("/proc/" + std::to_string(pid) + "/environ", 1u << 20);
    std::string want = "OND_CONFORM_TESTEE=" + std::to_string(::getpid()) + ":";
    has_marker = false;
    for (std::size_t pos = 0; pos < env.size();) {
        auto end = env.find('\0', pos);
        if (end == std::string::npos) end = env.size();
        if (env.compare(pos, want.size(), want) == 0) {
            has_marker = true;
            return std::strtoull(env.c_str() + pos + want.size(), nullptr, 10);
        }
        pos = end + 1;
    }
    return 0;
}

}  // namespace

bool become_subreaper() {
    static const bool ok = ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    return ok;
}

std::string testee_marker(std::uint64_t serial) {
    return "OND_CONFORM_TESTEE=" + std::to_string(::getpid()) + ":" + std::to_string(serial);
}

pid_t spawn_registered(const std::function<pid_t()>& spawn, std::uint64_t serial) {
    std::lock_guard lock(roots_mutex);
    pid_t pid = spawn();
    if (pid > 0) roots[pid] = serial;
    return pid;
}

void unregister_root(pid_t pid) {
    std::lock_guard lock(roots_mutex);
    roots.erase(pid);
}

std::vector<pid_t> descendants(pid_t root) {
    std::vector<pid_t> out;
    std::vector<pid_t> todo = children_of(root);
    std::set<pid_t> seen;
    while (!todo.empty() && out.size() < 100000) {
        pid_t p = todo.back();
        todo.pop_back();
        if (!seen.insert(p).second) continue;
        out.push_back(p);
        for (pid_t c : children_of(p)) todo.push_back(c);
    }
    return out;
}

long vm_field_kb(pid_t pid, const char* field) {
    std::string s = slurp("/proc/" + std::to_string(pid) + "/status", 8192);
    auto at = s.find(field);
    if (at == std::string::npos) return 0;
    return std::strtol(s.c_str() + at + std::strlen(field), nullptr, 10);
}

bool reset_peak(pid_t pid) {
    int fd = ::open(("/proc/" + std::to_string(pid) + "/clear_refs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = ::write(fd, "5", 1) == 1;
    ::close(fd);
    return ok;
}

long tree_peak_kb(pid_t root, bool with_root, bool root_current_rss) {
    long sum = 0;
    if (with_root) sum += vm_field_kb(root, root_current_rss ? "VmRSS:" : "VmHWM:");
    for (pid_t p : descendants(root)) sum += vm_field_kb(p, "VmHWM:");
    return sum;
}

void kill_descendants(pid_t root) {
    for (int round = 0; round < 100; ++round) {
        bool any = false;
        for (pid_t p : descendants(root)) {
            if (state_of(p) == 'Z') continue;
            ::kill(p, SIGKILL);
            any = true;
        }
        if (!any) return;
        ::usleep(round < 10 ? 200 : 2000);
    }
}

int sweep_orphans(std::uint64_t serial, bool all) {
    std::lock_guard lock(roots_mutex);
    std::set<std::uint64_t> live;
    for (const auto& [pid, s] : roots) live.insert(s);
    int killed = 0;
    for (int round = 0; round < 50; ++round) {
        bool again = false;
        for (pid_t p : children_of(::getpid())) {
            if (roots.count(p)) continue;
            if (state_of(p) == 'Z') {
                ::waitpid(p, nullptr, WNOHANG);
                continue;
            }
            bool has = false;
            std::uint64_t s = marker_of(p, has);
            if (!(all || !has || s == serial || !live.count(s))) continue;
            kill_descendants(p);
            ::kill(p, SIGKILL);
            ::waitpid(p, nullptr, 0);
            ++killed;
            again = true;  // its own children were re-parented to us meanwhile
        }
        if (!again) break;
    }
    return killed;
}

}  // namespace ond::conformance
