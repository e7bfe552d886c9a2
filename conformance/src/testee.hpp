// What the runner talks to: the reference codec in-process, adapter commands (one process per
// case), or one long-lived adapter process per worker speaking the framed protocol.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "process.hpp"

namespace ond::conformance {

enum class Op : char { decode = 'D', encode = 'E', stream = 'S' };

struct Outcome {
    enum class Status {
        accept,       // exit 0 / status 0
        reject,       // exit 1 / status 1
        crash,        // a signal, another exit status, a broken frame
        timeout,
        unsupported,  // the testee has no adapter for this operation
        start_error,  // the adapter could not be started at all
    };
    Status status = Status::crash;
    std::string out;     // stdout (accept: the answer; stream reject: the lines before the fault)
    std::string code;    // from `error: CODE` (reject)
    std::string detail;  // crash / time-out details, stderr excerpt
    long rss_kb = 0;     // peak RSS of the testee process for this case (0: not measured)
    double ms = 0;
};

const char* status_name(Outcome::Status s) noexcept;

// Parses a stderr text's first line for `error: CODE`.
std::string parse_error_line(std::string_view err);

class Testee {
public:
    virtual ~Testee() = default;
    virtual bool supports(Op op) const = 0;
    // `worker` is the index of the calling thread (0 .. jobs-1).
    virtual Outcome run(Op op, std::string_view input, unsigned worker) = 0;
    virtual std::string describe() const = 0;
    virtual bool measures_memory() const { return false; }
};

// --- the reference codec as a testee, and the reference answers the checks compare with ---

struct RefAnswer {
    bool accept = false;
    std::string out;         // decode: content JSON; encode: bytes; stream: JSON lines ('\n' after each)
    std::string code;        // reject: error code
    std::string message;     // reject: the codec's message
    bool impl_defined = false;  // reject under an implementation-defined ruling
};
RefAnswer reference_decode(std::string_view bytes);
RefAnswer reference_encode(std::string_view content_json);
RefAnswer reference_stream(std::string_view bytes);
RefAnswer reference_answer(Op op, std::string_view input);

std::unique_ptr<Testee> make_reference_testee();
// Commands may be empty (that operation is then unsupported). Throws std::invalid_argument on
// a command that cannot be split or whose program cannot be found.
std::unique_ptr<Testee> make_command_testee(const std::string& decoder, const std::string& encoder,
                                            const std::string& stream_decoder,
                                            std::chrono::milliseconds timeout);
std::unique_ptr<Testee> make_persistent_testee(const std::string& command, unsigned workers,
                                               std::chrono::milliseconds timeout);

// The framed protocol's payloads (PROTOCOL.md), shared by the runner and serve_main.
std::string frame_reply(const RefAnswer& a);

}  // namespace ond::conformance
