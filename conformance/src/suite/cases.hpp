// The cases the runner checks: those of the corpus manifest, and those it derives at run time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ond/corpus_manifest.hpp"

namespace ond::conformance {

using corpus::CaseKind;
using corpus::CaseVerdict;
using corpus::kind_name;
using corpus::verdict_name;
// Where a case comes from: the corpus; derived at run time from a corpus case (bit flips,
// prefixes, mutations, memory); the limits at full size (--large, made on the fly); or a
// disagreement found by differential fuzzing (--fuzz).
enum class Origin : std::uint8_t { corpus, bitflip, prefix, mutation, memory, large, fuzz };

class StreamedAnswer;  // suite/large_answer.hpp

// A reader of bytes made piece by piece (at most 1 MiB each); an empty view at the end.
using PieceReader = std::function<std::string_view()>;

// An input made piece by piece while it is sent, never held whole (the --large cases).
struct GeneratedInput {
    std::uint64_t size = 0;
    std::string recipe;  // what the bytes are, in words (written next to the reports)
    std::function<PieceReader()> open;  // a fresh reader of the pieces
    // A case that must be accepted: a fresh check of its answer as it arrives (never held), and
    // the most bytes that answer may have.
    std::function<std::shared_ptr<StreamedAnswer>()> answer;
    std::uint64_t answer_limit = 0;
};

const char* origin_name(Origin o) noexcept;

// What a case is, apart from its bytes: the manifest entry's identity and files (a case made at run
// time keeps those of the corpus case it was made from). A Case is one, and so is its CaseResult:
// every report reads these fields from the result, never from a copy kept in step by hand.
struct CaseInfo {
    std::string id;
    CaseKind kind = CaseKind::decode;
    std::string area;
    CaseVerdict verdict = CaseVerdict::valid;
    std::vector<std::string> rules;
    std::string description;
    std::string input_path;             // relative to the corpus (derived: the source's)
    std::string expected_path, if_accepted_path, listing_path;  // relative to the corpus; "" if none
    std::string error;                  // expected error code, "" if none
    Origin origin = Origin::corpus;
    std::string source;                 // derived: the corpus case it was made from
};

struct Case : CaseInfo {
    std::string input;                  // bytes (decode, stream) or content JSON (encode)
    std::optional<std::string> expected;  // decode: content JSON; stream: JSON lines; encode: bytes
    std::optional<std::string> if_accepted;  // the if-accepted file's bytes (impl cases)
    // Other contents as acceptable as `if_accepted` (the manifest's if_accepted_also: R9's reading
    // of sections 6 and 7 in a record) and their paths.
    std::vector<std::string> if_accepted_also;
    std::vector<std::string> if_accepted_also_paths;
    bool canonical = false;
    bool expect_accept = true;          // what the reference does (and so what strict demands)

    // Derived cases.
    bool check_reason = true;           // compare the testee's error code with `error`
    bool check_memory = false;          // hold the testee's peak RSS to the bound

    // Large cases: the input, made while it is sent (`input` is then empty).
    std::shared_ptr<const GeneratedInput> generated;
};

using corpus::Rule;

struct Corpus {
    std::string dir;
    std::string corpus_version;
    int format_version = 0;
    std::vector<Case> cases;
    std::vector<Rule> rules;            // from rules.json; empty when the file is absent
    std::map<std::string, std::string> former_ids;  // a case's former id -> its id (the manifest's former_ids)
    std::vector<std::string> problems;  // hash mismatches, unreadable files: each fails the run
};

// Loads manifest.json (and rules.json when present) from `dir`, reading every case's files and
// checking their SHA-256 when the manifest gives one. Throws std::runtime_error when the
// manifest itself cannot be read.
Corpus load_corpus(const std::string& dir);

using corpus::read_file;  // throws std::runtime_error
// Writes the whole file; throws std::runtime_error with the system's reason (disk full, ...).
void write_file(const std::string& path, const std::string& data);
// Throws std::runtime_error when `path` cannot be written (checked before a long run).
void check_writable(const std::string& path);

// Glob match with `*` (any run, also across '/'), `?` (one character) and `[...]` classes.
bool glob_match(const std::string& pattern, const std::string& text);

}  // namespace ond::conformance
