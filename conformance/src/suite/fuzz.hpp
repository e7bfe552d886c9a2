// Differential fuzzing of a testee's decoder against the reference codec (`ond conform --fuzz
// SECONDS`), a phase of the one run: its minimised disagreements become cases (Origin::fuzz)
// classified and reported with the others.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "suite/cases.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

struct FuzzOptions {
    double seconds = 0;
    std::string out_dir;          // where the minimised inputs and their metadata are written
    std::uint64_t seed = 0;
    unsigned jobs = 1;            // workers 0 .. jobs-1 of the testee
    bool spec_profile = true;     // an implementation-defined rejection may be accepted
    std::size_t case_index = 0;   // given to the testee with every request (past the run's cases)
};

// A minimised disagreement: the case (the reference's verdict and content as what is expected)
// and the testee's answer to it.
struct FuzzFinding {
    Case c;
    TesteeResult answer;
};

struct FuzzReport {
    std::uint64_t inputs = 0;
    std::uint64_t disagreements = 0;  // inputs whose answer differed
    int saved = 0;                    // minimised regression files written
    std::vector<FuzzFinding> findings;
};

// Mutates the corpus's decode inputs for `seconds`, compares the testee's decode answers with the
// reference's, minimises one input per kind of disagreement (dropping sections, records and
// bytes with re-framing, then greedy raw byte deletion) and writes it with its metadata under
// out_dir. Every testee text it prints or writes is escaped (ond/text_escape.hpp).
FuzzReport run_fuzz(const Corpus& corpus, Testee& testee, const FuzzOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace ond::conformance
