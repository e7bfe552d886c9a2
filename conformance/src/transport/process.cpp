#include "transport/process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "transport/proctree.hpp"
#include "transport/spawn.hpp"

namespace ond::conformance {

using namespace spawning;

std::string memory_cap_exceeded(long held_kb, long cap_kb) {
    return "memory cap exceeded: the adapter and all it started held " + std::to_string((held_kb + 1023) / 1024) + " MiB, over the cap of " +
           std::to_string(cap_kb / 1024) + " MiB (--memory-limit); process tree killed";
}

namespace {

// The least of the machine's memory and the limits of the cgroups this process is in, in KiB.
long available_memory_kb() {
    long kb = 0;
    if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
        if (std::fscanf(f, "MemTotal: %ld kB", &kb) != 1) kb = 0;
        std::fclose(f);
    }
    auto limit_of = [&](const std::string& file) {
        std::FILE* f = std::fopen(file.c_str(), "r");
        if (!f) return;
        unsigned long long bytes = 0;
        if (std::fscanf(f, "%llu", &bytes) == 1 && bytes > 0 && (kb <= 0 || static_cast<long long>(bytes / 1024) < kb))
            kb = static_cast<long>(bytes / 1024);
        std::fclose(f);
    };
    if (std::FILE* f = std::fopen("/proc/self/cgroup", "r")) {
        char line[4096];
        while (std::fgets(line, sizeof line, f)) {
            std::string l(line);
            if (!l.empty() && l.back() == '\n') l.pop_back();
            auto c1 = l.find(':'), c2 = l.find(':', c1 + 1);
            if (c1 == std::string::npos || c2 == std::string::npos) continue;
            const std::string controllers = l.substr(c1 + 1, c2 - c1 - 1), path = l.substr(c2 + 1);
            if (controllers.empty()) {
                limit_of("/sys/fs/cgroup" + path + "/memory.max");
                limit_of("/sys/fs/cgroup/unified" + path + "/memory.max");
            } else if (controllers == "memory") {
                limit_of("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes");
                limit_of("/sys/fs/cgroup/memory/memory.limit_in_bytes");
            }
        }
        std::fclose(f);
    }
    return kb;
}

}  // namespace

long default_memory_cap_kb(unsigned jobs) {
    const long floor_kb = 1L << 20;  // 1 GiB: a JVM or V8 with its default heap fits
    const long avail = available_memory_kb();
    if (avail <= 0) return floor_kb;
    return std::max(floor_kb, avail / 2 / static_cast<long>(std::max(1u, jobs)));
}

std::string describe_memory_cap(long cap_kb) {
    if (cap_kb <= 0) return "none";
    return std::to_string(cap_kb / 1024) + " MiB of resident memory per testee process tree (killed over it)";
}

void Excerpt::add(const char* p, std::size_t n) {
    total += n;
    if (head.size() < keep) {
        std::size_t take = std::min(n, keep - head.size());
        head.append(p, take);
        p += take, n -= take;
    }
    if (n == 0) return;
    tail.append(p, n);
    if (tail.size() > keep) tail.erase(0, tail.size() - keep);
}

std::string Excerpt::text() const {
    std::size_t skipped = total - head.size() - tail.size();
    if (tail.empty()) return head;
    if (skipped == 0) return head + tail;
    return head + "\n[... " + std::to_string(skipped) + " bytes ...]\n" + tail;
}

bool has_shell_syntax(std::string_view cmd) {
    bool in_double = false;
    for (std::size_t i = 0; i < cmd.size(); ++i) {
        char c = cmd[i];
        if (c == '\\') {
            ++i;
            continue;
        }
        if (in_double) {
            if (c == '"') in_double = false;
            else if (c == '$' || c == '`') return true;
            continue;
        }
        if (c == '\'') {
            auto end = cmd.find('\'', i + 1);
            if (end == std::string_view::npos) return false;  // split_command reports it
            i = end;
            continue;
        }
        if (c == '"') in_double = true;
        else if (std::string_view("|&;<>()$`*?[~#{}").find(c) != std::string_view::npos) return true;
        else if (c == '=' && i > 0 && cmd.find_first_of(" \t") > i) return true;  // VAR=value cmd
    }
    return false;
}

