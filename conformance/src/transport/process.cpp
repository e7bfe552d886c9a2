#include "transport/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "ond/hex.hpp"
#include "transport/proctree.hpp"
#include "transport/frame.hpp"

extern char** environ;

namespace ond::conformance {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A testee that exits without reading its input must not kill the runner with SIGPIPE; the
// children get the default disposition back before exec.
void ignore_sigpipe() {
    static const bool once = [] {
        struct sigaction sa {};
        sa.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &sa, nullptr);
        return true;
    }();
    (void)once;
}

void set_nonblocking(int fd) {
    int fl = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

std::atomic<std::uint64_t> next_serial{1};

struct Child {
    pid_t pid = -1;
    std::uint64_t serial = 0;
    int in_w = -1, out_r = -1, err_r = -1;
};

// Starts argv with three pipes in its own process group, default SIGPIPE and the testee marker
// in its environment, with posix_spawn (no copy of the runner's memory, no shell). No RLIMIT_AS:
// a JVM or V8 reserves far more address space than it uses; the memory cap is the runner's
// watchdog over the tree's memory instead (SpawnLimits).
Child spawn(const std::vector<std::string>& argv, std::string& error) {
    ignore_sigpipe();
    become_subreaper();
    Child ch;
    if (argv.empty()) {
        error = "empty command";
        return ch;
    }
    std::string path = resolve_executable(argv[0]);
    if (path.empty()) {
        error = "cannot find executable '" + argv[0] + "'";
        return ch;
    }
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    ch.serial = next_serial.fetch_add(1);
    std::string marker = testee_marker(ch.serial);
    std::vector<char*> envp;
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, "OND_CONFORM_TESTEE=", 19) != 0) envp.push_back(*e);
    envp.push_back(marker.data());
    envp.push_back(nullptr);

    int p[3][2];
    int made = 0;
    for (; made < 3; ++made)
        if (::pipe2(p[made], O_CLOEXEC) != 0) break;
    if (made < 3) {
        error = std::string("pipe: ") + std::strerror(errno);
        for (int i = 0; i < made; ++i) ::close(p[i][0]), ::close(p[i][1]);
        return ch;
    }
    int child_fd[3] = {p[0][0], p[1][1], p[2][1]};
    int spawn_errno = 0;
    ch.pid = spawn_registered([&]() -> pid_t {
        posix_spawn_file_actions_t fa;
        posix_spawnattr_t at;
        ::posix_spawn_file_actions_init(&fa);
        for (int i = 0; i < 3; ++i) ::posix_spawn_file_actions_adddup2(&fa, child_fd[i], i);
        ::posix_spawnattr_init(&at);
        sigset_t def, none;
        sigemptyset(&def);
        sigaddset(&def, SIGPIPE);
        sigemptyset(&none);
        ::posix_spawnattr_setsigdefault(&at, &def);
        ::posix_spawnattr_setsigmask(&at, &none);
        ::posix_spawnattr_setpgroup(&at, 0);
        ::posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
        pid_t pid = -1;
        spawn_errno = ::posix_spawn(&pid, path.c_str(), &fa, &at, cargv.data(), envp.data());
        ::posix_spawn_file_actions_destroy(&fa);
        ::posix_spawnattr_destroy(&at);
        return spawn_errno == 0 ? pid : -1;
    }, ch.serial);
    for (int fd : child_fd) ::close(fd);
    if (ch.pid < 0) {
        error = std::string("cannot start '") + path + "': " + std::strerror(spawn_errno);
        ::close(p[0][1]), ::close(p[1][0]), ::close(p[2][0]);
        return ch;
    }
    ch.in_w = p[0][1];
    ch.out_r = p[1][0];
    ch.err_r = p[2][0];
    set_nonblocking(ch.in_w);
    set_nonblocking(ch.out_r);
    set_nonblocking(ch.err_r);
    return ch;
}

