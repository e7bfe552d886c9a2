// Running a testee: one child process per case, or one long-lived child answering framed requests.
// Either way the child's whole process tree is watched (memory) and killed when its case ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ond::conformance {

// An input the runner may not hold whole (the --large cases): its size, then its bytes piece by
// piece. `held` is the whole input when `next` is empty.
struct Input {
    std::string_view held;
    std::uint64_t size = 0;                  // == held.size() when held
    std::function<std::string_view()> next;  // the next piece (valid until the next call); empty view at the end
    static Input of(std::string_view bytes) { return {bytes, bytes.size(), {}}; }
};

// Splits a command line into arguments the way a POSIX shell would for a simple command:
// whitespace separates words, single quotes keep everything literally, double quotes keep
// everything but `\"`, `\\`, `\$` and `` \` `` escapes, and a backslash outside quotes escapes the
// next character. No expansion of variables, globs or substitutions. Throws std::invalid_argument
// on an unterminated quote or an empty command.
std::vector<std::string> split_command(std::string_view cmd);

// True when the command uses shell syntax that split_command does not give (pipes, redirections,
// `;`, `&`, `$`, backquotes, globs, `~`, parentheses) outside single quotes.
bool has_shell_syntax(std::string_view cmd);

// The argv a command runs as: its words when it is a simple command (started directly, with
// posix_spawn), else `/bin/sh -c CMD`.
std::vector<std::string> command_argv(std::string_view cmd);

// Resolves argv[0] through PATH (unless it holds a '/'); empty when not found or not executable.
std::string resolve_executable(const std::string& name);

// Keeps the first and the last `keep` bytes of what a child writes on stderr.
struct Excerpt {
    std::size_t keep = 2048;
    std::string head, tail;
    std::size_t total = 0;
    void add(const char* p, std::size_t n);
    std::string text() const;  // head, "[... N bytes ...]", tail
    void clear() { head.clear(), tail.clear(), total = 0; }
};

struct ProcessResult {
    bool started = false;        // false: could not start (see error)
    bool exited = false;         // exited normally (exit_code valid)
    int exit_code = -1;
    int signal = 0;              // terminating signal, 0 if none
    bool timed_out = false;      // killed by the runner after the time-out
    bool output_exceeded = false;  // stdout went past max_output: killed, `out` holds the first bytes
    bool memory_exceeded = false;  // the tree went past memory_limit_kb: killed
    std::string out;             // stdout (at most max_output bytes)
    std::string err;             // stderr: its first and last lines (Excerpt)
    long peak_kb = 0;            // peak of the summed VmHWM of the process and its descendants
    double wall_ms = 0;
    std::string error;           // why it could not start
};

struct SpawnLimits {
    std::size_t max_output = 256u << 20;  // stdout bytes
    // The memory cap: the tree's summed peak resident memory (sampled every 1-4 ms, as for the
    // memory bound); past it the tree is killed. 0: none. Not RLIMIT_AS, which a JVM or V8 would
    // not start under (they reserve far more address space than they touch).
    long memory_limit_kb = 0;
};

// The default memory cap: half of the least of the machine's memory and this process's cgroup
// limits, shared by the jobs, and never under 1 GiB. `--memory-limit` sets another.
long default_memory_cap_kb(unsigned jobs);
std::string describe_memory_cap(long cap_kb);
// The detail of a case whose testee went past the cap.
std::string memory_cap_exceeded(long held_kb, long cap_kb);

// Runs argv with `input` on stdin, collecting stdout and stderr (poll, so neither side can block
// the other). When the child exits, or at the time-out, every process it left behind is killed,
// also those that left its session (the runner is their subreaper); then the pipes are drained.
ProcessResult run_process(const std::vector<std::string>& argv, std::string_view input,
                          std::chrono::milliseconds timeout, SpawnLimits limits = {});
