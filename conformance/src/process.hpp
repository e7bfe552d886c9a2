// Running a testee: one child process per case, or one long-lived child answering framed requests.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ond::conformance {

// Splits a command line into arguments the way a POSIX shell would for a simple command:
// whitespace separates words, single quotes keep everything literally, double quotes keep
// everything but `\"`, `\\`, `\$` and `` \` `` escapes, and a backslash outside quotes escapes the
// next character. No expansion of variables, globs or substitutions. Throws std::invalid_argument
// on an unterminated quote or an empty command.
std::vector<std::string> split_command(std::string_view cmd);

// Resolves argv[0] through PATH (unless it holds a '/'); empty when not found or not executable.
std::string resolve_executable(const std::string& name);

struct ProcessResult {
    bool started = false;        // false: could not start (see error)
    bool exited = false;         // exited normally (exit_code valid)
    int exit_code = -1;
    int signal = 0;              // terminating signal, 0 if none
    bool timed_out = false;      // killed by the runner after the time-out
    std::string out;             // stdout
    std::string err;             // stderr
    long max_rss_kb = 0;         // peak resident set of the process (wait4 rusage)
    double wall_ms = 0;
    std::string error;           // why it could not start
};

// Runs argv with `input` on stdin, collecting stdout and stderr (poll, so neither side can block
// the other). The child gets its own process group; on time-out the whole group is killed, and
// it is killed anyway once the child has exited so that no grandchild outlives the case.
// Output beyond max_output bytes per stream is discarded (the case then counts as a crash by the
// caller's choice: `out_truncated`).
ProcessResult run_process(const std::vector<std::string>& argv, std::string_view input,
                          std::chrono::milliseconds timeout, std::size_t max_output = 256u << 20);
// The same with the input made piece by piece, for inputs too large to hold (`ond conform
// --large`): `next` returns the next bytes (valid until the following call), empty at the end.
ProcessResult run_process(const std::vector<std::string>& argv, const std::function<std::string_view()>& next,
                          std::chrono::milliseconds timeout, std::size_t max_output = 256u << 20);

// A long-lived child speaking the framed protocol of PROTOCOL.md. Not thread-safe: one per thread.
class PersistentProcess {
public:
    explicit PersistentProcess(std::vector<std::string> argv);
    ~PersistentProcess();
    PersistentProcess(const PersistentProcess&) = delete;
    PersistentProcess& operator=(const PersistentProcess&) = delete;

    struct Reply {
        enum class Kind { answer, crash, timeout, protocol_error, start_error } kind = Kind::crash;
        std::string payload;     // the response payload (status byte first) for `answer`
        std::string detail;      // for the other kinds
        int signal = 0;
        int exit_code = -1;
        std::string err;         // what the child wrote on stderr meanwhile (tail)
        long peak_rss_kb = 0;    // VmHWM over the request (reset before it when the kernel allows)
        double wall_ms = 0;
    };
    // Sends one request (4-byte LE length + payload) and waits for one response. On a crash,
    // time-out or protocol error the child is killed and a new one is started for the next request.
    Reply request(std::string_view payload, std::chrono::milliseconds timeout);
    long pid() const noexcept { return pid_; }

private:
    bool start(std::string& error);
    void stop(bool kill_now);
    void drain_stderr();
    std::vector<std::string> argv_;
    long pid_ = -1;
    int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
    std::string err_buf_;
};

}  // namespace ond::conformance
