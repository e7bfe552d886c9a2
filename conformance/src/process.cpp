#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

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

// Starts argv with three pipes; the child gets its own process group and default SIGPIPE.
// Everything the child does between fork and exec is async-signal-safe.
pid_t spawn(const std::vector<std::string>& argv, int& in_w, int& out_r, int& err_r, std::string& error) {
    ignore_sigpipe();
    if (argv.empty()) {
        error = "empty command";
        return -1;
    }
    std::string path = resolve_executable(argv[0]);
    if (path.empty()) {
        error = "cannot find executable '" + argv[0] + "'";
        return -1;
    }
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);

    int in_p[2], out_p[2], err_p[2];
    if (::pipe2(in_p, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        return -1;
    }
    if (::pipe2(out_p, O_CLOEXEC) != 0) {
        ::close(in_p[0]), ::close(in_p[1]);
        error = std::string("pipe: ") + std::strerror(errno);
        return -1;
    }
    if (::pipe2(err_p, O_CLOEXEC) != 0) {
        ::close(in_p[0]), ::close(in_p[1]), ::close(out_p[0]), ::close(out_p[1]);
        error = std::string("pipe: ") + std::strerror(errno);
        return -1;
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        error = std::string("fork: ") + std::strerror(errno);
        for (int fd : {in_p[0], in_p[1], out_p[0], out_p[1], err_p[0], err_p[1]}) ::close(fd);
        return -1;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        ::signal(SIGPIPE, SIG_DFL);
        ::dup2(in_p[0], 0);
        ::dup2(out_p[1], 1);
        ::dup2(err_p[1], 2);
        ::execv(path.c_str(), cargv.data());
        static const char msg[] = "conformance runner: exec failed\n";
        ssize_t ignored = ::write(2, msg, sizeof msg - 1);
        (void)ignored;
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also from the parent, so that the group exists before any kill
    ::close(in_p[0]);
    ::close(out_p[1]);
    ::close(err_p[1]);
    in_w = in_p[1];
    out_r = out_p[0];
    err_r = err_p[0];
    set_nonblocking(in_w);
    set_nonblocking(out_r);
    set_nonblocking(err_r);
    return pid;
}

// Reads what is available; returns false at end of file.
bool read_some(int fd, std::string& buf, std::size_t cap) {
    char tmp[65536];
    for (;;) {
        ssize_t r = ::read(fd, tmp, sizeof tmp);
        if (r > 0) {
            std::size_t room = buf.size() < cap ? cap - buf.size() : 0;
            buf.append(tmp, std::min<std::size_t>(room, static_cast<std::size_t>(r)));
            continue;
        }
        if (r == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

long vm_hwm_kb(long pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return 0;
}

bool reset_hwm(long pid) {
    std::ofstream f("/proc/" + std::to_string(pid) + "/clear_refs");
    if (!f) return false;
    f << "5";
    f.flush();
    return static_cast<bool>(f);
}

}  // namespace

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
                          std::chrono::milliseconds timeout, std::size_t max_output) {
    bool given = false;
    return run_process(argv, [&]() -> std::string_view {
        if (given) return {};
        given = true;
        return input;
    }, timeout, max_output);
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::function<std::string_view()>& next,
                          std::chrono::milliseconds timeout, std::size_t max_output) {
    ProcessResult r;
    auto t0 = Clock::now();
    int in_w = -1, out_r = -1, err_r = -1;
    pid_t pid = spawn(argv, in_w, out_r, err_r, r.error);
    if (pid < 0) return r;
    r.started = true;

    std::string_view input = next();  // the piece being written
    std::size_t written = 0;
    if (input.empty()) close_fd(in_w);
    auto deadline = t0 + timeout;
    while (out_r >= 0 || err_r >= 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            r.timed_out = true;
            break;
        }
        pollfd fds[3];
        nfds_t n = 0;
        int idx_in = -1, idx_out = -1, idx_err = -1;
        if (in_w >= 0) idx_in = static_cast<int>(n), fds[n++] = {in_w, POLLOUT, 0};
        if (out_r >= 0) idx_out = static_cast<int>(n), fds[n++] = {out_r, POLLIN, 0};
        if (err_r >= 0) idx_err = static_cast<int>(n), fds[n++] = {err_r, POLLIN, 0};
        int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left, 1000)));
        if (pr < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (idx_in >= 0 && fds[idx_in].revents) {
            if (fds[idx_in].revents & (POLLERR | POLLHUP)) {
                close_fd(in_w);  // the child closed its stdin: the rest of the input is not wanted
            } else {
                ssize_t w = ::write(in_w, input.data() + written, std::min<std::size_t>(input.size() - written, 65536));
                if (w > 0) {
                    written += static_cast<std::size_t>(w);
                    if (written == input.size()) {
                        input = next();
                        written = 0;
                        if (input.empty()) close_fd(in_w);
                    }
                } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                    close_fd(in_w);  // EPIPE: the child does not read its input
                }
            }
        }
        if (idx_out >= 0 && fds[idx_out].revents && !read_some(out_r, r.out, max_output)) close_fd(out_r);
        if (idx_err >= 0 && fds[idx_err].revents && !read_some(err_r, r.err, 1u << 20)) close_fd(err_r);
    }
    close_fd(in_w);
    close_fd(out_r);
    close_fd(err_r);

    int status = 0;
    rusage ru {};
    if (r.timed_out) {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    }
    // Both pipes are at end of file (or the time-out struck); the child is about to exit.
    for (;;) {
        pid_t w = ::wait4(pid, &status, r.timed_out ? 0 : WNOHANG, &ru);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (w == 0) {
            // Pipes closed but the child still runs (it closed stdout itself): give it until the deadline.
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) {
                r.timed_out = true;
                ::kill(-pid, SIGKILL);
                ::kill(pid, SIGKILL);
                continue;
            }
            ::usleep(1000);
        }
    }
    ::kill(-pid, SIGKILL);  // no grandchild outlives its case
    r.wall_ms = ms_since(t0);
    r.max_rss_kb = ru.ru_maxrss;
    if (WIFEXITED(status)) {
        r.exited = !r.timed_out;
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.signal = r.timed_out ? 0 : WTERMSIG(status);
    }
    return r;
}

