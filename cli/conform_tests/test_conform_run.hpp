// Running `ond conform` in-process for the runner's tests, and reading its JSON results.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suite/cases.hpp"
#include "conform_cli.hpp"
#include "test_fixture.hpp"
#include "ond/ond.hpp"

namespace ond::conformance::test_run {

namespace fs = std::filesystem;


inline const std::string adapter = OND_TEST_ADAPTER;

inline std::string work_dir() {
    static const std::string dir = [] {
        std::string d = std::string(OND_TEST_WORK_DIR) + "/run-" + std::to_string(::getpid());
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

inline std::string fixture() {
    static const std::string dir = testing::build_fixture_corpus(work_dir() + "/corpus");
    return dir;
}

class Cleanup : public ::testing::Environment {
public:
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(std::string(OND_TEST_WORK_DIR) + "/run-" + std::to_string(::getpid()), ec);
    }
};
inline const auto* const cleanup = ::testing::AddGlobalTestEnvironment(new Cleanup);

struct ConformRun {
    int code = -1;
    std::string out, err, last_line;
    nlohmann::json results;

    const nlohmann::json& result(const std::string& id) const {
        for (const auto& c : results["cases"])
            if (c["id"] == id) return c;
        static const nlohmann::json none;
        ADD_FAILURE() << "no result for " << id;
        return none;
    }
    bool has_finding(const std::string& id, const std::string& level, const std::string& check) const {
        const auto& c = result(id);
        if (c.is_null()) return false;
        for (const auto& f : c["findings"])
            if (f["level"] == level && f["check"] == check) return true;
        return false;
    }
    std::vector<std::string> failed_ids() const {
        std::vector<std::string> ids;
        for (const auto& c : results["cases"])
            if (c["status"] == "fail") ids.push_back(c["id"]);
        return ids;
    }
};

inline ConformRun conform(std::vector<std::string> args, bool with_corpus = true) {
    static int n = 0;
    std::string json_path = work_dir() + "/results-" + std::to_string(++n) + ".json";
    if (with_corpus) args.insert(args.begin(), {"--corpus", fixture()});
    args.insert(args.end(), {"--json", json_path, "-q"});
    std::ostringstream out, err;
    ConformRun r;
    r.code = conform_run(args, out, err);
    r.out = out.str();
    r.err = err.str();
    std::string trimmed = r.out;
    while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
    r.last_line = trimmed.substr(trimmed.rfind('\n') + 1);
    if (fs::exists(json_path)) r.results = nlohmann::json::parse(read_file(json_path));
    return r;
}

// Where the reference finds the fault of a fixture case's input file: "byte N", as a finding's
// field names it.
inline std::string fault_byte(const std::string& case_file) {
    const std::string bytes = read_file(fixture() + "/cases/" + case_file);
    try {
        (void)ond::decode(std::as_bytes(std::span(bytes.data(), bytes.size())));
    } catch (const ond::Error& e) {
        return "byte " + std::to_string(e.offset());
    }
    ADD_FAILURE() << case_file << " decodes";
    return {};
}

inline std::string with_fault(const std::string& fault, const std::string& op) { return adapter + " --fault " + fault + " " + op; }

// The summary line agrees with the per-case results.
inline void expect_consistent_last_line(const ConformRun& r) {
    std::smatch m;
    std::regex re("^CONFORMANCE (PASSED|FAILED): (\\d+) passed, (\\d+) failed, (\\d+) expected failures, (\\d+) skipped, "
                  "(\\d+) informational, (\\d+) not run$");
    ASSERT_TRUE(std::regex_match(r.last_line, m, re)) << r.last_line;
    EXPECT_EQ(m[1] == "PASSED", r.code == 0);
    int pass = 0, fail = 0, xfail = 0, skip = 0, info = 0, not_run = 0;
    for (const auto& c : r.results["cases"]) {
        std::string s = c["status"];
        pass += s == "pass" || s == "stale";
        fail += s == "fail";
        xfail += s == "xfail";
        skip += s == "skip";
        info += s == "info";
        not_run += s == "not-run";
    }
    EXPECT_EQ(std::stoi(m[2]), pass);
    EXPECT_EQ(std::stoi(m[3]), fail);
    EXPECT_EQ(std::stoi(m[4]), xfail);
    EXPECT_EQ(std::stoi(m[5]), skip);
    EXPECT_EQ(std::stoi(m[6]), info);
    EXPECT_EQ(std::stoi(m[7]), not_run);
    // The table's total row shows the same numbers.
    std::smatch t;
    std::regex total("\ntotal +(\\d+) +(\\d+) +(\\d+) +(\\d+) +\\d+ +\\d+ +(\\d+) +(\\d+) +(\\d+)\n");
    ASSERT_TRUE(std::regex_search(r.out, t, total)) << r.out;
    EXPECT_EQ(std::stoi(t[2]), pass);
    EXPECT_EQ(std::stoi(t[3]), fail);
    EXPECT_EQ(std::stoi(t[4]), xfail);
    EXPECT_EQ(std::stoi(t[5]), skip);
    EXPECT_EQ(std::stoi(t[6]), info);
    EXPECT_EQ(std::stoi(t[7]), not_run);
}

}  // namespace ond::conformance::test_run
