// The transport layer: the runner's processes against hostile adapters
// (each test gives the runner an adapter that breaks one guarantee and asserts the exact verdicts).
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <cstdio>
#include <thread>
#include <fcntl.h>

#include <gtest/gtest.h>

#include "transport/process.hpp"
#include "transport/proctree.hpp"
#include "test_conform_run.hpp"
#include "suite/reference.hpp"
#include "transport/frame.hpp"

namespace ond::conformance {
namespace {

using namespace std::string_literals;

using namespace test_run;
const std::string hostile = OND_HOSTILE_ADAPTER;

std::string persistent_mode(const std::string& mode) { return hostile + " " + mode + " serve"; }

std::vector<std::string> join_args(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::size_t count_status(const ConformRun& r, const std::string& status) {
    std::size_t n = 0;
    for (const auto& c : r.results["cases"]) n += c["status"] == status;
    return n;
}

// 24.1: the processes an adapter starts and keeps are the adapter. A wrapper's child (the usual
// start of a JVM or .NET adapter) and a helper it asks on every request live as long as it does.
TEST(Transport, AnAdapterBehindAShellWrapperPassesTheCorpusAndTheDerivedCases) {
    ConformRun r = conform({"--persistent", "sh -c '" + persistent_mode("honest") + "; exit $?'"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(count_status(r, "fail"), 0u) << r.out;
    EXPECT_GT(r.results["cases"].size(), 40u);  // the fixture corpus and its derived cases
}

TEST(Transport, AHelperKeptBetweenRequestsLivesAsLongAsTheAdapter) {
    for (const auto& mode : {std::vector<std::string>{"--persistent", persistent_mode("helper")},
                             std::vector<std::string>{"--max-derived", "20", "--decoder", hostile + " helper decode", "--stream-decoder",
                                                      hostile + " helper stream"}}) {
        ConformRun r = conform(mode);
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_EQ(count_status(r, "fail"), 0u) << r.out;
        EXPECT_GT(r.results["cases"].size(), 40u);
    }
}

TEST(Transport, TheMemoryOfAWrappedAdapterIsTheTrees) {
    ConformRun r = conform({"--no-derived", "--filter", "valid/document/basic", "--persistent",
                            "sh -c '" + hostile + " touch 64 serve; exit $?'"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_GT(r.results["cases"][0]["rss_kb"].get<long>(), 64 * 1024);
}

// A /proc file (empty when its process is gone meanwhile).
std::string proc_file(const std::string& path) {
    std::string s;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return s;
    char buf[4096];
    for (ssize_t r; (r = ::read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(r));
    ::close(fd);
    return s;
}

// This process's children and the processes marked as this runner's testees: (alive, zombies).
std::pair<int, int> leftovers() {
    const std::string want = "OND_CONFORM_TESTEE=" + std::to_string(::getpid()) + ":";
    const std::string me = std::to_string(::getpid());
    int alive = 0, zombies = 0;
    DIR* d = ::opendir("/proc");
    while (dirent* e = d ? ::readdir(d) : nullptr) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        const std::string st = proc_file(std::string("/proc/") + e->d_name + "/stat");
        auto close = st.rfind(')');
        if (close == std::string::npos || close + 4 >= st.size()) continue;
        const bool zombie = st[close + 2] == 'Z';
        const bool mine = st.compare(close + 4, me.size() + 1, me + " ") == 0;
        const std::string s = zombie ? std::string() : proc_file(std::string("/proc/") + e->d_name + "/environ");
        if (zombie && mine) ++zombies;
        else if (!zombie && s.find(want) != std::string::npos) ++alive;
    }
    if (d) ::closedir(d);
    return {alive, zombies};
}

// D16: a process that keeps forking and exiting is caught, in both modes, and the runner reaps
// as it goes: the zombies it is handed never pile up, during the run or after it.
TEST(Transport, AForkHoppingProcessDoesNotOutliveTheRun) {
    for (const auto& mode : {std::vector<std::string>{"--persistent", persistent_mode("fork-hop")},
                             std::vector<std::string>{"--max-derived", "10", "--decoder", hostile + " fork-hop decode"}}) {
        std::atomic<bool> running{true};
        std::atomic<int> most_zombies{0};
        std::thread sampler([&] {
            while (running) {
                most_zombies = std::max(most_zombies.load(), leftovers().second);
                ::usleep(5000);
            }
        });
        ConformRun r = conform(join_args({"--filter", "valid/*", "--filter", "derived/*"}, mode));
        running = false;
        sampler.join();
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_EQ(count_status(r, "fail"), 0u) << r.out;
        EXPECT_GT(r.results["cases"].size(), 30u);
        // Reaped as they come: a hopper makes thousands of zombies a second, and a reaper that
        // waits for the case's own loop leaves them by the thousand; a few scheduler slices' worth
        // may wait on a loaded machine.
        EXPECT_LT(most_zombies.load(), 500);
        auto [alive, zombies] = leftovers();
        EXPECT_EQ(alive, 0);
        EXPECT_LT(zombies, 10);
        ::usleep(100000);
        EXPECT_EQ(leftovers().first, 0);
    }
}

// D17: processes that do not exit at the end of their input get their grace (2 s) together, not
// one after the other.
TEST(Transport, PersistentProcessesAreEndedTogether) {
    const auto t0 = std::chrono::steady_clock::now();
    ConformRun r = conform({"--no-derived", "-j", "6", "--persistent", persistent_mode("linger")});
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_GE(s, 2.0);  // the grace was given
    EXPECT_LT(s, 5.0);  // once: six processes one at a time take 12 s
    EXPECT_EQ(leftovers().first, 0);
}

// 24.4: every testee runs under a memory cap by default, on its tree's memory, not its address
// space: a runtime that reserves 8 GiB it never touches starts under a 256 MiB cap, and a tree
// that touches more than the cap is killed with a verdict that says so, in both modes.
TEST(Transport, TheDefaultMemoryCapIsSharedByTheJobsWithAFloor) {
    const long one = default_memory_cap_kb(1), four = default_memory_cap_kb(4);
    EXPECT_GE(four, 1L << 20);
    EXPECT_GE(one, four);
    EXPECT_LE(default_memory_cap_kb(100000), 1L << 20);
    ConformRun r = conform({"--no-derived", "-j", "1", "--filter", "valid/document/basic", "--decoder", hostile + " honest decode"});
    EXPECT_EQ(r.results["memory_cap"], describe_memory_cap(one)) << r.out;
}

TEST(Transport, AReservationIsNotMemoryButTouchedPagesAre) {
    for (const auto& mode : {std::vector<std::string>{"--persistent", persistent_mode("reserve")},
                             std::vector<std::string>{"--decoder", hostile + " reserve decode"}}) {
        ConformRun r = conform(join_args({"--no-derived", "--memory-limit", "256", "--filter", "valid/*"}, mode));
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_GE(count_status(r, "pass"), 3u);
    }
    for (const auto& mode : {std::vector<std::string>{"--persistent", persistent_mode("touch 300")},
                             std::vector<std::string>{"--decoder", hostile + " touch 300 decode"}}) {
        ConformRun r = conform(join_args({"--no-derived", "--memory-limit", "256", "--filter", "valid/document/basic"}, mode));
        EXPECT_EQ(r.code, 1) << r.out;
        const auto& c = r.result("valid/document/basic");
        EXPECT_EQ(c["answer"], "crash");
        ASSERT_EQ(c["findings"].size(), 1u);
        EXPECT_EQ(c["findings"][0]["message"].get<std::string>().rfind("memory cap exceeded: the adapter and all it started held ", 0), 0u)
            << c["findings"][0]["message"];
        EXPECT_NE(c["findings"][0]["message"].get<std::string>().find("over the cap of 256 MiB"), std::string::npos);
        EXPECT_EQ(leftovers().first, 0);
    }
}

// posix_spawn returns when the exec releases the runner, a moment before the child is switched
// to its own memory; in that moment /proc shows the runner's memory as the child's. A child still
// in the runner's memory holds none of its own: counting it failed a clean adapter on a loaded
// machine (a 14 MiB process measured at the runner's 240 MiB).
TEST(Transport, AChildStillInTheRunnersMemoryHoldsNone) {
    std::vector<char> ballast(128u << 20, 1);  // the runner's memory, made large enough to show
    alignas(64) static char stack[64 << 10];
    const pid_t child = ::clone([](void*) -> int { for (;;) ::syscall(SYS_pause); }, stack + sizeof stack,
                                CLONE_VM | SIGCHLD, nullptr);
    ASSERT_GT(child, 0);
    EXPECT_GE(vm_field_kb(child, "VmRSS:"), 128L << 10);  // what /proc says of the child
    EXPECT_EQ(tree_peak_kb(child, true), 0);
    EXPECT_EQ(tree_peak_kb(child, true, true), 0);
    EXPECT_EQ(tree_rss_kb(child), 0);
    ::kill(child, SIGKILL);
    EXPECT_EQ(::waitpid(child, nullptr, 0), child);
    EXPECT_EQ(ballast[ballast.size() / 2], 1);
}

// D4: an adapter may answer before it has read all of a request; the runner still writes the
// whole frame, so the adapter's next read is the next frame, not the rest of this one.
TEST(Transport, AnEarlyAnswerDoesNotCostTheNextRequestItsFrame) {
    PersistentProcess p(split_command(persistent_mode("early-answer")));
    const std::string big(200u << 10, 'x');
    auto a = p.request('D', big, std::chrono::seconds(10));
    ASSERT_EQ(a.kind, PersistentProcess::Reply::Kind::answer) << a.detail;
    EXPECT_EQ(a.payload, "\x01" + reference_decode(big).code);
    const auto life = p.life();
    auto b = p.request('D', "xyz", std::chrono::seconds(10));
    ASSERT_EQ(b.kind, PersistentProcess::Reply::Kind::answer) << b.detail;
    EXPECT_EQ(b.payload, "\x01" + reference_decode("xyz").code);
    EXPECT_EQ(p.life(), life);
    EXPECT_EQ(p.protocol(), 2);
}

// D5: a late second answer voids the case whose number it carries, not the latest one.
TEST(Transport, ALateDuplicateVoidsTheCaseItsNumberNames) {
    // Requests 1-9 are the baseline requests (three per operation), so the 12th answer is the third case's. Only cases the
    // reference rejects are run: an accepted decode case costs a second request (the round trip).
    ConformRun r = conform({"--no-derived", "-j", "1", "--filter", "invalid/*", "--filter", "impl/*", "--persistent",
                            hostile + " late-duplicate 12 serve"});
    EXPECT_EQ(r.code, 1);
    const auto& cases = r.results["cases"];
    ASSERT_GT(cases.size(), 5u);
    // (Each fresh process does it again: its 12th answer is void each time.)
    ASSERT_FALSE(r.failed_ids().empty()) << r.out;
    EXPECT_EQ(r.failed_ids().front(), cases[2]["id"].get<std::string>()) << r.out;
    EXPECT_EQ(cases[2]["answer"], "protocol");
    EXPECT_NE(cases[2]["findings"][0]["message"].get<std::string>().find("the answer of request 12 is void"), std::string::npos);
    EXPECT_EQ(cases[3]["status"], "pass");  // judged on its own answer, which came
}

// D6: an adapter that exits after a complete answer is told on the case it answered; the next
// case goes to a fresh process and is judged on its own answer. `mode` is the hostile adapter's
// way of leaving after its 11th answer: each process answers its nine baseline requests and two
// cases (cases of one request each: no accepted decode, which adds the round trip's request).
void expect_exit_told_on_the_case_it_followed(const std::string& mode) {
    ConformRun r = conform({"--no-derived", "-j", "1", "--filter", "invalid/*", "--filter", "impl/*", "--persistent",
                            hostile + " " + mode + " 11 serve"});
    EXPECT_EQ(r.code, 1);
    const auto& cases = r.results["cases"];
    ASSERT_GT(cases.size(), 5u);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const bool second = i % 2 == 1 && i + 1 < cases.size();  // the last case's process ends at the end of input
        ASSERT_EQ(cases[i]["status"], second ? "fail" : "pass") << i << r.out;
        if (!second) continue;
        ASSERT_EQ(cases[i]["answer"], "crash") << i << r.out;
        EXPECT_NE(cases[i]["findings"][0]["message"].get<std::string>().find("the adapter exited after this answer, before its end of input (exit status 0)"),
                  std::string::npos) << cases[i]["findings"];
    }
}

TEST(Transport, AnExitBetweenRequestsIsToldOnTheCaseItFollowed) { expect_exit_told_on_the_case_it_followed("exit-after"); }

// The same in the moment between an adapter's end of output and its exit: the runner has seen
// its output end after the answer (and closed its side) while the process is not yet waitable.
// (It used to blame the next case, "the testee closed its output", when a loaded machine
// stretched that moment.)
TEST(Transport, AnOutputClosedBeforeTheExitIsToldOnTheCaseItFollowed) {
    expect_exit_told_on_the_case_it_followed("close-then-exit");
}

// The same when the next request finds the adapter's input closed while it is still alive: it
// is leaving after its answer. (It used to blame the next case, "the testee closed its input",
// when a loaded machine let the runner write before the adapter's exit was seen.)
TEST(Transport, AnInputClosedBeforeTheExitIsToldOnTheCaseItFollowed) {
    expect_exit_told_on_the_case_it_followed("close-input-then-exit");
}

// D20: the hello waits as long as a case, so a slow start keeps version 2.
TEST(Transport, ASlowStartStillGetsVersion2) {
    PersistentProcess p(split_command(persistent_mode("slow-hello 5300")));
    auto a = p.request('D', "xyz", std::chrono::seconds(8));
    ASSERT_EQ(a.kind, PersistentProcess::Reply::Kind::answer) << a.detail;
    EXPECT_EQ(p.protocol(), 2);
}

// A streamed input (the --large cases) through every testee: the pieces reach the adapter as one
// input, per case and persistently; the in-process reference declines it.
TEST(Transport, AStreamedInputReachesEveryKindOfTestee) {
    const std::string whole = std::string(100000, 'O') + "NDC";
    auto pieces = [&] {
        auto at = std::make_shared<std::size_t>(0);
        return [&whole, at]() -> std::string_view {
            const std::size_t n = std::min<std::size_t>(7000, whole.size() - *at);
            std::string_view piece(whole.data() + *at, n);
            *at += n;
            return piece;
        };
    };
    const std::string want = reference_decode(whole).code;
    ASSERT_FALSE(want.empty());
    auto per_case = make_command_testee(hostile + " honest decode", "", "", std::chrono::seconds(10));
    auto persistent = make_persistent_testee(persistent_mode("honest"), 1, std::chrono::seconds(10));
    for (Testee* t : {per_case.get(), persistent.get()}) {
        TesteeResult r = t->run(Op::decode, Input{{}, whole.size(), pieces()}, 0, RunContext{});
        EXPECT_EQ(r.status, Answer::reject) << t->describe() << r.detail;
        EXPECT_EQ(r.code, want) << t->describe();
        // The same testee goes on with held inputs.
        EXPECT_EQ(t->run(Op::decode, std::string_view("xyz"), 0, RunContext{}).code, reference_decode("xyz").code);
    }
    EXPECT_TRUE(persistent->finish().empty());
    TesteeResult ref = make_reference_testee()->run(Op::decode, Input{{}, whole.size(), pieces()}, 0, RunContext{});
    EXPECT_EQ(ref.status, Answer::not_run);
    EXPECT_NE(ref.detail.find("too large to run in-process"), std::string::npos);
}

// D13: a baseline cannot be bought by touching memory on the first request of an operation only:
// it is the least of three requests, so the 200 MiB the adapter spends on each invalid input is
// charged.
TEST(Transport, AFirstRequestCannotBuyTheMemoryBaseline) {
    ConformRun r = conform({"--no-derived", "-j", "1", "--filter", "invalid/*", "--persistent", persistent_mode("touch-first")});
    EXPECT_EQ(r.code, 1);
    EXPECT_FALSE(r.failed_ids().empty());
    for (const auto& id : r.failed_ids()) EXPECT_TRUE(r.has_finding(id, "required", "memory")) << id;
    EXPECT_LT(r.results["baseline_kb"]["decode"].get<long>(), 100 * 1024) << r.results["baseline_kb"];
}

}  // namespace
}  // namespace ond::conformance