// ---- persistent -------------------------------------------------------------------------

PersistentProcess::PersistentProcess(std::vector<std::string> argv) : argv_(std::move(argv)) {}

PersistentProcess::~PersistentProcess() { stop(false); }

bool PersistentProcess::start(std::string& error) {
    int in_w = -1, out_r = -1, err_r = -1;
    pid_t pid = spawn(argv_, in_w, out_r, err_r, error);
    if (pid < 0) return false;
    pid_ = pid;
    in_fd_ = in_w;
    out_fd_ = out_r;
    err_fd_ = err_r;
    err_buf_.clear();
    return true;
}

void PersistentProcess::stop(bool kill_now) {
    if (pid_ < 0) return;
    close_fd(in_fd_);  // end of input asks the child to finish
    if (!kill_now) {
        auto t0 = Clock::now();
        int status;
        while (ms_since(t0) < 2000) {
            pid_t w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
            if (w == pid_ || w < 0) {
                ::kill(static_cast<pid_t>(-pid_), SIGKILL);
                close_fd(out_fd_);
                close_fd(err_fd_);
                pid_ = -1;
                return;
            }
            ::usleep(2000);
        }
    }
    ::kill(static_cast<pid_t>(-pid_), SIGKILL);
    ::kill(static_cast<pid_t>(pid_), SIGKILL);
    int status;
    ::waitpid(static_cast<pid_t>(pid_), &status, 0);
    close_fd(out_fd_);
    close_fd(err_fd_);
    pid_ = -1;
}

void PersistentProcess::drain_stderr() {
    if (err_fd_ >= 0 && !read_some(err_fd_, err_buf_, 1u << 20)) close_fd(err_fd_);
    if (err_buf_.size() > 65536) err_buf_.erase(0, err_buf_.size() - 65536);
}

