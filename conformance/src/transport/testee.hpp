// What the suite talks to: one interface, whatever answers behind it. The transport's testees are
// adapter commands (one process per case) and one long-lived adapter process per worker speaking
// the framed protocol; the reference codec in-process is the suite's (suite/reference.hpp).
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

#include "ond/rejection.hpp"
#include "transport/process.hpp"

namespace ond::conformance {

enum class Op : char { decode = 'D', encode = 'E', stream = 'S' };

// What the testee did with a case.
enum class Answer : std::uint8_t {
    accept,       // exit 0 / status 0
    reject,       // exit 1 / status 1
    crash,        // a signal or another exit status
    timeout,
    protocol,     // a persistent testee broke the framing (docs/protocol.md)
    output,       // more output than the case's limit
    unsupported,  // the testee has no adapter for this operation
    start_error,  // the adapter could not be started at all
    not_run,      // the run stopped before this case (--max-consecutive-failures)
};
const char* answer_name(Answer a) noexcept;

// What the testee did with one case (its answer, output, error code and cost).
struct TesteeResult {
    using Status = Answer;
    Answer status = Answer::crash;
    std::string out;     // stdout (accept: the answer; stream reject: the lines before the fault)
    std::string code;    // from `error: CODE` (reject)
    std::optional<std::uint64_t> offset;  // from `error: CODE at byte N` (reject), when given
    std::string detail;  // crash / time-out / protocol details, with the first and last lines of stderr
    bool memory_measured = false;
    long peak_kb = 0;    // peak memory of all the testee started during the case (as its accounting counts)
    long growth_kb = 0;  // that peak over the testee's baseline (what the case itself cost)
    double ms = 0;
};

inline const char* status_name(Answer a) noexcept { return answer_name(a); }

// Parses a stderr text's first line for `error: CODE` (and ` at byte N`).
Rejection parse_error_line(std::string_view err);

// What the runner tells the testee about the case it runs.
struct RunContext {
    std::size_t case_index = 0;              // the case's place in the run (for late verdicts)
    std::size_t output_limit = 256u << 20;   // stdout bytes (persistent: response payload bytes)
    std::chrono::milliseconds timeout{0};    // this case's time-out; 0: the testee's (--timeout)
    // When set, the answer's bytes (stdout; persistent: an accepting response's payload) go here
    // as they arrive instead of into TesteeResult::out (process.hpp, SpawnLimits::out_sink).
    std::function<bool(std::string_view)> sink = {};
};

// A verdict that arrives after its case ran: bytes a persistent testee wrote when no response
// was due void the answer of the case they followed.
struct Amendment {
    std::size_t case_index = 0;
    TesteeResult outcome;
};

class Testee {
public:
    virtual ~Testee() = default;
    virtual bool supports(Op op) const = 0;
    // `worker` is the index of the calling thread (0 .. jobs-1). Every testee takes a streamed
    // input (Input::next): per case it goes to stdin piece by piece, persistently into one frame
    // (a larger input than the 4-byte length holds is a start_error, never sent); the in-process
    // reference answers not_run ("too large to run in-process").
    virtual TesteeResult run(Op op, const Input& input, unsigned worker, const RunContext& ctx) = 0;
    TesteeResult run(Op op, std::string_view input, unsigned worker, const RunContext& ctx) {
        return run(op, Input::of(input), worker, ctx);
    }
    virtual std::string describe() const = 0;
    // The largest input it can be given (persistent: what one frame's 4-byte length holds).
    virtual std::uint64_t largest_input() const { return ~std::uint64_t{0}; }
    // The argv the testee runs for `op` (per case: that operation's command; persistent: the one
    // long-lived command); empty for the in-process reference.
    virtual std::vector<std::string> command(Op) const { return {}; }
    virtual bool measures_memory() const { return false; }
    // How the memory cap is enforced (for the report), "none" when there is none.
    virtual std::string memory_cap() const { return "none"; }
    // How the memory of its processes was counted: "cgroup v2", "cgroup v1" or "process-tree
    // sampling" (containment.hpp); several, joined by " and ", if processes had different ones.
    virtual std::string memory_accounting() const { return "none (in-process)"; }
    // Small valid inputs per operation: what they cost is the testee's memory baseline. A
    // persistent testee starts its processes here, so that their baselines are known.
    virtual void set_baselines(const std::map<Op, std::string>&) {}
    // The largest baseline measured (per case: the least peak of three fresh runs; persistent:
    // the most of a baseline request's cost and of what the process kept from them).
    virtual long baseline_kb(Op) const { return 0; }
    // The part of a baseline above `kb` is charged to every case: a baseline bought with memory
    // that the cases then spend is not free. Default: twice the default memory bound.
    void set_baseline_allowance(long kb) { baseline_allowance_kb_ = kb; }
    long baseline_allowance_kb() const noexcept { return baseline_allowance_kb_; }
    // Each live persistent process's own baseline (each is the least of three small requests);
    // per case, the one baseline.
    virtual std::vector<long> baselines_kb(Op op) const { return {baseline_kb(op)}; }
    // Ends the testee's processes; returns the verdicts that changed meanwhile.
    virtual std::vector<Amendment> finish() { return {}; }

protected:
    long baseline_allowance_kb_ = 128 * 1024;
};

// The process testees. Commands may be empty (that operation is then unsupported). Throws std::invalid_argument on
// a command that cannot be split or whose program cannot be found. Commands with shell syntax
// run under /bin/sh -c; the others are started directly. memory_limit_kb: the memory cap of each
// testee process tree (SpawnLimits); 0: the default for `jobs` parallel testees
// (default_memory_cap_kb); negative: none.
std::unique_ptr<Testee> make_command_testee(const std::string& decoder, const std::string& encoder,
                                            const std::string& stream_decoder,
                                            std::chrono::milliseconds timeout, long memory_limit_kb = 0, unsigned jobs = 1);
std::unique_ptr<Testee> make_persistent_testee(const std::string& command, unsigned workers,
                                               std::chrono::milliseconds timeout, long memory_limit_kb = 0);

}  // namespace ond::conformance