std::vector<std::string> command_argv(std::string_view cmd) {
    if (has_shell_syntax(cmd)) return {"/bin/sh", "-c", std::string(cmd)};
    return split_command(cmd);
}

std::vector<std::string> split_command(std::string_view cmd) {
    std::vector<std::string> out;
    std::string cur;
    bool in_word = false;
    std::size_t i = 0;
    while (i < cmd.size()) {
        char c = cmd[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(std::move(cur)), cur.clear(), in_word = false;
            ++i;
        } else if (c == '\'') {
            auto end = cmd.find('\'', i + 1);
            if (end == std::string_view::npos) throw std::invalid_argument("unterminated ' in command: " + std::string(cmd));
            cur.append(cmd.substr(i + 1, end - i - 1));
            in_word = true;
            i = end + 1;
        } else if (c == '"') {
            in_word = true;
            ++i;
            for (;;) {
                if (i >= cmd.size()) throw std::invalid_argument("unterminated \" in command: " + std::string(cmd));
                char d = cmd[i];
                if (d == '"') {
                    ++i;
                    break;
                }
                if (d == '\\' && i + 1 < cmd.size() &&
                    (cmd[i + 1] == '"' || cmd[i + 1] == '\\' || cmd[i + 1] == '$' || cmd[i + 1] == '`')) {
                    cur.push_back(cmd[i + 1]);
                    i += 2;
                    continue;
                }
                cur.push_back(d);
                ++i;
            }
        } else if (c == '\\') {
            if (i + 1 < cmd.size()) {
                if (cmd[i + 1] != '\n') cur.push_back(cmd[i + 1]), in_word = true;
                i += 2;
            } else {
                ++i;
            }
        } else {
            cur.push_back(c);
            in_word = true;
            ++i;
        }
    }
    if (in_word) out.push_back(std::move(cur));
    if (out.empty()) throw std::invalid_argument("empty command");
    return out;
}

std::string resolve_executable(const std::string& name) {
    auto runnable = [](const std::string& p) {
        struct stat st {};
        return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
    };
    if (name.find('/') != std::string::npos) return runnable(name) ? name : std::string();
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        auto colon = rest.find(':');
        std::string dir(rest.substr(0, colon));
        if (dir.empty()) dir = ".";
        std::string cand = dir + "/" + name;
        if (runnable(cand)) return cand;
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
    }
    return {};
}