PersistentProcess::Reply PersistentProcess::request(std::string_view payload, std::chrono::milliseconds timeout) {
    Reply rep;
    auto t0 = Clock::now();
    if (pid_ < 0) {
        std::string error;
        if (!start(error)) {
            rep.kind = Reply::Kind::start_error;
            rep.detail = error;
            return rep;
        }
    }
    bool hwm_reset = reset_hwm(pid_);
    err_buf_.clear();

    std::string frame;
    auto len = static_cast<std::uint32_t>(payload.size());
    for (int i = 0; i < 4; ++i) frame.push_back(static_cast<char>((len >> (8 * i)) & 0xFF));
    frame.append(payload);

    std::size_t written = 0;
    std::string in;
    std::uint64_t need = 4;  // bytes of the response frame known so far
    bool have_len = false;
    auto deadline = t0 + timeout;
    auto fail = [&](Reply::Kind k, std::string why) {
        drain_stderr();
        rep.kind = k;
        rep.detail = std::move(why);
        rep.err = err_buf_;
        // Collect the exit status if the child is gone, then make sure it is.
        int status = 0;
        pid_t w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
        // A child that closed its output is normally exiting: give it a moment to say how.
        for (int i = 0; w == 0 && k == Reply::Kind::crash && i < 200; ++i) {
            ::usleep(2500);
            w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
        }
        if (w == pid_) {
            if (WIFSIGNALED(status)) rep.signal = WTERMSIG(status);
            if (WIFEXITED(status)) rep.exit_code = WEXITSTATUS(status);
            ::kill(static_cast<pid_t>(-pid_), SIGKILL);
            close_fd(in_fd_), close_fd(out_fd_), close_fd(err_fd_);
            pid_ = -1;
        } else {
            stop(true);
        }
        rep.wall_ms = ms_since(t0);
        return rep;
    };
    while (true) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return fail(Reply::Kind::timeout, "no response within the time-out");
        pollfd fds[3];
        nfds_t n = 0;
        int idx_in = -1, idx_out = -1, idx_err = -1;
        if (written < frame.size() && in_fd_ >= 0) idx_in = static_cast<int>(n), fds[n++] = {in_fd_, POLLOUT, 0};
        if (out_fd_ >= 0) idx_out = static_cast<int>(n), fds[n++] = {out_fd_, POLLIN, 0};
        if (err_fd_ >= 0) idx_err = static_cast<int>(n), fds[n++] = {err_fd_, POLLIN, 0};
        if (out_fd_ < 0) return fail(Reply::Kind::crash, "the testee closed its output");
        int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left, 1000)));
        if (pr < 0) {
            if (errno == EINTR) continue;
            return fail(Reply::Kind::crash, std::string("poll: ") + std::strerror(errno));
        }
        if (idx_in >= 0 && fds[idx_in].revents) {
            if (fds[idx_in].revents & (POLLERR | POLLHUP)) return fail(Reply::Kind::crash, "the testee closed its input");
            ssize_t w = ::write(in_fd_, frame.data() + written, std::min<std::size_t>(frame.size() - written, 65536));
            if (w > 0) written += static_cast<std::size_t>(w);
            else if (w < 0 && errno != EAGAIN && errno != EINTR) return fail(Reply::Kind::crash, "the testee closed its input");
        }
        if (idx_err >= 0 && fds[idx_err].revents) drain_stderr();
        if (idx_out >= 0 && fds[idx_out].revents) {
            bool open = read_some(out_fd_, in, 1u << 30);
            if (!have_len && in.size() >= 4) {
                std::uint32_t l = 0;
                for (int i = 0; i < 4; ++i) l |= static_cast<std::uint32_t>(static_cast<unsigned char>(in[static_cast<std::size_t>(i)])) << (8 * i);
                need = 4 + static_cast<std::uint64_t>(l);
                have_len = true;
                if (l == 0) return fail(Reply::Kind::protocol_error, "empty response frame (no status byte)");
            }
            if (have_len && in.size() >= need) {
                if (in.size() > need) return fail(Reply::Kind::protocol_error, "bytes after the response frame");
                break;
            }
            if (!open) return fail(Reply::Kind::crash, "the testee closed its output mid-response");
        }
    }
    drain_stderr();
    rep.kind = Reply::Kind::answer;
    rep.payload = in.substr(4);
    rep.err = err_buf_;
    rep.peak_rss_kb = hwm_reset ? vm_hwm_kb(pid_) : 0;
    rep.wall_ms = ms_since(t0);
    return rep;
}

}  // namespace ond::conformance
