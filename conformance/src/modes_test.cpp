// One run, two ways to reach the adapter: a planted bug fails the same cases and the same checks
// whether the adapter is started once per case or once per job (persistent, framed).
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_conform_run.hpp"

namespace ond::conformance {
namespace modes_test {

using namespace test_run;

// id -> "status: level/check ..." for every case that did not simply pass.
std::map<std::string, std::string> verdicts(const ConformRun& r) {
    std::map<std::string, std::string> v;
    for (const auto& c : r.results["cases"]) {
        std::set<std::string> checks;
        for (const auto& f : c["findings"]) checks.insert(f["level"].get<std::string>() + "/" + f["check"].get<std::string>());
        if (c["status"] == "pass" && checks.empty()) continue;
        std::string line = c["status"].get<std::string>() + ":";
        for (const auto& k : checks) line += " " + k;
        v[c["id"]] = line;
    }
    return v;
}

std::vector<std::string> per_case(const std::string& fault) {
    return {"--decoder", with_fault(fault, "decode"), "--encoder", with_fault(fault, "encode"), "--stream-decoder",
            with_fault(fault, "stream")};
}

TEST(Modes, PlantedBugsFailTheSameCasesAndChecksPersistentAndPerCase) {
    const std::vector<std::string> common = {"--seed", "7", "--max-derived", "15", "--max-consecutive-failures", "0"};
    for (const std::string fault : {"noncanonical-table", "lossy-floats", "ignore-crc", "nan-conf", "accept-impl-wrong", "wrong-code"}) {
        auto a_args = common, b_args = common, c_args = common;
        for (const auto& s : per_case(fault)) a_args.push_back(s);
        b_args.insert(b_args.end(), {"--persistent", with_fault(fault, "serve")});
        c_args.insert(c_args.end(), {"--persistent", with_fault(fault, "--protocol 1 serve"), "-j", "1"});
        const ConformRun a = conform(a_args), b = conform(b_args), c = conform(c_args);
        const auto va = verdicts(a);
        EXPECT_EQ(a.code, fault == "wrong-code" ? 0 : 1) << fault << "\n" << a.out;  // a wrong code is recommended only
        EXPECT_FALSE(va.empty()) << fault;
        EXPECT_EQ(va, verdicts(b)) << fault << " (persistent, protocol 2)";
        EXPECT_EQ(va, verdicts(c)) << fault << " (persistent, protocol 1)";
        EXPECT_EQ(a.code, b.code) << fault;
        EXPECT_EQ(a.code, c.code) << fault;
    }
}

// The writer bug is seen through the decode -> encode round trip in both modes.
TEST(Modes, TheRoundTripRunsInPersistentMode) {
    ConformRun r = conform({"--no-derived", "--persistent", with_fault("noncanonical-table", "serve")});
    EXPECT_TRUE(r.has_finding("valid/document/basic", "required", "round-trip")) << r.out;
    EXPECT_EQ(r.result("valid/document/basic")["status"], "fail");
}

}  // namespace modes_test
}  // namespace ond::conformance
