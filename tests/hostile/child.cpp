#include "child.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ond::hostile {

namespace fs = std::filesystem;

TempDir::TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "ond_hostile_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& bytes) const {
    const std::string p = path_ + "/" + name;
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
}

namespace {

std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

ChildResult run_ond(const std::vector<std::string>& args, const ChildOptions& opt) {
    TempDir work;
    const std::string out_path = opt.keep_stdout ? work.path() + "/stdout" : "/dev/null";
    const std::string err_path = work.path() + "/stderr";
    int pipe_fds[2] = {-1, -1};
    if (opt.feed && ::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");

    // The child runs ond through this binary's measuring mode (see main below): a process forked
    // from the test starts with the test's resident pages counted, one forked from the small
    // measuring process does not.
    const std::string peak_path = work.path() + "/peak";
    std::vector<std::string> all = {"/proc/self/exe", "--measure-child", peak_path, OND_EXE};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);

    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        // Only async-signal-safe calls until exec.
        const rlimit as{opt.address_space_mib << 20, opt.address_space_mib << 20};
        const rlimit cpu{opt.cpu_seconds, opt.cpu_seconds};
        if (!address_sanitized) ::setrlimit(RLIMIT_AS, &as);
        ::setrlimit(RLIMIT_CPU, &cpu);
        int in = -1;
        if (opt.feed) {
            in = pipe_fds[0];
            ::close(pipe_fds[1]);
        } else {
            in = ::open(opt.stdin_path.c_str(), O_RDONLY);
        }
        const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || err < 0) ::_exit(127);
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    if (opt.feed) {
        ::close(pipe_fds[0]);
        // The child may stop reading at any time: a write then fails with EPIPE, not a signal.
        struct sigaction ignore {}, old{};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ignore, &old);
        while (opt.feed(pipe_fds[1])) {
        }
        ::close(pipe_fds[1]);
        ::sigaction(SIGPIPE, &old, nullptr);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ChildResult r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.peak_kib = std::strtoull(slurp(peak_path).c_str(), nullptr, 10);
    if (opt.keep_stdout) r.out = slurp(out_path);
    r.err = slurp(err_path);
    return r;
}

int measure_child(const char* peak_path, char** argv) {
    const pid_t pid = ::fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        ::execv(argv[0], argv);
        ::_exit(127);
    }
    int status = 0;
    rusage ru{};
    while (::wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    std::ofstream(peak_path) << ru.ru_maxrss << "\n";
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    ::signal(WTERMSIG(status), SIG_DFL);
    ::raise(WTERMSIG(status));  // die the same way, so the test sees the signal
    return 128 + WTERMSIG(status);
}

}  // namespace ond::hostile

int main(int argc, char** argv) {
    if (argc >= 4 && std::strcmp(argv[1], "--measure-child") == 0) return ond::hostile::measure_child(argv[2], argv + 3);
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
