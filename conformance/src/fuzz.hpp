// Differential fuzzing of a testee against the reference codec (`ond conform --fuzz SECONDS`).
#pragma once

#include <iosfwd>
#include <string>

#include "runner.hpp"

namespace ond::conformance {

struct FuzzReport {
    std::uint64_t inputs = 0;
    std::uint64_t disagreements = 0;  // inputs whose answer differed
    int saved = 0;                    // minimised regression files written
    std::uint64_t seed = 0;
};

// Mutates the corpus's decode inputs for `seconds`, compares the testee's decode answers with the
// reference's, minimises one input per kind of disagreement (dropping sections, records and
// bytes with re-framing, then greedy raw byte deletion) and writes it
// with its metadata under out_dir.
FuzzReport run_fuzz(const Options& opt, double seconds, const std::string& out_dir, std::ostream& out, std::ostream& err);

}  // namespace ond::conformance
