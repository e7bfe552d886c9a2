// The words of an answer, and the rejection an adapter reports (`error: CODE at byte N`): the
// runner's testees read it, `ond serve` and the test adapters write it.
#include <algorithm>
#include <string>

#include "ond/rejection.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

const char* answer_name(Answer a) noexcept {
    switch (a) {
        case Answer::accept: return "accept";
        case Answer::reject: return "reject";
        case Answer::crash: return "crash";
        case Answer::timeout: return "timeout";
        case Answer::protocol: return "protocol";
        case Answer::output: return "output";
        case Answer::unsupported: return "unsupported";
        case Answer::start_error: return "start-error";
        case Answer::not_run: return "not-run";
    }
    return "?";
}

std::string rejection_report(std::string_view code, std::uint64_t offset) {
    std::string r(code);
    if (offset != ~std::uint64_t{0}) r += " at byte " + std::to_string(offset);
    return r;
}

Rejection parse_rejection(std::string_view report) {
    Rejection r;
    const std::size_t end = std::min(report.find_first_of(" \t"), report.size());
    r.code = std::string(report.substr(0, end));
    std::string_view rest = report.substr(end);
    constexpr std::string_view at = " at byte ";
    if (r.code.empty() || rest.substr(0, at.size()) != at) return r;
    rest.remove_prefix(at.size());
    if (rest.empty() || rest.size() > 19 || rest.find_first_not_of("0123456789") != std::string_view::npos) return r;
    r.offset = std::stoull(std::string(rest));
    return r;
}

Rejection parse_error_line(std::string_view err) {
    std::string_view line = err.substr(0, err.find('\n'));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    constexpr std::string_view prefix = "error: ";
    if (line.substr(0, prefix.size()) != prefix) return {};
    line.remove_prefix(prefix.size());
    return parse_rejection(line);
}

}  // namespace ond::conformance
