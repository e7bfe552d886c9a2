// The expected-failures list (--expected-failures FILE): read with bounds, then resolved against
// the corpus and the cases the run plans. A former id of a case counts as its current id (with a
// note); an entry that matches no case fails the run unless --allow-unknown-expected-failures.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "suite/cases.hpp"

namespace ond::conformance {

// What a list may hold: more is refused before it is kept (a list read from /dev/zero or an
// endless pipe stops at once, in constant memory).
inline constexpr std::size_t expected_failures_max_bytes = 1u << 20;
inline constexpr std::size_t expected_failures_max_lines = 100000;

// One entry: `id  # reason` on line `line` (1-based).
struct ListedFailure {
    std::size_t line = 0;
    std::string id, reason;
};

// Reads an expected-failures file: `id  # reason` a line (the reason is optional), `#` lines are
// comments, a UTF-8 byte-order mark is dropped. Throws std::runtime_error ("expected-failures:LINE:
// ..." where a line is to blame) for a file past the bounds above, a NUL byte, or one it cannot read;
// a list that is not a regular file (a pipe) must end within `seconds`.
std::vector<ListedFailure> read_expected_failures(const std::string& path, int seconds = 30);

struct ExpectedFailures {
    std::map<std::string, std::string> reasons;  // current case id -> reason
    // "expected-failures:LINE: ..." lines. Notes: an entry that names a former id (counted as the
    // current one), a derived case this run did not make, a --large case of a run without --large.
    std::vector<std::string> notes;
    std::vector<std::string> unknown;      // the entries that match no case, as such lines
    std::vector<std::string> unknown_ids;  // and their ids
};

// Resolves a list against the corpus (its ids and former ids) and `planned`, the id of every case
// the run makes, selected by --filter or not. `large`: the run has --large.
ExpectedFailures resolve_expected_failures(const std::vector<ListedFailure>& list, const Corpus& corpus,
                                           const std::set<std::string>& planned, bool large);

}  // namespace ond::conformance
