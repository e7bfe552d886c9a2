// The second stage of a run: every selected case put to the testee (workers in parallel) and its
// answer classified. The testee is only the transport's interface (transport/testee.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "suite/classify.hpp"
#include "suite/plan.hpp"
#include "transport/testee.hpp"

namespace ond::conformance {

struct ExecuteInput {
    std::vector<std::string> skips;          // --skip globs: those cases are not put to the testee
    unsigned jobs = 2;                       // workers, each with its worker index into the testee
    std::chrono::milliseconds timeout{10000};  // --timeout (a large case gets large_timeout of it)
    int max_consecutive_failures = 20;       // crashes, time-outs, protocol errors in a row; 0: no limit
    ClassifyOptions classify;
    bool progress = true;                    // progress lines on `err`
    bool progress_tty = false;               // one line redrawn in place
};

struct Executed {
    std::vector<CaseResult> results;          // by place in Plan::selected; empty id: no worker took it
    std::vector<char> asked;                  // the case was put to the testee (not --skip, not unsupported)
    std::map<std::size_t, std::string> written;  // what an encoder wrote on a failing case, by place
};

// `expected`: the expected failures' reasons by case id (only counted in the progress line).
// Throws std::runtime_error when the workers' threads cannot start.
Executed execute(const Plan& p, Testee& testee, const std::map<std::string, std::string>& expected, const ExecuteInput& in,
                 std::ostream& err);

// What the testee's memory is measured from (testee.hpp, set_baselines): per operation, the
// corpus's smallest case the reference accepts; the part of a baseline over `allowance_kb` is
// charged to every case. Returns the inputs given.
std::map<Op, std::string> set_memory_baselines(Testee& testee, const Corpus& corpus, long allowance_kb);

}  // namespace ond::conformance
