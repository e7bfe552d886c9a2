#include "transport/proctree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/kcmp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace ond::conformance {

namespace {

// Never destroyed: the reaping thread may still look at them while the process exits.
std::mutex& roots_mutex = *new std::mutex;
std::map<pid_t, std::uint64_t>& roots = *new std::map<pid_t, std::uint64_t>;  // live root pid -> serial

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

// Where a process's memory image was laid out (stat fields 28, 47, 48 and 50: stack, heap, argv
// and environment). exec randomises them, so a child whose layout equals its parent's has not
// exec'd since it was forked: it is a copy of the parent. Empty when unreadable.
std::string layout_of(pid_t pid) {
    std::string s = slurp("/proc/" + std::to_string(pid) + "/stat", 1024);
    auto close = s.rfind(')');
    if (close == std::string::npos) return {};
    std::string out;
    const char* p = s.c_str() + close + 2;
    for (int field = 3; *p && field <= 50; ++field) {
        const char* end = std::strchr(p, ' ');
        if (!end) end = p + std::strlen(p);
        if (field == 28 || field == 47 || field == 48 || field == 50) out.append(p, end).push_back(' ');
        p = *end ? end + 1 : end;
    }
    return out.size() > 8 ? out : std::string();
}

// Memory only this process holds (smaps_rollup's Private_Clean + Private_Dirty), in KiB.
long private_kb(pid_t pid) {
    std::string s = slurp("/proc/" + std::to_string(pid) + "/smaps_rollup", 8192);
    long sum = 0;
    for (const char* field : {"Private_Clean:", "Private_Dirty:"})
        if (auto at = s.find(field); at != std::string::npos) sum += std::strtol(s.c_str() + at + std::strlen(field), nullptr, 10);
    return sum;
}

enum class Sharing { same_memory, fork_copy, own_program };

// How a child's memory relates to its parent's. A child made with CLONE_VM (vfork, posix_spawn)
// uses the parent's very memory until it execs; a forked child shares the parent's pages
// copy-on-write until it execs. Either one's VmHWM counts the parent's memory again.
Sharing sharing_of(pid_t child, pid_t parent) {
    const long same_vm = ::syscall(SYS_kcmp, child, parent, KCMP_VM, 0, 0);
    if (same_vm == 0) return Sharing::same_memory;
    const std::string layout = layout_of(child);
    if (layout.empty() || layout != layout_of(parent)) return Sharing::own_program;
    // kcmp unavailable: one memory moves both processes' resident sizes together.
    if (same_vm < 0 && vm_field_kb(child, "VmRSS:") == vm_field_kb(parent, "VmRSS:")) return Sharing::same_memory;
    return Sharing::fork_copy;
}

// Reaps the runner's adopted children that have exited, never a registered root (its owner
// reaps it), and nothing while no testee runs (the process's own children are its own).
int reap_adopted() {
    int reaped = 0;
    std::lock_guard lock(roots_mutex);
    if (roots.empty()) return 0;
    for (pid_t p : children_of(::getpid()))
        if (!roots.count(p) && state_of(p) == 'Z' && ::waitpid(p, nullptr, WNOHANG) == p) ++reaped;
    return reaped;
}

// Orphans handed to the runner (their subreaper) are reaped as they come while any testee runs,
// not only when a case's I/O loop comes round: a process that forks and exits in a loop hands
// over a zombie per hop, thousands a second. Each reap is O(1) (a peek at the next exited child,
// then waitpid), so reaping keeps pace with the hops; a /proc scan per zombie would not. A root
// is its owner's to reap: when one is first in line, the others are found by a scan. This is the
// only reaper of adopted children while testees run (the poll loops leave it to this thread).
[[noreturn]] void reap_while_testees_run() {
    for (;;) {
        siginfo_t info{};
        const bool exited = ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid > 0;
        bool reaped = false, root_first = false;
        if (exited) {
            std::lock_guard lock(roots_mutex);
            // Nothing of ours running: the process's own children are its own.
            if (!roots.empty() && !roots.count(info.si_pid)) reaped = ::waitpid(info.si_pid, nullptr, WNOHANG) == info.si_pid;
            root_first = roots.count(info.si_pid) > 0;
        }
        if (root_first) reap_adopted();
        if (!reaped) ::usleep(root_first ? 200 : 1000);
    }
}

}  // namespace