namespace {

// Reads what stdout has: into r.out, or through limits.out_sink (bounded by max_output either way).
bool take_stdout(int fd, ProcessResult& r, const SpawnLimits& limits, std::uint64_t& sunk) {
    if (!limits.out_sink) return read_some(fd, r.out, limits.max_output, &r.output_exceeded);
    std::string piece;
    const bool open = read_upto(fd, piece, std::size_t{1} << 20);  // the rest stays in the pipe
    // The bytes up to the limit reach the sink whatever size the reads come in: a piece that
    // crosses it is cut there, not dropped.
    const std::uint64_t room = limits.max_output - std::min<std::uint64_t>(limits.max_output, sunk);
    sunk += piece.size();
    const std::string_view within = std::string_view(piece).substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(room, piece.size())));
    if (!within.empty() && !limits.out_sink(within)) r.output_exceeded = true;
    if (sunk > limits.max_output) r.output_exceeded = true;
    return open;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::string_view input,
                          std::chrono::milliseconds timeout, SpawnLimits limits) {
    bool given = false;
    return run_process(argv, [&]() -> std::string_view {
        if (given) return {};
        given = true;
        return input;
    }, timeout, limits);
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::function<std::string_view()>& next,
                          std::chrono::milliseconds timeout, SpawnLimits limits) {
    ProcessResult r;
    auto t0 = Clock::now();
    Child ch = spawn(argv, limits.memory_limit_kb, r.error);
    if (ch.pid < 0) return r;
    r.started = true;
    r.accounting = ch.group->accounting();
    r.private_shm = ch.group->private_shm();
    // Over the cap at any moment, by the runner's samples or the kernel's own limit.
    auto over_cap = [&] { return limits.memory_limit_kb > 0 && (r.peak_kb > limits.memory_limit_kb || ch.group->kernel_killed()); };
    Excerpt err;
    std::string_view input = next();  // the piece being written
    std::size_t written = 0;
    if (input.empty()) close_fd(ch.in_w);
    auto deadline = t0 + timeout;
    bool root_done = false;
    int status = 0;
    Clock::time_point last_sample{}, done_at{};
    std::uint64_t sunk = 0;  // stdout bytes given to limits.out_sink
    while (true) {
        auto now = Clock::now();
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        if (left <= 0) {
            r.timed_out = !root_done;
            break;
        }
        if (!root_done && now - last_sample >= std::chrono::milliseconds(1)) {
            r.peak_kb = std::max(r.peak_kb, ch.group->peak_kb(ch.pid));
            last_sample = now;
            if (over_cap()) {
                r.memory_exceeded = true;
                break;
            }
        }
        if (root_done && ch.out_r < 0 && ch.err_r < 0) break;
        // Once the child is gone and its leftovers are killed, only buffered bytes remain.
        if (root_done && now - done_at > std::chrono::milliseconds(500)) break;
        pollfd fds[3];
        nfds_t n = 0;
        int idx_in = -1, idx_out = -1, idx_err = -1;
        if (ch.in_w >= 0) idx_in = static_cast<int>(n), fds[n++] = {ch.in_w, POLLOUT, 0};
        if (ch.out_r >= 0) idx_out = static_cast<int>(n), fds[n++] = {ch.out_r, POLLIN, 0};
        if (ch.err_r >= 0) idx_err = static_cast<int>(n), fds[n++] = {ch.err_r, POLLIN, 0};
        int wait_ms = root_done ? 20 : sample_interval_ms(t0);
        int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left, wait_ms)));
        if (pr < 0 && errno != EINTR) break;
        if (pr > 0) {
            if (idx_in >= 0 && fds[idx_in].revents) {
                if (fds[idx_in].revents & (POLLERR | POLLHUP)) {
                    close_fd(ch.in_w);  // the child closed its stdin: the rest of the input is not wanted
                } else {
                    ssize_t w = ::write(ch.in_w, input.data() + written, std::min<std::size_t>(input.size() - written, 65536));
                    if (w > 0) {
                        written += static_cast<std::size_t>(w);
                        if (written == input.size()) {
                            input = next();
                            written = 0;
                            if (input.empty()) close_fd(ch.in_w);
                        }
                    } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                        close_fd(ch.in_w);  // EPIPE: the child does not read its input
                    }
                }
            }
            if (idx_out >= 0 && fds[idx_out].revents) {
                if (!take_stdout(ch.out_r, r, limits, sunk)) close_fd(ch.out_r);
                if (r.output_exceeded) break;
            }
            if (idx_err >= 0 && fds[idx_err].revents && !read_excerpt(ch.err_r, err)) close_fd(ch.err_r);
        }
        if (!root_done && ::waitpid(ch.pid, &status, WNOHANG) == ch.pid) {
            root_done = true;
            done_at = Clock::now();
            unregister_root(ch.pid);
            close_fd(ch.in_w);
            // Whatever it left behind, so that the pipes reach end of file; a group's peak
            // includes what they held until now.
            r.peak_kb = std::max(r.peak_kb, ch.group->peak_kb(ch.pid));
            r.memory_exceeded = over_cap();
            ch.group->kill_all(ch.pid);
            sweep_orphans(ch.serial);
            if (r.memory_exceeded) break;
        }
    }
    if (!root_done) {
        ch.group->kill_all(ch.pid);
        kill_descendants(ch.pid);
        ::kill(ch.pid, SIGKILL);
        reap(ch.pid, status);
        unregister_root(ch.pid);
    }
    sweep_orphans(ch.serial);
    ch.group.reset();  // the group removed, and what it left in /dev/shm
    // What is left in the pipes is the child's (its writers are all dead now).
    if (ch.out_r >= 0 && !r.output_exceeded) take_stdout(ch.out_r, r, limits, sunk);
    if (ch.err_r >= 0) read_excerpt(ch.err_r, err);
    close_fd(ch.in_w);
    close_fd(ch.out_r);
    close_fd(ch.err_r);
    r.err = err.text();
    r.wall_ms = ms_since(t0);
    if (!r.timed_out && !r.output_exceeded && !r.memory_exceeded && root_done) {
        if (WIFEXITED(status)) {
            r.exited = true;
            r.exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            r.signal = WTERMSIG(status);
        }
    }
    return r;
}


}  // namespace ond::conformance
