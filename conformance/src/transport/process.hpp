// Running a testee: one child process per case, or one long-lived child answering framed requests.
// Either way everything the child starts is contained (containment.hpp): its memory counted,
// and all of it killed when its case (per case) or its life (persistent) ends.
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

#include "transport/containment.hpp"

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
    long peak_kb = 0;            // peak of its memory group (or of the summed VmHWM of its tree)
    Accounting accounting = Accounting::sampling;  // how peak_kb was measured
    bool private_shm = false;    // it had a /dev/shm of its own
    double wall_ms = 0;
    std::string error;           // why it could not start
};

struct SpawnLimits {
    std::size_t max_output = 256u << 20;  // stdout bytes
    // The memory cap: the peak of the adapter's memory group (or of its tree's summed resident
    // memory, sampled every 1-4 ms, as for the memory bound); past it everything is killed. 0:
    // none. Not RLIMIT_AS, which a JVM or V8 would not start under (they reserve far more address
    // space than they touch).
    long memory_limit_kb = 0;
    // When set, stdout goes here piece by piece instead of into ProcessResult::out (an answer
    // judged as it arrives, never held: the --large cases); still at most max_output bytes.
    // Returning false ends the process as output past the limit does (the answer is already wrong).
    std::function<bool(std::string_view)> out_sink = {};
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

// A long-lived child speaking the framed protocol of docs/protocol.md (version 2 when it says so on
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
        long peak_kb = 0;        // peak of the group (or tree) over the request
        long start_kb = 0;       // what the group (or tree) held when the request was sent
        double wall_ms = 0;
        // Non-empty when bytes arrived after the previous complete response that are no answer to
        // this request (before it, or numbered for an earlier request or for none): the previous
        // answer is void, and this request was sent to a fresh process.
        std::string previous_void;
        // Version 2: the number of the earlier request whose answer is void, when the stray
        // bytes carried the number of a request this process had.
        std::optional<std::uint32_t> void_number;
        // Non-empty when the process had exited after the previous answer (before its end of
        // input): why; this request went to a fresh process.
        std::string previous_exit;
    };
    // Sends one request and waits for its response. On a crash, time-out or protocol error the
    // child's group is killed and a new one is started for the next request. A response longer
    // than max_response is refused from its length field, without reading it; in version 2 its
    // number is checked first, so that bytes which are no answer to this request are never
    // judged as one (they void the answer they followed; this request goes to a fresh process).
    // The request frame is always written whole (within the time-out), even when the answer
    // comes first. A streamed input goes out piece by piece and is never re-sent.
    // With a sink, an answer's bytes after its status byte go to the sink as they arrive and
    // are not kept (the payload holds the status byte alone); a sink that returns false ends the
    // process as an answer past the output limit does.
    Reply request(char op, const Input& input, std::chrono::milliseconds timeout, std::size_t max_response = 1u << 30,
                  const std::function<bool(std::string_view)>* sink = nullptr);
    Reply request(char op, std::string_view input, std::chrono::milliseconds timeout, std::size_t max_response = 1u << 30) {
        return request(op, Input::of(input), timeout, max_response);
    }
    // Ends the child (end of input, then a kill); returns what it wrote after its last response.
    std::string finish();

    // Requests sent to each fresh process before its first case; their memory is its baseline.
    void set_baselines(std::map<char, std::string> inputs) { baseline_inputs_ = std::move(inputs); }
    // Starts the process now (the hello and the baseline requests), so that its baseline is known
    // before the first case; a failure is told by the first request, which starts it again.
    void prepare(std::chrono::milliseconds timeout);
    // The baseline of the live process: the most of what one of its baseline requests cost (the
    // least of three) and of what it kept from all of them. 0 before it has one.
    long baseline_kb(char op) const;
    // What each case's request is charged less: the least of three baseline requests' costs.
    long baseline_cost_kb(char op) const;
    // The largest baseline any process of this one measured.
    long largest_baseline_kb(char op) const;
    int protocol() const noexcept { return protocol_; }
    long pid() const noexcept { return pid_; }
    Accounting accounting() const noexcept;
    // Which process this is: a new value for each process started.
    std::uint64_t life() const noexcept { return serial_; }

private:
    struct Exchange;  // one request and its response, under way
    bool start(std::string& error);
    bool spawn_and_greet(std::string& error);
    void measure_baselines();
    Reply exchange(const std::string& header, const Input& input, std::uint32_t number, std::chrono::milliseconds timeout,
                   std::size_t max_response, bool& stale, const std::function<bool(std::string_view)>* sink = nullptr);
    bool sink_payload(Exchange& x);
    std::optional<Reply> step(Exchange& x);
    std::optional<Reply> write_request(Exchange& x, short revents);
    std::optional<Reply> read_response(Exchange& x);
    std::optional<Reply> judge_header(Exchange& x, bool& open);
    Reply not_an_answer(Exchange& x, std::uint32_t got, bool& stale);
    Reply complete_answer(Exchange& x);
    Reply fail(Exchange& x, Reply::Kind k, std::string why);
    Reply gone_or_crash(Exchange& x, std::string why);
    std::string gone_between_requests();
    std::string stray_before_request(std::optional<std::uint32_t>& void_number);
    void stop(bool kill_now, std::string* trailing = nullptr);
    void end_group();
    void reap_after_failure(Reply& rep, bool crashed);
    void drain_stderr();

    std::vector<std::string> argv_;
    long memory_limit_kb_ = 0;
    std::chrono::milliseconds hello_timeout_{10000};  // the case time-out of the latest request
    long pid_ = -1;
    std::uint64_t serial_ = 0;
    std::unique_ptr<Containment> group_;
    int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
    int protocol_ = 1;
    bool start_broke_protocol_ = false;
    bool wrote_anything_ = false;           // this process has written a byte on its output
    long cases_answered_ = 0;               // requests of cases (not baselines) this process answered
    std::uint32_t next_number_ = 1;
    std::uint32_t first_number_ = 1;        // the first request number this process was sent
    Excerpt err_;
    std::map<char, std::string> baseline_inputs_;
    std::map<char, long> baseline_cost_kb_;  // per operation: the least of three requests' costs
    long baseline_kept_kb_ = 0;              // what the process kept from all its baseline requests
    std::map<char, long> largest_baseline_kb_;
    Accounting last_accounting_ = Accounting::sampling;
};

}  // namespace ond::conformance
