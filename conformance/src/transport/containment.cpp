#include "transport/containment.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "transport/proctree.hpp"

namespace ond::conformance {

namespace {

constexpr const char* shm_dir = "/dev/shm";

std::string read_small(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    std::string s;
    char buf[4096];
    for (;;) {
        ssize_t r = ::read(fd, buf, sizeof buf);
        if (r > 0) {
            s.append(buf, static_cast<std::size_t>(r));
            if (s.size() > (1u << 20)) break;
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        break;
    }
    ::close(fd);
    return s;
}

bool write_small(const std::string& path, std::string_view text) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

long bytes_file_kb(const std::string& path) {
    const std::string s = read_small(path);
    if (s.empty()) return 0;
    return static_cast<long>(std::strtoull(s.c_str(), nullptr, 10) / 1024);
}

// The value of `key` in a "key value" file (memory.events, memory.oom_control).
long keyed_value(const std::string& text, std::string_view key) {
    for (std::size_t pos = 0; pos < text.size();) {
        auto end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string_view line(text.data() + pos, end - pos);
        if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
            return std::strtol(std::string(line.substr(key.size() + 1)).c_str(), nullptr, 10);
        pos = end + 1;
    }
    return 0;
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    for (std::size_t pos = 0;;) {
        auto end = s.find(sep, pos);
        out.emplace_back(s.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        if (end == std::string_view::npos) return out;
        pos = end + 1;
    }
}

bool has_word(const std::string& list, std::string_view word, char sep = ' ') {
    for (auto& w : split(list, sep)) {
        std::string t = w;
        while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
        if (t == word) return true;
    }
    return false;
}

// A mounted cgroup hierarchy: where it is, and which of its cgroups this process is in.
struct Hierarchy {
    std::string own;  // the directory of this process's cgroup; empty when not found
};

// The directory of this process's cgroup in the hierarchy mounted with `fstype` (and, for version
// 1, the `memory` controller), from /proc/self/mountinfo and /proc/self/cgroup.
Hierarchy find_hierarchy(bool v2) {
    Hierarchy h;
    std::string mount_point, mount_root;
    for (const auto& line : split(read_small("/proc/self/mountinfo"), '\n')) {
        auto dash = line.find(" - ");
        if (dash == std::string::npos) continue;
        auto left = split(line.substr(0, dash), ' ');
        auto right = split(line.substr(dash + 3), ' ');
        if (left.size() < 5 || right.size() < 3) continue;
        if (v2 ? right[0] == "cgroup2" : (right[0] == "cgroup" && has_word(right[2], "memory", ','))) {
            mount_root = left[3], mount_point = left[4];
            break;
        }
    }
    if (mount_point.empty()) return h;
    for (const auto& line : split(read_small("/proc/self/cgroup"), '\n')) {
        auto c1 = line.find(':'), c2 = line.find(':', c1 + 1);
        if (c1 == std::string::npos || c2 == std::string::npos) continue;
        const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
        if (v2 ? !controllers.empty() : !has_word(controllers, "memory", ',')) continue;
        std::string path = line.substr(c2 + 1);
        if (mount_root != "/" && path.rfind(mount_root, 0) == 0) path = path.substr(mount_root.size());
        h.own = mount_point + (path == "/" ? "" : path);
        break;
    }
    return h;
}

bool is_zombie(pid_t pid) {
    const std::string st = read_small("/proc/" + std::to_string(pid) + "/stat");
    const auto close = st.rfind(')');
    return close != std::string::npos && close + 2 < st.size() && st[close + 2] == 'Z';
}

std::string group_prefix() { return "ond-conform-" + std::to_string(::getpid()) + "-"; }

// Groups of runners that are gone (killed before they could remove them), if they are empty.
void remove_stale_groups(const std::string& parent) {
    DIR* d = ::opendir(parent.c_str());
    if (!d) return;
    std::vector<std::string> stale;
    while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name.rfind("ond-conform-", 0) != 0) continue;
        const long pid = std::strtol(name.c_str() + 12, nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) stale.push_back(parent + "/" + name);
    }
    ::closedir(d);
    for (const auto& s : stale) ::rmdir(s.c_str());
}

struct Base {
    Accounting kind = Accounting::sampling;
    std::string parent;  // where the groups are made
};

bool can_make_group_in(const std::string& parent) {
    const std::string probe = parent + "/" + group_prefix() + "probe";
    if (::mkdir(probe.c_str(), 0755) != 0) return false;
    const bool ok = ::access((probe + "/cgroup.procs").c_str(), W_OK) == 0;
    ::rmdir(probe.c_str());
    return ok;
}

// Version 2: the nearest cgroup at or above this process's own that hands the memory controller
// to its children (a cgroup with processes in it cannot, so usually an ancestor: the runner's
// slice, or the root). Version 1: below this process's own memory cgroup.
Base find_base() {
    if (Hierarchy h = find_hierarchy(true); !h.own.empty()) {
        for (std::string dir = h.own;; dir = dir.substr(0, dir.rfind('/'))) {
            if (has_word(read_small(dir + "/cgroup.subtree_control"), "memory") && can_make_group_in(dir)) {
                remove_stale_groups(dir);
                return {Accounting::cgroup_v2, dir};
            }
            if (::access((dir + "/cgroup.procs").c_str(), F_OK) != 0 || dir.rfind('/') == 0 ||
                ::access((dir.substr(0, dir.rfind('/')) + "/cgroup.procs").c_str(), F_OK) != 0)
                break;  // the hierarchy's root was the last
        }
    }
    if (Hierarchy h = find_hierarchy(false); !h.own.empty() && can_make_group_in(h.own)) {
        remove_stale_groups(h.own);
        return {Accounting::cgroup_v1, h.own};
    }
    return {};
}

const Base& base() {
    static const Base b = find_base();
    return b;
}

std::atomic<bool> forced{false};

}  // namespace

const char* accounting_name(Accounting a) noexcept {
    switch (a) {
        case Accounting::cgroup_v2: return "cgroup v2";
        case Accounting::cgroup_v1: return "cgroup v1";
        case Accounting::sampling: return "process-tree sampling";
    }
    return "?";
}

Accounting available_accounting() { return forced ? Accounting::sampling : base().kind; }
void force_sampling(bool on) { forced = on; }
bool sampling_forced() { return forced; }

std::size_t groups_of_this_runner() {
    const Base& b = base();
    if (b.kind == Accounting::sampling) return 0;
    std::size_t n = 0;
    if (DIR* d = ::opendir(b.parent.c_str())) {
        while (dirent* e = ::readdir(d)) n += std::string(e->d_name).rfind(group_prefix(), 0) == 0;
        ::closedir(d);
    }
    return n;
}

Containment::Containment(std::uint64_t serial, long cap_kb) : cap_kb_(cap_kb) {
    if (!forced) shm_options_ = "mode=1777,size=" + (cap_kb > 0 ? std::to_string(cap_kb) + "k" : std::string("50%"));
    if (DIR* d = ::opendir(shm_dir)) {
        while (dirent* e = ::readdir(d)) shm_before_.insert(e->d_name);
        ::closedir(d);
    }
    const Base& b = base();
    if (forced || b.kind == Accounting::sampling) return;
    const std::string dir = b.parent + "/" + group_prefix() + std::to_string(serial);
    if (::mkdir(dir.c_str(), 0755) != 0) return;  // sampling for this one
    dir_ = dir;
    accounting_ = b.kind;
    const bool v2 = accounting_ == Accounting::cgroup_v2;
    if (cap_kb > 0) {
        const std::string limit = std::to_string(kernel_limit_kb(cap_kb) * 1024);
        write_small(file(v2 ? "memory.max" : "memory.limit_in_bytes"), limit);
        if (v2) write_small(file("memory.swap.max"), "0");
    }
    if (v2) {
        // A descriptor of memory.peak that a write resets (Linux 6.12); else memory.current sampled.
        peak_fd_ = ::open(file("memory.peak").c_str(), O_RDWR | O_CLOEXEC);
        if (peak_fd_ >= 0 && ::write(peak_fd_, "reset\n", 6) != 6) ::close(peak_fd_), peak_fd_ = -1;
    }
    join_fd_ = ::open(file("cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (join_fd_ < 0) {
        ::rmdir(dir_.c_str());
        dir_.clear();
        accounting_ = Accounting::sampling;
    }
}

Containment::~Containment() {
    kill_all(-1);
    if (join_fd_ >= 0) ::close(join_fd_);
    if (peak_fd_ >= 0) ::close(peak_fd_);
    // A process killed a moment ago leaves the group as it exits.
    for (int i = 0; !dir_.empty() && i < 500; ++i) {
        if (::rmdir(dir_.c_str()) == 0 || errno == ENOENT) break;
        ::usleep(2000);
    }
}

void Containment::set_private_shm(bool yes) {
    private_shm_ = yes;
    if (yes) shm_before_.clear();
}

long Containment::shm_files_kb() {
    if (private_shm_) return 0;
    long kb = 0;
    DIR* d = ::opendir(shm_dir);
    if (!d) return 0;
    while (dirent* e = ::readdir(d)) {
        if (shm_before_.count(e->d_name)) continue;
        struct stat st {};
        if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_uid == ::geteuid())
            kb += static_cast<long>(st.st_blocks / 2);  // 512-byte blocks
    }
    ::closedir(d);
    return kb;
}

void Containment::remove_shm_files() {
    if (private_shm_) return;
    std::vector<std::string> made;
    if (DIR* d = ::opendir(shm_dir)) {
        while (dirent* e = ::readdir(d)) {
            struct stat st {};
            if (!shm_before_.count(e->d_name) && ::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                st.st_uid == ::geteuid())
                made.push_back(std::string(shm_dir) + "/" + e->d_name);
        }
        ::closedir(d);
    }
    std::error_code ec;
    for (const auto& path : made) std::filesystem::remove_all(path, ec);
}

long Containment::start_window(pid_t root) {
    switch (accounting_) {
        case Accounting::cgroup_v1:
            write_small(file("memory.max_usage_in_bytes"), "0");  // the peak := the usage now
            return bytes_file_kb(file("memory.usage_in_bytes"));
        case Accounting::cgroup_v2:
            if (peak_fd_ >= 0 && ::write(peak_fd_, "reset\n", 6) != 6) ::close(peak_fd_), peak_fd_ = -1;
            sampled_peak_kb_ = bytes_file_kb(file("memory.current"));
            return sampled_peak_kb_;
        case Accounting::sampling: break;
    }
    tree_peaks_reset_ = reset_tree_peaks(root);
    sampled_peak_kb_ = 0;
    return tree_rss_kb(root) + shm_files_kb();
}

long Containment::peak_kb(pid_t root) {
    switch (accounting_) {
        case Accounting::cgroup_v1: return bytes_file_kb(file("memory.max_usage_in_bytes"));
        case Accounting::cgroup_v2:
            if (peak_fd_ >= 0) {
                char buf[64];
                ssize_t r = ::pread(peak_fd_, buf, sizeof buf - 1, 0);
                if (r > 0) return buf[r] = 0, static_cast<long>(std::strtoull(buf, nullptr, 10) / 1024);
            }
            sampled_peak_kb_ = std::max(sampled_peak_kb_, bytes_file_kb(file("memory.current")));
            return sampled_peak_kb_;
        case Accounting::sampling: break;
    }
    // A tree whose peaks could not be reset is judged on what it holds now (sampled).
    sampled_peak_kb_ = std::max(sampled_peak_kb_, tree_peak_kb(root, true, !tree_peaks_reset_) + shm_files_kb());
    return sampled_peak_kb_;
}

long Containment::held_kb(pid_t root) {
    switch (accounting_) {
        case Accounting::cgroup_v1: return bytes_file_kb(file("memory.usage_in_bytes"));
        case Accounting::cgroup_v2: return bytes_file_kb(file("memory.current"));
        case Accounting::sampling: break;
    }
    return tree_rss_kb(root) + shm_files_kb();
}

bool Containment::kernel_killed() const {
    switch (accounting_) {
        case Accounting::cgroup_v1: return keyed_value(read_small(file("memory.oom_control")), "oom_kill") > 0;
        case Accounting::cgroup_v2: return keyed_value(read_small(file("memory.events")), "oom_kill") > 0;
        case Accounting::sampling: break;
    }
    return false;
}

void Containment::kill_all(pid_t root) {
    if (!dir_.empty()) {
        write_small(file("cgroup.kill"), "1");  // version 2 (Linux 5.14); else one by one
        for (int round = 0; round < 1500; ++round) {
            const std::string procs = read_small(file("cgroup.procs"));
            bool any = false;
            const char* p = procs.c_str();
            char* end = nullptr;
            for (long v = std::strtol(p, &end, 10); end != p; v = std::strtol(p, &end, 10)) {
                // A zombie holds no memory and waits for its parent (the runner, for an orphan).
                if (v > 0 && !is_zombie(static_cast<pid_t>(v))) ::kill(static_cast<pid_t>(v), SIGKILL), any = true;
                p = end;
            }
            if (!any) break;
            ::usleep(round < 10 ? 200 : 2000);
        }
    } else if (root > 0) {
        kill_descendants(root);
    }
    remove_shm_files();
}

}  // namespace ond::conformance