// The same with the input made piece by piece, for inputs too large to hold (`ond conform
// --large`): `next` returns the next bytes (valid until the following call), empty at the end.
ProcessResult run_process(const std::vector<std::string>& argv, const std::function<std::string_view()>& next,
                          std::chrono::milliseconds timeout, SpawnLimits limits = {});

// A long-lived child speaking the framed protocol of PROTOCOL.md (version 2 when it says so on
// the hello request, else version 1). Not thread-safe: one per thread.
class PersistentProcess {
public:
    explicit PersistentProcess(std::vector<std::string> argv, long memory_limit_kb = 0);
    ~PersistentProcess();
    PersistentProcess(const PersistentProcess&) = delete;
    PersistentProcess& operator=(const PersistentProcess&) = delete;

    struct Reply {
        // `gone`: it exited cleanly without a byte of the answer (request() turns it into a restart).
        enum class Kind { answer, crash, timeout, protocol_error, output_limit, start_error, memory_cap, gone } kind = Kind::crash;
        std::uint32_t number = 0;  // the request's number (version 2)
        std::string payload;     // the response payload (status byte first, number removed) for `answer`
        std::string detail;      // for the other kinds
        int signal = 0;
        int exit_code = -1;
        std::string err;         // what the child wrote on stderr meanwhile (first and last lines)
        long peak_kb = 0;        // peak of the tree over the request
        long start_kb = 0;       // the root's resident set when the request was sent
        double wall_ms = 0;
        // Non-empty when bytes arrived after the previous complete response (before this request,
        // or as a response numbered for an earlier request): the previous answer is void, and this
        // request was sent to a fresh process.
        std::string previous_void;
        // Version 2: the number of the earlier request whose answer is void, when the stray
        // bytes carried one.
        std::optional<std::uint32_t> void_number;
        // Non-empty when the process had exited after the previous answer (before its end of
        // input): why; this request went to a fresh process.
        std::string previous_exit;
    };
    // Sends one request and waits for its response. On a crash, time-out or protocol error the
    // child's tree is killed and a new one is started for the next request. A response longer than
    // max_response is refused from its length field, without reading it.
    // The request frame is always written whole (within the time-out), even when the answer
    // comes first. A streamed input goes out piece by piece and is never re-sent.
    Reply request(char op, const Input& input, std::chrono::milliseconds timeout, std::size_t max_response = 1u << 30);
    Reply request(char op, std::string_view input, std::chrono::milliseconds timeout, std::size_t max_response = 1u << 30) {
        return request(op, Input::of(input), timeout, max_response);
    }
    // Ends the child (end of input, then a kill); returns what it wrote after its last response.
    std::string finish();

    // Requests sent to each fresh process before its first case; their memory is its baseline.
    void set_baselines(std::map<char, std::string> inputs) { baseline_inputs_ = std::move(inputs); }
    long baseline_kb(char op) const;
    int protocol() const noexcept { return protocol_; }
    long pid() const noexcept { return pid_; }
    // Which process this is: a new value for each process started.
    std::uint64_t life() const noexcept { return serial_; }

private:
    bool start(std::string& error);
    Reply exchange(const std::string& header, const Input& input, std::uint32_t number, std::chrono::milliseconds timeout,
                   std::size_t max_response, bool& stale);
    std::string gone_between_requests();
    void stop(bool kill_now, std::string* trailing = nullptr);
    void reap_after_failure(Reply& rep, bool crashed);
    void drain_stderr();

    std::vector<std::string> argv_;
    long memory_limit_kb_ = 0;
    std::chrono::milliseconds hello_timeout_{10000};  // the case time-out of the latest request
    long pid_ = -1;
    std::uint64_t serial_ = 0;
    int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
    int protocol_ = 1;
    bool start_broke_protocol_ = false;
    std::uint32_t next_number_ = 1;
    Excerpt err_;
    std::map<char, std::string> baseline_inputs_;
    std::map<char, long> baseline_kb_;
};

}  // namespace ond::conformance