bool become_subreaper() {
    static const bool ok = [] {
        const bool set = ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
        if (set) std::thread(reap_while_testees_run).detach();
        return set;
    }();
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

std::vector<std::pair<pid_t, pid_t>> descendants_with_parents(pid_t root) {
    std::vector<std::pair<pid_t, pid_t>> out;  // (process, parent)
    std::vector<std::pair<pid_t, pid_t>> todo;
    for (pid_t c : children_of(root)) todo.emplace_back(c, root);
    std::set<pid_t> seen;
    while (!todo.empty() && out.size() < 100000) {
        const auto next = todo.back();
        todo.pop_back();
        if (!seen.insert(next.first).second) continue;
        out.push_back(next);
        for (pid_t c : children_of(next.first)) todo.emplace_back(c, next.first);
    }
    return out;
}

std::vector<pid_t> descendants(pid_t root) {
    std::vector<pid_t> out;
    for (const auto& [p, parent] : descendants_with_parents(root)) out.push_back(p);
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

namespace {

// The root's own memory, none while it still runs in the runner's. posix_spawn returns when the
// kernel releases the waiting parent, which an exec does before it switches the child to its new
// memory: for that moment the child's /proc status is the runner's. kcmp is asked first, so a
// later read of the status is of the new memory.
long root_field_kb(pid_t root, const char* field) {
    const pid_t self = ::getpid();
    const long same_vm = ::syscall(SYS_kcmp, root, self, KCMP_VM, 0, 0);
    if (same_vm == 0) return 0;
    if (same_vm < 0 && layout_of(root) == layout_of(self)) return 0;  // no kcmp: not exec'd yet
    return vm_field_kb(root, field);
}

}  // namespace

long tree_peak_kb(pid_t root, bool with_root, bool root_current_rss) {
    long sum = 0;
    if (with_root) sum += root_field_kb(root, root_current_rss ? "VmRSS:" : "VmHWM:");
    // Each descendant adds its own peak, except the memory it shares with its parent: a copy
    // that has not exec'd adds only its private pages (sampled, as the kernel keeps no peak of
    // those), a child inside the parent's memory adds nothing.
    for (const auto& [p, parent] : descendants_with_parents(root)) {
        switch (sharing_of(p, parent)) {
            case Sharing::same_memory: break;
            case Sharing::fork_copy: sum += private_kb(p); break;
            case Sharing::own_program: sum += vm_field_kb(p, "VmHWM:"); break;
        }
    }
    return sum;
}

long tree_rss_kb(pid_t root) {
    long sum = root_field_kb(root, "VmRSS:");
    for (const auto& [p, parent] : descendants_with_parents(root)) {
        switch (sharing_of(p, parent)) {
            case Sharing::same_memory: break;
            case Sharing::fork_copy: sum += private_kb(p); break;
            case Sharing::own_program: sum += vm_field_kb(p, "VmRSS:"); break;
        }
    }
    return sum;
}

bool reset_tree_peaks(pid_t root) {
    bool all = reset_peak(root);
    for (pid_t p : descendants(root)) all = reset_peak(p) && all;
    return all;
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
    // A process that forks and exits hands its child to us only as it exits: a round that found
    // anything (a kill, or a zombie reaped) is followed by more, and the sweep ends after rounds
    // that found nothing, the last ones a moment apart.
    bool found_any = false;
    for (int round = 0, quiet = 0; round < 10000 && quiet < (found_any ? 3 : 1); ++round) {
        bool found = false;
        for (pid_t p : children_of(::getpid())) {
            if (roots.count(p)) continue;
            if (state_of(p) == 'Z') {
                found = ::waitpid(p, nullptr, WNOHANG) == p || found;
                continue;
            }
            bool has = false;
            std::uint64_t s = marker_of(p, has);
            if (!(all || !has || s == serial || !live.count(s))) continue;
            kill_descendants(p);
            ::kill(p, SIGKILL);
            ::waitpid(p, nullptr, 0);
            ++killed;
            found = true;
        }
        found_any = found_any || found;
        quiet = found ? 0 : quiet + 1;
        if (!found && found_any) ::usleep(500);
    }
    return killed;
}

}  // namespace ond::conformance
