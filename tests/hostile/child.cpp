#include "child.hpp"

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

    std::vector<std::string> all = {OND_EXE};
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
        ::setrlimit(RLIMIT_AS, &as);
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
    rusage ru{};
    while (::wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    ChildResult r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.peak_kib = static_cast<std::uint64_t>(ru.ru_maxrss);
    if (opt.keep_stdout) r.out = slurp(out_path);
    r.err = slurp(err_path);
    return r;
}

}  // namespace ond::hostile
