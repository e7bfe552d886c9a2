// Whatever an adapter starts or keeps is counted and nothing it made survives the run; blame
// stays exact. Each test gives the runner a hostile adapter (hostile_adapter.cpp) and asserts the
// exact verdicts, under the accounting this machine offers (a memory cgroup where the runner may
// make one) and under the fallback, process-tree sampling, which every machine has.
#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_conform_run.hpp"
#include "transport/containment.hpp"

namespace ond::conformance::containment_tests {
namespace {

using namespace test_run;

const std::string hostile = OND_HOSTILE_ADAPTER;

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The accounting a run gets: the machine's, or the fallback forced for the length of a test.
class Accountings : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override { force_sampling(GetParam()); }
    void TearDown() override { force_sampling(false); }
    Accounting expected() const { return available_accounting(); }
    bool cgroup() const { return expected() != Accounting::sampling; }
};
INSTANTIATE_TEST_SUITE_P(Containment, Accountings, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? std::string("ForcedSampling") : std::string("WhatThisMachineHas"); });

// Processes still alive that carry this runner's testee marker (a daemon keeps its environment).
int marked_alive() {
    const std::string want = "OND_CONFORM_TESTEE=" + std::to_string(::getpid()) + ":";
    int n = 0;
    DIR* d = ::opendir("/proc");
    while (dirent* e = d ? ::readdir(d) : nullptr) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        std::ifstream env(std::string("/proc/") + e->d_name + "/environ", std::ios::binary);
        std::string s((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
        std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
        std::string st((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto close = st.rfind(')');
        if (s.find(want) != std::string::npos && close != std::string::npos && close + 2 < st.size() && st[close + 2] != 'Z') ++n;
    }
    if (d) ::closedir(d);
    return n;
}

// Files the hostile adapters of this runner leave in /dev/shm.
int hostile_shm_files() {
    const std::string mine = "ond-hostile-" + std::to_string(::getpid()) + "-";
    int n = 0;
    if (DIR* d = ::opendir("/dev/shm")) {
        while (dirent* e = ::readdir(d)) n += std::string(e->d_name).rfind(mine, 0) == 0;
        ::closedir(d);
    }
    return n;
}

void expect_nothing_left(const std::string& what) {
    EXPECT_EQ(marked_alive(), 0) << what;
    EXPECT_EQ(groups_of_this_runner(), 0u) << what;
    EXPECT_EQ(hostile_shm_files(), 0) << what;
}

bool all_findings_say(const nlohmann::json& c, const std::string& text) {
    if (c["findings"].empty()) return false;
    for (const auto& f : c["findings"])
        if (f["message"].get<std::string>().find(text) == std::string::npos) return false;
    return true;
}

// Over the cap: the crash finding says so (a memory case also has its bound's finding).
bool killed_over_the_cap(const nlohmann::json& c) {
    for (const auto& f : c["findings"])
        if (f["check"] == "crash")
            return f["message"].get<std::string>().rfind("memory cap exceeded: the adapter and all it started held ", 0) == 0;
    return false;
}

const std::vector<std::string> small = {"--no-derived", "-j", "1", "--max-consecutive-failures", "0", "--filter", "valid/document/basic",
                                        "--filter", "invalid/header/*"};

TEST_P(Accountings, TheReportsNameTheAccounting) {
    for (const auto& mode : {std::vector<std::string>{"--decoder", hostile + " honest decode"},
                             std::vector<std::string>{"--persistent", hostile + " honest serve"}}) {
        ConformRun r = conform(with(small, mode));
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_EQ(r.results["memory_accounting"], accounting_name(expected()));
        EXPECT_NE(r.out.find(std::string("memory (") + accounting_name(expected()) + "): "), std::string::npos) << r.out;
        EXPECT_NE(r.out.find(std::string("memory: ") + accounting_name(expected()) + "; baselines decode "), std::string::npos) << r.out;
        expect_nothing_left(mode[1]);
    }
    EXPECT_EQ(std::string(accounting_name(Accounting::sampling)), "process-tree sampling");
}

// A third request that double-forks, leaves the session and touches 40 MiB in the grandchild
// (per case: every run). A group counts the grandchild: over a 30 MiB cap the case fails; the
// sampling of the tree does not see it (conformance/README.md says so). Either way it is killed.
TEST_P(Accountings, ADaemonisedHelperIsCountedByAGroupAndAlwaysKilled) {
    for (const auto& mode : {std::vector<std::string>{"--decoder", hostile + " daemon 40 decode"},
                             std::vector<std::string>{"--persistent", hostile + " daemon 40 serve"}}) {
        ConformRun r = conform(with(with(small, {"--memory-limit", "30"}), mode));
        EXPECT_EQ(r.results["memory_accounting"], accounting_name(expected()));
        if (cgroup()) {
            EXPECT_EQ(r.code, 1) << r.out;
            EXPECT_FALSE(r.failed_ids().empty()) << r.out;
            for (const auto& id : r.failed_ids()) {
                EXPECT_EQ(r.result(id)["answer"], "crash") << id;
                EXPECT_TRUE(killed_over_the_cap(r.result(id))) << id << r.result(id)["findings"];
            }
            if (mode[0] == "--decoder") {
                EXPECT_EQ(r.failed_ids().size(), r.results["cases"].size());
            }
        } else {
            EXPECT_EQ(r.code, 0) << r.out;
        }
        expect_nothing_left(mode[1]);
    }
}

// 40 MiB written with write(2) to a file in /dev/shm: over a 30 MiB cap under every accounting
// (a group is charged the pages; the fallback counts the new files), and no file survives. One
// test for both accountings: the fallback counts and removes any new file of the runner's user in
// a shared /dev/shm, so two such runs at once would see each other's (conformance/README.md).
TEST(Containment, PagesWrittenToDevShmCountAndDoNotSurvive) {
    for (const bool forced : {false, true}) {
        force_sampling(forced);
        for (const auto& mode : {std::vector<std::string>{"--decoder", hostile + " shm-write 40 decode"},
                                 std::vector<std::string>{"--persistent", hostile + " shm-write 40 serve"}}) {
            ConformRun r = conform(with(with(small, {"--memory-limit", "30"}), mode));
            EXPECT_EQ(r.code, 1) << r.out;
            EXPECT_FALSE(r.failed_ids().empty());
            for (const auto& id : r.failed_ids()) EXPECT_TRUE(killed_over_the_cap(r.result(id))) << id << r.result(id)["findings"];
            expect_nothing_left(mode[1]);
        }
        // Within the cap it passes, and its files are gone all the same.
        for (const auto& mode : {std::vector<std::string>{"--decoder", hostile + " shm-write 8 decode"},
                                 std::vector<std::string>{"--persistent", hostile + " shm-write 8 serve"}}) {
            ConformRun r = conform(with(with(small, {"--memory-limit", "30"}), mode));
            EXPECT_EQ(r.code, 0) << r.out;
            expect_nothing_left(mode[1]);
        }
    }
    force_sampling(false);
}

// D13: 32 MiB touched on the first request of each operation and kept, then spent (24 MiB) on
// every later one. The baseline shows it, and the part over the allowance (twice the bound: 16
// MiB) is charged to every case: the memory cases fail their 8 MiB bound, in both modes.
TEST(Containment, ABoughtBaselineIsShownAndCharged) {
    const std::vector<std::string> sel = {"--seed", "2", "--max-derived", "20", "--filter", "derived/memory/valid/document/basic/*",
                                          "--memory-bound", "8", "--max-consecutive-failures", "0", "-j", "1"};
    for (const auto& mode : {std::vector<std::string>{"--decoder", hostile + " bought-baseline 32 decode"},
                             std::vector<std::string>{"--persistent", hostile + " bought-baseline 32 serve"}}) {
        ConformRun r = conform(with(sel, mode));
        EXPECT_EQ(r.code, 1) << r.out;
        EXPECT_GE(r.results["baseline_kb"]["decode"].get<long>(), 32 * 1024) << mode[1];
        EXPECT_EQ(r.results["baseline_rss_kb"], r.results["baseline_kb"]["decode"]);
        EXPECT_EQ(r.results["baseline_allowance_kb"], 16 * 1024);
        EXPECT_NE(r.out.find("the part over 16 MiB is charged to every case"), std::string::npos) << r.out;
        ASSERT_GT(r.results["cases"].size(), 3u);
        for (const auto& c : r.results["cases"]) {
            EXPECT_TRUE(r.has_finding(c["id"], "required", "memory")) << c["id"] << mode[1];
            EXPECT_GE(c["growth_kb"].get<long>(), 16 * 1024) << c["id"];
        }
        expect_nothing_left(mode[1]);
    }
}

// The filter of the blame tests: decode cases that are only read (no encode behind them) and
// the encode cases the hostile adapter misbehaves on.
const std::vector<std::string> blame = {"--no-derived", "-j", "1", "--max-consecutive-failures", "0", "--filter", "invalid/*",
                                        "--filter", "valid/encode/*"};

// 16 bytes 0x01 after each encode answer, sent once the next request is on its way: they void
// the encode case; the decode case they raced is not read as their frame (0x01010101 bytes).
TEST(Containment, StrayBytesVoidTheAnswerTheyFollowedNotTheNextCase) {
    ConformRun r = conform(with(blame, {"--persistent", hostile + " stray-flood serve"}));
    EXPECT_EQ(r.code, 1) << r.out;
    int encode = 0, other = 0, raced = 0;
    for (const auto& c : r.results["cases"]) {
        for (const auto& f : c["findings"]) EXPECT_NE(f["check"], "output") << c["id"];
        if (c["kind"] == "encode") {
            ++encode;
            // Before the next request was read as its response, or after the last one at the end.
            EXPECT_EQ(c["answer"], "protocol") << c["id"];
            EXPECT_TRUE(all_findings_say(c, "; its answer is void (docs/protocol.md: one response per request)")) << c["findings"];
            raced += all_findings_say(c, "8 bytes (01 01 01 01 01 01 01 01) came while request ") &&
                     all_findings_say(c, ", a number no request to this process had; they followed this answer");
        } else {
            ++other;
            EXPECT_EQ(c["status"], "pass") << c["id"] << c["findings"];
        }
    }
    EXPECT_GE(encode, 2);
    EXPECT_GE(raced, 1);
    EXPECT_GE(other, 4);
    expect_nothing_left("stray-flood");
}

// Every encode answer numbered with its request's number + 1000: said as such, the same from a
// fresh process, and no other case is blamed.
TEST(Containment, AnAnswerNumberedForNoRequestIsSaidSo) {
    ConformRun r = conform(with(blame, {"--persistent", hostile + " never-sent-number serve"}));
    EXPECT_EQ(r.code, 1) << r.out;
    for (const auto& c : r.results["cases"]) {
        if (c["kind"] != "encode") {
            EXPECT_EQ(c["status"], "pass") << c["id"] << c["findings"];
            continue;
        }
        EXPECT_EQ(c["answer"], "protocol") << c["id"];
        ASSERT_EQ(c["findings"].size(), 1u) << c["id"];
        const std::string m = c["findings"][0]["message"];
        EXPECT_NE(m.find(" was due: numbered "), std::string::npos) << m;
        EXPECT_NE(m.find(", a number no request to this process had"), std::string::npos) << m;
        EXPECT_EQ(m.find("answered twice"), std::string::npos) << m;
    }
    expect_nothing_left("never-sent-number");
}

// Exit 2 before reading anything: every case says it could not start, not that it closed its
// output mid-response.
TEST(Containment, AnAdapterThatCannotStartIsToldSo) {
    ConformRun r = conform({"--no-derived", "-j", "1", "--max-consecutive-failures", "0", "--filter", "invalid/header/*", "--persistent",
                            hostile + " cannot-start serve"});
    EXPECT_EQ(r.code, 1) << r.out;
    ASSERT_FALSE(r.results["cases"].empty());
    for (const auto& c : r.results["cases"]) {
        EXPECT_EQ(c["answer"], "start-error") << c["id"];
        EXPECT_TRUE(all_findings_say(c, "the adapter exited with status 2 before it wrote anything on its output: it could not start; "
                                        "stderr: cannot load its runtime"))
            << c["findings"];
        EXPECT_EQ(c["findings"].dump().find("mid-response"), std::string::npos);
    }
    expect_nothing_left("cannot-start");
}

}  // namespace
}  // namespace ond::conformance::containment_tests
