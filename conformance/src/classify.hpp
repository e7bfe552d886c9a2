// Classify: one case's answer against the case, as findings at a level, and the case's status.
// One function per kind of case (decode, stream, encode); no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cases.hpp"
#include "testee.hpp"

namespace ond::conformance {

enum class Level : std::uint8_t { required, recommended, info };
const char* level_name(Level l) noexcept;

enum class Check : std::uint8_t {
    verdict, content, reason, unknown_code, canonical_writer, round_trip, crash, timeout, protocol, memory, output, corpus,
};
const char* check_name(Check c) noexcept;

// spec: an implementation-defined case passes either verdict (an accepted one must give the
// if-accepted content); strict: the reference's choice is required.
enum class Profile : std::uint8_t { spec, strict };
const char* profile_name(Profile p) noexcept;

struct Finding {
    Level level = Level::required;
    Check check = Check::verdict;
    std::string message;  // printable (escape_text): testee bytes never reach a report raw
};

enum class Status : std::uint8_t {
    pass,     // every required check passed (recommended findings may exist)
    fail,     // a required check failed and the case is not an expected failure
    xfail,    // a required check failed and the case is listed as an expected failure
    stale,    // listed as an expected failure but passed
    skip,     // not run (--skip, or the testee lacks the operation)
    info,     // implementation-defined case answered otherwise than the reference, as the spec allows
    not_run,  // the run stopped first (--max-consecutive-failures)
};
const char* status_name(Status s) noexcept;

struct CaseResult {
    // What the case was (copied, so results outlive the corpus).
    std::string id, area, source, description, input_path, expected_error;
    std::string expected_path, if_accepted_path, listing_path;  // the case's files, relative to the corpus
    Origin origin = Origin::corpus;
    CaseKind kind = CaseKind::decode;
    CaseVerdict verdict = CaseVerdict::valid;
    std::vector<std::string> rules;
    // What happened.
    Status status = Status::pass;
    Answer answer = Answer::crash;
    std::string error_code;    // the testee's `error: CODE`, escaped
    std::string xfail_reason;  // from the expected-failures file
    std::vector<Finding> findings;
    int recommended_pass = 0, recommended_fail = 0;
    long peak_kb = 0, growth_kb = 0;
    std::size_t output_limit = 0;
    double ms = 0;

    bool required_failed() const;
};

struct ClassifyOptions {
    Profile profile = Profile::spec;
    long memory_bound_kb = 64 * 1024;
};

// The most output a testee may write for a case: 1 MiB + 8 x the expected output (or the
// if-accepted one, whichever is larger) + 64 x the input. More is an [output] failure.
std::size_t output_limit(const Case& c);

CaseResult classify(const Case& c, const TesteeResult& o, const ClassifyOptions& opt);

}  // namespace ond::conformance