// Reads what is available into `buf` up to `cap` bytes in all; returns false at end of file.
// `over` is set when more than `cap` bytes came.
bool read_some(int fd, std::string& buf, std::size_t cap, bool* over = nullptr) {
    char tmp[65536];
    for (;;) {
        ssize_t r = ::read(fd, tmp, sizeof tmp);
        if (r > 0) {
            std::size_t room = buf.size() < cap ? cap - buf.size() : 0;
            if (static_cast<std::size_t>(r) > room && over) *over = true;
            buf.append(tmp, std::min<std::size_t>(room, static_cast<std::size_t>(r)));
            if (over && *over) return true;
            continue;
        }
        if (r == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

// Reads what is available while `buf` holds fewer than `cap` bytes, leaving the rest in the pipe;
// returns false at end of file.
bool read_upto(int fd, std::string& buf, std::size_t cap) {
    char tmp[65536];
    while (buf.size() < cap) {
        ssize_t r = ::read(fd, tmp, std::min<std::size_t>(sizeof tmp, cap - buf.size()));
        if (r > 0) {
            buf.append(tmp, static_cast<std::size_t>(r));
            continue;
        }
        if (r == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    return true;
}

bool read_excerpt(int fd, Excerpt& e) {
    char tmp[65536];
    for (;;) {
        ssize_t r = ::read(fd, tmp, sizeof tmp);
        if (r > 0) {
            e.add(tmp, static_cast<std::size_t>(r));
            continue;
        }
        if (r == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

// How long to wait in poll before the next memory sample: often at first, as a short-lived
// allocation is what a sample could miss.
int sample_interval_ms(Clock::time_point t0) { return ms_since(t0) < 50 ? 1 : 4; }

void reap(pid_t pid, int& status) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace

std::string memory_cap_exceeded(long held_kb, long cap_kb) {
    return "memory cap exceeded: the process tree held " + std::to_string(held_kb / 1024) + " MiB, over the cap of " +
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
    Child ch = spawn(argv, r.error);
    if (ch.pid < 0) return r;
    r.started = true;
    Excerpt err;
    std::string_view input = next();  // the piece being written
    std::size_t written = 0;
    if (input.empty()) close_fd(ch.in_w);
    auto deadline = t0 + timeout;
    bool root_done = false;
    int status = 0;
    Clock::time_point last_sample{}, done_at{};
    while (true) {
        auto now = Clock::now();
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        if (left <= 0) {
            r.timed_out = !root_done;
            break;
        }
        if (!root_done && now - last_sample >= std::chrono::milliseconds(1)) {
            r.peak_kb = std::max(r.peak_kb, tree_peak_kb(ch.pid, true));
            last_sample = now;
            if (limits.memory_limit_kb > 0 && r.peak_kb > limits.memory_limit_kb) {
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
                if (!read_some(ch.out_r, r.out, limits.max_output, &r.output_exceeded)) close_fd(ch.out_r);
                if (r.output_exceeded) break;
            }
            if (idx_err >= 0 && fds[idx_err].revents && !read_excerpt(ch.err_r, err)) close_fd(ch.err_r);
        }
        if (!root_done && ::waitpid(ch.pid, &status, WNOHANG) == ch.pid) {
            root_done = true;
            done_at = Clock::now();
            unregister_root(ch.pid);
            close_fd(ch.in_w);
            sweep_orphans(ch.serial);  // whatever it left behind, so that the pipes reach end of file
        }
    }
    if (!root_done) {
        kill_descendants(ch.pid);
        ::kill(ch.pid, SIGKILL);
        reap(ch.pid, status);
        unregister_root(ch.pid);
    }
    sweep_orphans(ch.serial);
    // What is left in the pipes is the child's (its writers are all dead now).
    if (ch.out_r >= 0 && !r.output_exceeded) read_some(ch.out_r, r.out, limits.max_output, &r.output_exceeded);
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

// ---- persistent -------------------------------------------------------------------------

namespace {

using frame::get_le32;

std::string describe_bytes(std::string_view b) {
    std::string digits;
    hex::append_bytes(digits, reinterpret_cast<const unsigned char*>(b.data()), std::min<std::size_t>(b.size(), 16), ' ');
    return std::to_string(b.size()) + (b.size() == 1 ? " byte" : " bytes") + " (" + digits + (b.size() > 16 ? " ..." : "") + ")";
}

}  // namespace

PersistentProcess::PersistentProcess(std::vector<std::string> argv, long memory_limit_kb)
    : argv_(std::move(argv)), memory_limit_kb_(memory_limit_kb) {}

PersistentProcess::~PersistentProcess() { stop(true); }

long PersistentProcess::baseline_kb(char op) const {
    auto it = baseline_kb_.find(op);
    return it == baseline_kb_.end() ? 0 : it->second;
}

bool PersistentProcess::start(std::string& error) {
    start_broke_protocol_ = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
        Child ch = spawn(argv_, error);
        if (ch.pid < 0) return false;
        pid_ = ch.pid, serial_ = ch.serial;
        in_fd_ = ch.in_w, out_fd_ = ch.out_r, err_fd_ = ch.err_r;
        err_.clear();
        // The hello: a version-1 request with op 'V' asking for version 2. A version-2 process
        // answers status 0 and "2"; a version-1 process answers status 2 (unknown operation).
        protocol_ = 1;
        if (attempt == 0) {
            bool stale = false;
            // The hello gets the case time-out: a slow start (a JVM) is no reason to drop to version 1.
            Reply h = exchange(frame::hello_frame(), Input{}, 0, hello_timeout_, 64, stale);
            if (h.kind == Reply::Kind::protocol_error || h.kind == Reply::Kind::output_limit) {
                error = "the testee broke the protocol on the hello request: " + h.detail;
                start_broke_protocol_ = true;
                return false;
            }
            if (h.kind != Reply::Kind::answer) continue;  // an old process that dies on it: start another, no hello
            const auto hello = frame::classify_hello(h.payload);
            if (hello == frame::HelloAnswer::version2) {
                protocol_ = 2;
            } else if (hello == frame::HelloAnswer::invalid) {
                stop(true);
                error = "the testee answered the hello with " + describe_bytes(h.payload) + ", neither version 2 nor a refusal";
                start_broke_protocol_ = true;
                return false;
            }
        }
        // Bytes before any request was due: that process's answers could all be shifted by one.
        pollfd pf{out_fd_, POLLIN, 0};
        std::string stray;
        if (::poll(&pf, 1, 20) > 0) read_upto(out_fd_, stray, 4096);
        if (!stray.empty()) {
            stop(true);
            error = "the testee wrote " + describe_bytes(stray) + " when no response was due (at its start)";
            start_broke_protocol_ = true;
            return false;
        }
        break;
    }
    if (pid_ < 0) {
        error = "the testee exited at start";
        return false;
    }
    // The baseline: what a small valid input costs this process, per operation.
    baseline_kb_.clear();
    for (const auto& [op, input] : baseline_inputs_) {
        // The least of three: a first request that buys a large baseline (touching memory only
        // then) cannot raise it for every later case.
        long least = -1;
        for (int i = 0; i < 3 && pid_ >= 0; ++i) {
            bool stale = false;
            std::uint32_t number = next_number_++;
            Reply b = exchange(frame::request_header(op, protocol_, number, input.size()), Input::of(input), number, hello_timeout_,
                               (1u << 20) + 64 * input.size(), stale);
            if (b.kind != Reply::Kind::answer) break;  // judged when a case meets it
            const long cost = std::max(0L, b.peak_kb - b.start_kb);
            least = least < 0 ? cost : std::min(least, cost);
        }
        if (pid_ < 0) break;
        baseline_kb_[op] = std::max(0L, least);
    }
    if (pid_ < 0) {
        baseline_inputs_.clear();  // it fails on its baseline input: no baseline, no retry loop
        return start(error);
    }
    return true;
}

void PersistentProcess::stop(bool kill_now, std::string* trailing) {
    if (pid_ < 0) return;
    close_fd(in_fd_);  // end of input asks the child to finish
    auto t0 = Clock::now();
    int status = 0;
    bool reaped = false;
    while (!kill_now && ms_since(t0) < 2000) {
        if (out_fd_ >= 0) {
            pollfd pf{out_fd_, POLLIN, 0};
            if (::poll(&pf, 1, 5) > 0) {
                std::string got;
                bool open = read_upto(out_fd_, got, 4096);
                if (trailing && trailing->size() < 4096) *trailing += got;
                if (!open) close_fd(out_fd_);
            }
        } else {
            ::usleep(2000);
        }
        if (::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG) == pid_) {
            reaped = true;
            break;
        }
    }
    if (!reaped) {
        kill_descendants(static_cast<pid_t>(pid_));
        ::kill(static_cast<pid_t>(pid_), SIGKILL);
        reap(static_cast<pid_t>(pid_), status);
    }
    unregister_root(static_cast<pid_t>(pid_));
    sweep_orphans(serial_);
    close_fd(out_fd_);
    close_fd(err_fd_);
    pid_ = -1;
}

std::string PersistentProcess::finish() {
    std::string trailing;
    stop(false, &trailing);
    return trailing;
}

void PersistentProcess::drain_stderr() {
    if (err_fd_ >= 0 && !read_excerpt(err_fd_, err_)) close_fd(err_fd_);
}

void PersistentProcess::reap_after_failure(Reply& rep, bool crashed) {
    drain_stderr();
    rep.err = err_.text();
    int status = 0;
    pid_t w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
    // A child that closed its output is normally exiting: give it a moment to say how.
    for (int i = 0; w == 0 && crashed && i < 200; ++i) {
        ::usleep(2500);
        w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
    }
    if (w == pid_) {
        if (WIFSIGNALED(status)) rep.signal = WTERMSIG(status);
        if (WIFEXITED(status)) rep.exit_code = WEXITSTATUS(status);
        unregister_root(static_cast<pid_t>(pid_));
        sweep_orphans(serial_);
        close_fd(in_fd_), close_fd(out_fd_), close_fd(err_fd_);
        pid_ = -1;
    } else {
        stop(true);
    }
}

namespace {

// The bytes of one request frame as they go out: its header, then the input, held or piece by
// piece. A streamed input must come to the size its header declared.
class FrameWriter {
public:
    FrameWriter(const std::string& header, const Input& input) : input_(input), cur_(header) {}
    bool done() const noexcept { return done_; }
    std::string_view current() const noexcept { return cur_; }
    void wrote(std::size_t n) {
        cur_.remove_prefix(n);
        while (cur_.empty() && !done_) advance();
    }

private:
    void advance() {
        if (stage_ == 0) {
            stage_ = input_.next ? 1 : 2;
            if (!input_.next) {
                cur_ = input_.held;
                return;
            }
        }
        if (stage_ == 1) {
            cur_ = input_.next();
            streamed_ += cur_.size();
            if (streamed_ > input_.size || (cur_.empty() && streamed_ != input_.size))
                throw std::logic_error("a streamed input of " + std::to_string(streamed_) + " bytes where " +
                                       std::to_string(input_.size) + " were declared");
            if (!cur_.empty()) return;
        }
        done_ = true;
    }
    const Input& input_;
    std::string_view cur_;
    int stage_ = 0;  // 0 header, 1 streamed pieces, 2 the held input
    std::uint64_t streamed_ = 0;
    bool done_ = false;
};

}  // namespace

PersistentProcess::Reply PersistentProcess::exchange(const std::string& header, const Input& input, std::uint32_t number,
                                                     std::chrono::milliseconds timeout, std::size_t max_response, bool& stale) {
    Reply rep;
    rep.number = number;
    auto t0 = Clock::now();
    const pid_t root = static_cast<pid_t>(pid_);
    // The adapter's processes live as long as it does (a wrapper's child, a helper server): the
    // request is charged what the whole tree grows by, from what it holds now.
    bool reset = reset_tree_peaks(root);
    rep.start_kb = tree_rss_kb(root);
    err_.clear();
    const std::size_t prefix = protocol_ >= 2 && number ? 8 : 4;  // length, and the number in version 2
    FrameWriter writer(header, input);
    std::string in;
    std::uint64_t need = 0;  // the whole response frame's size, once its length is in
    bool answered = false;   // the response is complete (the request may still be going out)
    auto deadline = t0 + timeout;
    Clock::time_point last_sample{};
    auto fail = [&](Reply::Kind k, std::string why) {
        rep.kind = k;
        rep.detail = std::move(why);
        reap_after_failure(rep, k == Reply::Kind::crash);
        rep.wall_ms = ms_since(t0);
        return rep;
    };
    // No byte of an answer, and then a clean exit: it left after its previous answer, and this
    // request found it leaving (its input closed or its output ended first). Else a crash.
    auto gone_or_crash = [&](std::string why) {
        Reply r = fail(Reply::Kind::crash, std::move(why));
        if (number && in.empty() && r.exit_code == 0 && r.signal == 0) r.kind = Reply::Kind::gone;
        return r;
    };
    while (true) {
        auto now = Clock::now();
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        if (left <= 0)
            return fail(Reply::Kind::timeout, answered ? "the rest of the request not read within the time-out (it answered early)"
                                                       : "no response within the time-out");
        if (now - last_sample >= std::chrono::milliseconds(1)) {
            rep.peak_kb = std::max(rep.peak_kb, tree_peak_kb(root, true, !reset));
            last_sample = now;
            if (memory_limit_kb_ > 0 && rep.peak_kb > memory_limit_kb_)
                return fail(Reply::Kind::memory_cap, memory_cap_exceeded(rep.peak_kb, memory_limit_kb_));
        }
        if (answered && writer.done()) break;
        if (out_fd_ < 0) {
            if (answered) break;  // it left after a complete answer: the next request finds it gone
            return fail(Reply::Kind::crash, "the testee closed its output");
        }
        pollfd fds[3];
        nfds_t n = 0;
        int idx_in = -1, idx_out = -1, idx_err = -1;
        if (!writer.done() && in_fd_ >= 0) idx_in = static_cast<int>(n), fds[n++] = {in_fd_, POLLOUT, 0};
        idx_out = static_cast<int>(n), fds[n++] = {out_fd_, POLLIN, 0};
        if (err_fd_ >= 0) idx_err = static_cast<int>(n), fds[n++] = {err_fd_, POLLIN, 0};
        int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left, sample_interval_ms(t0))));
        if (pr < 0) {
            if (errno == EINTR) continue;
            return fail(Reply::Kind::crash, std::string("poll: ") + std::strerror(errno));
        }
        if (pr == 0) continue;
        if (idx_in >= 0 && fds[idx_in].revents) {
            bool closed = fds[idx_in].revents & (POLLERR | POLLHUP);
            if (!closed) {
                const std::string_view cur = writer.current();
                ssize_t w = ::write(in_fd_, cur.data(), std::min<std::size_t>(cur.size(), 65536));
                if (w > 0) writer.wrote(static_cast<std::size_t>(w));
                else if (w < 0 && errno != EAGAIN && errno != EINTR) closed = true;
            }
            if (closed) {
                if (answered) break;  // as above: gone after its answer
                return gone_or_crash("the testee closed its input");
            }
        }
        if (idx_err >= 0 && fds[idx_err].revents) drain_stderr();
        if (fds[idx_out].revents) {
            // Never more than the frame can hold: a declared length past the limit is refused
            // from the length field alone.
            std::size_t cap = need ? static_cast<std::size_t>(need) + 1 : prefix;
            bool open = read_upto(out_fd_, in, cap);
            if (!need && in.size() >= 4) {
                std::uint32_t l = get_le32(in, 0);
                if (l > max_response)
                    return fail(Reply::Kind::output_limit, "the response frame declares " + std::to_string(l) +
                                                               " bytes, more than the case's output limit of " +
                                                               std::to_string(max_response));
                if (l < prefix - 4 + 1) return fail(Reply::Kind::protocol_error, "a response frame of " + std::to_string(l) + " bytes (no status byte)");
                need = 4 + static_cast<std::uint64_t>(l);
                if (open) open = read_upto(out_fd_, in, static_cast<std::size_t>(need) + 1);
            }
            if (need && prefix == 8 && in.size() >= 8 && get_le32(in, 4) != number) {
                stale = true;
                rep.void_number = get_le32(in, 4);
                rep.kind = Reply::Kind::protocol_error;
                rep.detail = "a response numbered " + std::to_string(get_le32(in, 4)) + " while request " + std::to_string(number) +
                             " was due";
                stop(true);
                return rep;
            }
            if (need && in.size() > need)
                return fail(Reply::Kind::protocol_error, describe_bytes(std::string_view(in).substr(need)) + " after the response frame");
            if (need && in.size() == need) answered = true;
            if (!open) {
                if (answered) {
                    close_fd(out_fd_);
                    continue;
                }
                return gone_or_crash("the testee closed its output mid-response");
            }
        }
    }
    // Bytes that are already there behind the frame belong to no request. Version 1 frames carry
    // no number, so a late answer to an earlier request looks like this one's: wait a moment for
    // the real one to show (version 2 needs no wait).
    if (out_fd_ >= 0) {
        std::string extra;
        if (prefix == 4 && number) {
            pollfd pf{out_fd_, POLLIN, 0};
            ::poll(&pf, 1, 2);
        }
        bool open = read_upto(out_fd_, extra, 4096);
        if (!extra.empty()) return fail(Reply::Kind::protocol_error, describe_bytes(extra) + " after the response frame");
        if (!open) close_fd(out_fd_);
    }
    rep.peak_kb = std::max(rep.peak_kb, tree_peak_kb(root, true, !reset));
    drain_stderr();
    rep.kind = Reply::Kind::answer;
    rep.payload = in.substr(prefix);
    rep.err = err_.text();
    rep.wall_ms = ms_since(t0);
    return rep;
}

std::string PersistentProcess::gone_between_requests() {
    if (pid_ < 0) return {};
    siginfo_t info{};
    bool exited = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
    // Its output already ended after the last answer (the reader closed it on seeing the end):
    // it is leaving, though it may not be waitable yet, since a process closes its files a
    // moment before it exits.
    bool eof = out_fd_ < 0;
    if (!exited && out_fd_ >= 0) {
        pollfd pf{out_fd_, POLLIN, 0};
        if (::poll(&pf, 1, 0) > 0 && (pf.revents & POLLHUP) && !(pf.revents & POLLIN)) eof = true;
    }
    if (!exited && !eof) return {};
    Reply r;
    reap_after_failure(r, true);
    std::string why = "the adapter exited after this answer, before its end of input";
    if (r.signal) why += " (killed by signal " + std::to_string(r.signal) + ")";
    else if (r.exit_code >= 0) why += " (exit status " + std::to_string(r.exit_code) + ")";
    return why + "; it was replaced for the next case";
}

PersistentProcess::Reply PersistentProcess::request(char op, const Input& input, std::chrono::milliseconds timeout,
                                                    std::size_t max_response) {
    hello_timeout_ = timeout;
    std::string previous_void, previous_exit;
    std::optional<std::uint32_t> void_number;
    // Bytes that came since the last response belong to no request: that response is void and
    // the process is replaced before this request. In version 2 their number says which.
    if (pid_ >= 0 && out_fd_ >= 0) {
        std::string stray;
        bool open = read_upto(out_fd_, stray, 4096);
        if (!stray.empty()) {
            previous_void = describe_bytes(stray) + " arrived after the response, before the next request";
            if (protocol_ >= 2 && stray.size() >= 8) void_number = get_le32(stray, 4);
        }
        if (!stray.empty()) stop(true);
        else if (!open) close_fd(out_fd_);
    }
    if (previous_void.empty()) previous_exit = gone_between_requests();
    const bool replayable = !input.next;
    Reply rep;
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (pid_ < 0) {
            std::string error;
            if (!start(error)) {
                rep = Reply{};
                rep.kind = start_broke_protocol_ ? Reply::Kind::protocol_error : Reply::Kind::start_error;
                rep.detail = error;
                break;
            }
        }
        bool stale = false;
        std::uint32_t number = next_number_++;
        const std::string header = frame::request_header(op, protocol_, number, input.size);
        if (header.empty()) {
            rep = Reply{};
            rep.kind = Reply::Kind::start_error;
            rep.detail = "an input of " + std::to_string(input.size) + " bytes does not fit one frame (4-byte length); not sent";
            break;
        }
        rep = exchange(header, input, number, timeout, max_response + (protocol_ >= 2 ? 4 : 0), stale);
        if (rep.kind == Reply::Kind::gone) {
            // It left after its previous answer without reading this request: that answer's
            // case is told, and this request goes to a fresh process.
            if (previous_exit.empty()) previous_exit = "the adapter exited after this answer, before its end of input (exit status 0); it was replaced for the next case";
            if (replayable && attempt < 2) continue;
            rep.kind = Reply::Kind::crash;
        }
        if (!stale || !replayable) break;
        // A response numbered for an earlier request: that one answered twice. Re-run this
        // request on a fresh process; a second stale answer fails it.
        if (previous_void.empty()) previous_void = rep.detail + ": the earlier request was answered twice", void_number = rep.void_number;
        if (attempt >= 1) break;
    }
    rep.previous_void = std::move(previous_void);
    rep.void_number = void_number;
    rep.previous_exit = std::move(previous_exit);
    return rep;
}

}  // namespace ond::conformance
