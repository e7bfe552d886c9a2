// Classify: one case's answer against the case, as findings at a level, and the case's status.
// One function per kind of case (decode, stream, encode); no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "suite/cases.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

enum class Level : std::uint8_t { required, recommended, info };
const char* level_name(Level l) noexcept;

enum class Check : std::uint8_t {
    verdict, content, reason, unknown_code, canonical_writer, round_trip, crash, timeout, protocol, memory, output, corpus,
    offset,  // the byte offset an adapter reported with a rejection (optional; recommended)
};
const char* check_name(Check c) noexcept;

// spec: an implementation-defined case passes either verdict (an accepted one must give the
// if-accepted content); strict: the reference's choice is required.
enum class Profile : std::uint8_t { spec, strict };
const char* profile_name(Profile p) noexcept;

// One thing a case's answer got wrong (or, at info level, did otherwise than the reference).
// `rule` is the rule the answer breaks (a rules.json id: "R19", "W3"; "protocol" for an answer
// that breaks the testee protocol itself), which need not be a rule the case cites: a valid
// case about R19 whose confidences come back wrong breaks R3. `field` is where: a content JSON
// path ("doc.tokens[2].conf", "(top level)"), a stream's "line 3: " and a path, the field of the
// bytes a writer got wrong, or "byte N" of the input where the reference finds the fault; ""
// only for a broken protocol (no field of the format is involved). See conformance/README.md.
struct Finding {
    Level level = Level::required;
    Check check = Check::verdict;
    std::string message;  // printable (escape_text): testee bytes never reach a report raw
    std::string rule;
    std::string field;    // printable (escape_text), like the message
};

// "R3 at doc.tokens[2].conf", "protocol": the rule and field of a finding, for the reports.
std::string rule_and_field(const Finding& f);

// The rule a content difference at JSON path `path` breaks, by the field it names (the content
// model's fields map to the rules of the sections they are read from); "" for no such field.
std::string content_rule(std::string_view path);
// A difference as compare_content words it ("doc.tokens[2].conf: expected 0.5, got 0.25"): the
// first piece before a ": " that is a JSON path; else "". One pass, whatever the length.
std::string difference_path(std::string_view difference);

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

// A case (what it was: CaseInfo, without its bytes, so results outlive the corpus) and what
// happened. Every report is written from these alone; --html-merge reads them back from JSON.
struct CaseResult : CaseInfo {
    Status status = Status::pass;
    Answer answer = Answer::crash;
    std::string error_code;    // the testee's `error: CODE`, escaped
    std::string xfail_reason;  // from the expected-failures file
    std::vector<Finding> findings;
    // Files written next to the reports to reproduce the failure by hand, as (label, path): a
    // derived or fuzz case's input, a large case's recipe, what an encoder wrote and the bytes it
    // should have written (settle.cpp, save_failure_files).
    std::vector<std::pair<std::string, std::string>> saved;
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

// The operation a kind of case asks of the testee, and its word in reports ("decode").
Op op_of(CaseKind k);
const char* op_word(Op op);

}  // namespace ond::conformance
