#include "transport/spawn.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "ond/hex.hpp"
#include "transport/proctree.hpp"

extern char** environ;

namespace ond::conformance::spawning {

namespace {

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

std::atomic<std::uint64_t> next_serial{1};

// What the child does between clone and exec. It runs in the runner's memory on its own stack
// while the runner's thread waits (CLONE_VFORK), so it makes system calls only: no allocation,
// no lock. It reports a failure through the plan, which both see.
struct ExecPlan {
    const char* path = nullptr;
    char* const* argv = nullptr;
    char* const* envp = nullptr;
    int fds[3] = {-1, -1, -1};
    int join_fd = -1;                 // the group's cgroup.procs
    const char* shm_options = nullptr;  // mount a private /dev/shm with these
    bool private_shm = false;         // set by the child
    int failed_errno = 0;             // set by the child when it could not exec
    const char* failed_step = nullptr;
};

int exec_child(void* arg) {
    auto* p = static_cast<ExecPlan*>(arg);
    auto fail = [p](const char* step) {
        p->failed_errno = errno;
        p->failed_step = step;
        ::_exit(127);
    };
    // No handler of the runner may run here, and the adapter starts with default dispositions
    // (SIGPIPE included, which the runner ignores).
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; ++s) {
        struct sigaction old {};
        if (::sigaction(s, nullptr, &old) == 0 && old.sa_handler != SIG_DFL && (old.sa_handler != SIG_IGN || s == SIGPIPE))
            ::sigaction(s, &dfl, nullptr);
    }
    if (::setpgid(0, 0) != 0) fail("setpgid");
    // Into the group before it can start anything: its descendants are born inside.
    if (p->join_fd >= 0 && ::write(p->join_fd, "0", 1) != 1) fail("joining its memory cgroup");
    if (p->shm_options && ::unshare(CLONE_NEWNS) == 0 && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
        ::mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, p->shm_options) == 0)
        p->private_shm = true;
    for (int i = 0; i < 3; ++i) {
        if (p->fds[i] == i ? ::fcntl(i, F_SETFD, 0) != 0 : ::dup2(p->fds[i], i) != i) fail("dup2");
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(p->path, p->argv, p->envp);
    fail("exec");
    return 127;
}

// clone(CLONE_VM | CLONE_VFORK) as posix_spawn does it, with the steps posix_spawn has no
// action for (joining the cgroup, the mount namespace). Returns the pid, or -1 with `plan`
// telling why.
pid_t clone_and_exec(ExecPlan& plan) {
    constexpr std::size_t stack_size = 256u << 10;
    void* stack = ::mmap(nullptr, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        plan.failed_errno = errno, plan.failed_step = "mmap";
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = ::clone(exec_child, static_cast<char*>(stack) + stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, &plan);
    const int clone_errno = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ::munmap(stack, stack_size);
    if (pid < 0) {
        plan.failed_errno = clone_errno, plan.failed_step = "clone";
        return -1;
    }
    if (plan.failed_step) {  // it exited without exec
        int status = 0;
        reap(pid, status);
        return -1;
    }
    return pid;
}

}  // namespace

Child spawn(const std::vector<std::string>& argv, long cap_kb, std::string& error) {
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
    ch.group = std::make_unique<Containment>(ch.serial, cap_kb);
    ExecPlan plan;
    plan.path = path.c_str();
    plan.argv = cargv.data();
    plan.envp = envp.data();
    plan.fds[0] = p[0][0], plan.fds[1] = p[1][1], plan.fds[2] = p[2][1];
    plan.join_fd = ch.group->join_fd();
    plan.shm_options = ch.group->shm_options().empty() ? nullptr : ch.group->shm_options().c_str();
    ch.pid = spawn_registered([&] { return clone_and_exec(plan); }, ch.serial);
    for (int fd : plan.fds) ::close(fd);
    if (ch.pid < 0) {
        error = std::string("cannot start '") + path + "'" + (plan.failed_step ? std::string(" (") + plan.failed_step + ")" : "") + ": " +
                std::strerror(plan.failed_errno);
        ::close(p[0][1]), ::close(p[1][0]), ::close(p[2][0]);
        ch.group.reset();
        return ch;
    }
    ch.group->set_private_shm(plan.private_shm);
    ch.in_w = p[0][1];
    ch.out_r = p[1][0];
    ch.err_r = p[2][0];
    set_nonblocking(ch.in_w);
    set_nonblocking(ch.out_r);
    set_nonblocking(ch.err_r);
    return ch;
}

void set_nonblocking(int fd) {
    int fl = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

bool read_some(int fd, std::string& buf, std::size_t cap, bool* over) {
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

void reap(pid_t pid, int& status) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

std::string describe_bytes(std::string_view b) {
    std::string digits;
    hex::append_bytes(digits, reinterpret_cast<const unsigned char*>(b.data()), std::min<std::size_t>(b.size(), 16), ' ');
    return std::to_string(b.size()) + (b.size() == 1 ? " byte" : " bytes") + " (" + digits + (b.size() > 16 ? " ..." : "") + ")";
}

}  // namespace ond::conformance::spawning
