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

// 'Unsupported' (status 2) to every request: nothing is checked, so the run cannot pass.
TEST(Support, AnAdapterThatSupportsNothingFails) {
    ConformRun r = conform({"--max-derived", "5", "--persistent", with_fault("unsupported-all", "serve")});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(r.last_line.rfind("CONFORMANCE FAILED: 0 passed, 0 failed", 0) == 0) << r.last_line;
    EXPECT_NE(r.out.find("NOT TESTED: decode (the testee answered 'unsupported' (status 2) to every decode request)"),
              std::string::npos) << r.out;
    EXPECT_EQ(r.results["not_tested"].size(), 3u);
    EXPECT_EQ(r.results["summary"]["ok"], false);
}

// 'Unsupported' only where it would reject: the operation was supported by its first answer, so
// every later 'unsupported' is a protocol failure of its case.
TEST(Support, UnsupportedOnlyWhereItWouldRejectFailsThoseCases) {
    ConformRun r = conform({"--no-derived", "-j", "1", "--max-consecutive-failures", "0", "--persistent",
                            with_fault("unsupported-rejects", "serve")});
    EXPECT_EQ(r.code, 1) << r.out;
    expect_consistent_last_line(r);
    EXPECT_EQ(r.result("valid/document/basic")["status"], "pass");
    for (const std::string id : {"invalid/crc/mismatch", "invalid/header/bad-magic", "invalid/stream/truncated",
                                 "invalid/encode/head-out-of-range"}) {
        EXPECT_EQ(r.result(id)["status"], "fail") << id;
        EXPECT_EQ(r.result(id)["answer"], "protocol") << id;
        EXPECT_TRUE(r.has_finding(id, "required", "protocol")) << id;
    }
    EXPECT_EQ(r.results["summary"]["skipped"], 0);
}

// An operation the testee does not offer at all is reported as not tested; the run still passes.
TEST(Support, AnOperationNotOfferedIsReportedAsNotTested) {
    ConformRun r = conform({"--no-derived", "--decoder", adapter + " decode", "--encoder", adapter + " encode"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("NOT TESTED: stream (no --stream-decoder)"), std::string::npos) << r.out;
    EXPECT_EQ(r.results["not_tested"]["stream"], "no --stream-decoder");
    ConformRun s = conform({"--no-derived", "--persistent", with_fault("unsupported-stream", "serve")});
    EXPECT_EQ(s.code, 0) << s.out;
    EXPECT_EQ(s.results["not_tested"]["stream"], "the testee answered 'unsupported' (status 2) to every stream request");
    // Without a decoder nothing of decode is checked: the run fails.
    ConformRun e = conform({"--no-derived", "--encoder", adapter + " encode"});
    EXPECT_EQ(e.code, 1) << e.out;
    EXPECT_EQ(e.results["not_tested"]["decode"], "no --decoder");
}

}  // namespace modes_test
}  // namespace ond::conformance
