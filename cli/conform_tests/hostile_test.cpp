// The runner against hostile testees (issue: verdicts you can trust): each test gives the runner a
// testee that breaks one of its guarantees and asserts the exact verdicts.
#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "suite/derive.hpp"
#include "ond/content_json.hpp"
#include "test_conform_run.hpp"
#include "test_support.hpp"
#include "ond/text_escape.hpp"
#include "transport/process.hpp"
#include "sanitizer_build.hpp"

namespace ond::conformance {
namespace {

using namespace test_run;

std::vector<std::string> per_case(const std::string& fault) {
    return {"--decoder", with_fault(fault, "decode"), "--encoder", with_fault(fault, "encode"), "--stream-decoder",
            with_fault(fault, "stream")};
}
std::vector<std::string> persistent(const std::string& fault, const std::string& extra = "") {
    return {"--persistent", adapter + " --fault " + fault + extra + " serve"};
}
std::vector<std::string> join(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Processes that carry this runner's testee marker (alive, not zombies).
int marked_processes() {
    std::string want = "OND_CONFORM_TESTEE=" + std::to_string(::getpid()) + ":";
    int n = 0;
    DIR* d = ::opendir("/proc");
    while (dirent* e = d ? ::readdir(d) : nullptr) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        std::ifstream env(std::string("/proc/") + e->d_name + "/environ", std::ios::binary);
        std::string s((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
        if (s.find(want) == std::string::npos) continue;
        std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
        std::string st((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        auto close = st.rfind(')');
        if (close != std::string::npos && close + 2 < st.size() && st[close + 2] == 'Z') continue;
        ++n;
    }
    if (d) ::closedir(d);
    return n;
}

bool finding_with(const ConformRun& r, const std::string& id, const std::string& check, const std::string& text) {
    for (const auto& f : r.result(id)["findings"])
        if (f["check"] == check && f["message"].get<std::string>().find(text) != std::string::npos) return true;
    return false;
}

// 1. A response sent twice (the second ~50 ms later), under numbered frames: every answer that
// was followed by a second one is void, and no case is judged on another case's answer.
TEST(Hostile, AnswerTwiceVoidsThoseAnswersInProtocol2) {
    ConformRun r = conform(join({"--no-derived", "-j", "1", "--max-consecutive-failures", "0"}, persistent("answer-twice")));
    EXPECT_EQ(r.code, 1);
    expect_consistent_last_line(r);
    for (const auto& c : r.results["cases"]) {
        EXPECT_EQ(c["status"], "fail") << c["id"];
        EXPECT_EQ(c["answer"], "protocol") << c["id"];
        ASSERT_EQ(c["findings"].size(), 1u) << c["id"];
        EXPECT_EQ(c["findings"][0]["check"], "protocol") << c["id"];
    }
}

// The same testee in protocol 1 (no numbers): a late answer may still be taken for the next one,
// but the real one then comes behind it, which voids that case; no verdict or content finding.
TEST(Hostile, AnswerTwiceInProtocol1IsNeverJudgedOnAStaleAnswer) {
    ConformRun r = conform(join({"--no-derived", "-j", "1", "--max-consecutive-failures", "0"}, persistent("answer-twice", " --protocol 1")));
    EXPECT_EQ(r.code, 1);
    int protocol = 0;
    for (const auto& c : r.results["cases"]) {
        for (const auto& f : c["findings"]) {
            EXPECT_NE(f["check"], "verdict") << c["id"];
            EXPECT_NE(f["check"], "content") << c["id"];
        }
        protocol += c["answer"] == "protocol";
    }
    EXPECT_GE(protocol, 5);
}

// Bytes before any request: every case fails [protocol], in both protocol versions.
TEST(Hostile, BytesBeforeTheFirstRequestAreAProtocolFailure) {
    for (const std::string version : {"", " --protocol 1"}) {
        ConformRun r = conform(join({"--no-derived", "--max-consecutive-failures", "0"}, persistent("bytes-before", version)));
        EXPECT_EQ(r.code, 1) << version;
        for (const auto& c : r.results["cases"]) {
            EXPECT_EQ(c["answer"], "protocol") << version << c["id"];
            EXPECT_TRUE(r.has_finding(c["id"], "required", "protocol")) << version << c["id"];
            EXPECT_EQ(c["findings"].size(), 1u) << version << c["id"];
        }
    }
}

// 2. Memory of the whole process tree, the same verdict in both modes.
TEST(Hostile, AChildAllocating300MiBOnALyingLengthFailsMemoryInBothModes) {
    std::vector<std::string> sel = {"--seed", "2", "--max-derived", "20", "--filter", "derived/memory/valid/document/basic/*",
                                    "--filter", "valid/document/basic"};
    ConformRun a = conform(join(sel, {"--decoder", with_fault("child-alloc", "decode"), "--stream-decoder", with_fault("child-alloc", "stream")}));
    ConformRun b = conform(join(sel, persistent("child-alloc")));
    for (const ConformRun* r : {&a, &b}) {
        EXPECT_EQ(r->code, 1);
        EXPECT_TRUE(r->has_finding("derived/memory/valid/document/basic/body-length", "required", "memory")) << r->out;
        // Only the inputs whose header declares more bytes than they hold make it allocate.
        for (const auto& id : r->failed_ids()) {
            EXPECT_NE(id.find("body-length"), std::string::npos) << id;
            EXPECT_TRUE(r->has_finding(id, "required", "memory")) << id;
        }
        EXPECT_EQ(r->result("valid/document/basic")["status"], "pass");
    }
    EXPECT_EQ(a.failed_ids(), b.failed_ids());
    EXPECT_FALSE(a.failed_ids().empty());
}

TEST(Hostile, AHeapKeptFromTheFirstCasePassesInBothModes) {
    std::vector<std::string> sel = {"--seed", "2", "--max-derived", "20", "--filter", "derived/memory/valid/document/basic/*",
                                    "--filter", "valid/document/basic"};
    ConformRun a = conform(join(sel, {"--decoder", with_fault("big-heap", "decode")}));
    EXPECT_EQ(a.code, 0) << a.out;
    ConformRun b = conform(join(sel, persistent("big-heap")));
    EXPECT_EQ(b.code, 0) << b.out;
    EXPECT_GT(b.results["cases"][0]["rss_kb"].get<long>(), 100 * 1024);  // it is measured, and not charged
}

// An adapter that starts helper processes is charged its own memory once: a forked copy that has
// not exec'd yet adds only its private pages, and a vfork child inside the adapter's memory adds
// nothing. (Counted through each one's VmHWM, the 120 MiB heap counted again broke the limit.)
TEST(Hostile, HelpersForkedFromABigAdapterAreNotChargedItsMemoryAgain) {
    std::vector<std::string> sel = {"--seed", "2", "--max-derived", "20", "--filter", "derived/memory/valid/document/basic/*",
                                    "--filter", "valid/document/basic", "--filter", "invalid/header/*"};
    ConformRun a = conform(join(sel, {"--decoder", with_fault("spawn-helpers", "decode")}));
    EXPECT_EQ(a.code, 0) << a.out;
    ConformRun b = conform(join(sel, persistent("spawn-helpers")));
    EXPECT_EQ(b.code, 0) << b.out;
    EXPECT_GT(b.results["cases"].size(), 5u);
    if (!test_support::address_sanitized) {  // ASan's shadow makes the figure meaningless
        for (const auto& c : b.results["cases"]) EXPECT_LT(c["rss_kb"].get<long>(), 200 * 1024) << c["id"];
    }
}

TEST(Hostile, MemoryLimitIsAHardCap) {
    if (test_support::address_sanitized) GTEST_SKIP() << "an ASan-built testee's shadow memory counts against the cap";
    auto argv = split_command(with_fault("big-heap", "decode"));
    auto free = run_process(argv, "", std::chrono::seconds(20));
    EXPECT_GT(free.peak_kb, 100 * 1024);
    auto capped = run_process(argv, "", std::chrono::seconds(20), SpawnLimits{1u << 20, 90 * 1024});
    EXPECT_TRUE(capped.memory_exceeded);
    EXPECT_FALSE(capped.exited);
    ConformRun r = conform({"--no-derived", "--memory-limit", "256", "--filter", "valid/document/basic", "--decoder", with_fault("big-heap", "decode")});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.results["memory_cap"], "256 MiB of resident memory per testee process tree (killed over it)");
}

// 3. Nothing outlives its case: a `setsid sleep` holding stdout is killed at once, both modes.
TEST(Hostile, SetsidSleepersAreKilledAtTheEndOfTheirCase) {
    for (const auto& mode : {per_case("setsid-sleeper"), persistent("setsid-sleeper")}) {
        // Waiting for the sleeper's end of stdout would turn every case into a time-out.
        ConformRun r = conform(join({"--no-derived", "--timeout", "20"}, mode));
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_EQ(r.results["summary"]["passed"], 13);
        for (const auto& c : r.results["cases"]) EXPECT_LT(c["ms"].get<double>(), 20000.0) << c["id"];
        EXPECT_EQ(marked_processes(), 0);
    }
}

// 4. Output is bounded by the case's limit.
TEST(Hostile, AFloodOfOutputIsAnOutputFailure) {
    for (const auto& mode : {per_case("huge-output"), persistent("huge-output")}) {
        // Read to its end, the flood would turn every case into a time-out, not an output failure.
        ConformRun r = conform(join({"--no-derived", "--filter", "valid/document/*", "--filter", "valid/encode/*"}, mode));
        EXPECT_EQ(r.code, 1);
        for (const auto& c : r.results["cases"]) {
            EXPECT_EQ(c["answer"], "output") << c["id"];
            EXPECT_TRUE(r.has_finding(c["id"], "required", "output")) << c["id"];
        }
    }
    ConformRun p = conform(join({"--no-derived", "--filter", "valid/document/basic"}, persistent("huge-output")));
    EXPECT_TRUE(finding_with(p, "valid/document/basic", "output", "declares 4294967295 bytes"));
}

// 5. Reports survive any bytes; report paths are checked first; a failed write is exit 2.
TEST(Hostile, InvalidUtf8FromTheTesteeReachesEveryReportEscaped) {
    std::string junit = work_dir() + "/bad-utf8.xml", html = work_dir() + "/bad-utf8.html";
    ConformRun r = conform(join({"--no-derived", "--junit", junit, "--html", html}, per_case("bad-utf8")));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.result("invalid/crc/mismatch")["error"], "x\\xC0\\x80y");
    EXPECT_TRUE(finding_with(r, "invalid/crc/mismatch", "unknown-code", "'x\\xC0\\x80y' is not in the error table"));
    std::string x = read_file(junit), h = read_file(html);
    EXPECT_NE(x.find("x\\xC0\\x80y"), std::string::npos);
    EXPECT_NE(h.find("x\\xC0\\x80y"), std::string::npos);
    EXPECT_NE(r.last_line.find("CONFORMANCE PASSED"), std::string::npos);
}

TEST(Hostile, ReportPathsAreCheckedBeforeTheRunAndWriteErrorsAreExit2) {
    std::ostringstream o, e;
    EXPECT_EQ(conform_run({"--corpus", fixture(), "--json", "/no/such/dir/r.json"}, o, e), 2);
    EXPECT_EQ(o.str().find("running"), std::string::npos);  // refused before any case ran
    EXPECT_NE(e.str().find("cannot write /no/such/dir/r.json"), std::string::npos) << e.str();
    std::ostringstream o2, e2;
    EXPECT_EQ(conform_run({"--corpus", fixture(), "--no-derived", "-q", "--junit", "/dev/full"}, o2, e2), 2);
    EXPECT_NE(e2.str().find("cannot write /dev/full: No space left on device"), std::string::npos) << e2.str();
    std::ostringstream o3, e3;
    EXPECT_EQ(conform_run({"--corpus", fixture(), "--write-expected-failures", "/no/such/dir/x.txt"}, o3, e3), 2);
    EXPECT_NE(e3.str().find("cannot write /no/such/dir/x.txt"), std::string::npos) << e3.str();
}

// 6. Derived cases are a function of the corpus and the options; the seed is in every report.
TEST(Hostile, DerivedCasesAreDeterministicByDefault) {
    std::string junit = work_dir() + "/seed.xml", html = work_dir() + "/seed.html";
    ConformRun a = conform({"--max-derived", "30", "--junit", junit, "--html", html});
    ConformRun b = conform({"--max-derived", "30"});
    ASSERT_EQ(a.results["cases"].size(), b.results["cases"].size());
    for (std::size_t i = 0; i < a.results["cases"].size(); ++i) EXPECT_EQ(a.results["cases"][i]["id"], b.results["cases"][i]["id"]);
    EXPECT_EQ(a.results["seed"], b.results["seed"]);
    EXPECT_EQ(a.results["seed_origin"], "default");
    std::string seed = a.results["seed"].dump();
    EXPECT_NE(a.out.find("seed: " + seed), std::string::npos);
    EXPECT_NE(read_file(junit).find("<property name=\"seed\" value=\"" + seed + "\"/>"), std::string::npos);
    EXPECT_NE(read_file(html).find("<td>" + seed + "</td>"), std::string::npos);
    ConformRun c = conform({"--max-derived", "30", "--seed", "random"});
    EXPECT_EQ(c.results["seed_origin"], "random");
}

// 7. Usage errors: exit 2 and one line.
TEST(Hostile, UsageErrorsAreOneLineAndExit2) {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--filter", "no/such/case/*"},
                                                                  {"--timeout", "1e10"},
                                                                  {"--timeout", "0"},
                                                                  {"-j", "100000"},
                                                                  {"--seed", "abc"}}) {
        std::ostringstream o, e;
        EXPECT_EQ(conform_run(join({"--corpus", fixture(), "-q"}, args), o, e), 2) << args[0];
        std::string err = e.str();
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    }
}

// 8. A crash keeps the first and the last lines of stderr; invisible characters are escaped.
TEST(Hostile, CrashKeepsTheHeadOfStderrAndInvisibleCharactersAreEscaped) {
    ConformRun r = conform({"--no-derived", "--decoder", with_fault("loud-crash", "decode")});
    std::string msg = r.result("valid/document/basic")["findings"][0]["message"];
    EXPECT_NE(msg.find("Error: the real message is on the first line"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Node.js v18.19.0"), std::string::npos) << msg;
    ConformRun b = conform({"--no-derived", "--decoder", with_fault("bom-text", "decode")});
    std::string m = b.result("valid/document/basic")["findings"][0]["message"];
    EXPECT_NE(m.find("\\u{FEFF}"), std::string::npos) << m;
    EXPECT_EQ(m.find("\xEF\xBB\xBF"), std::string::npos) << m;
    EXPECT_EQ(escape_text("a\\b\x01\xC0\n", true), "a\\\\b\\u{0001}\\xC0\\n");
}

// 9. A testee that crashes on everything stops the run; the rest is counted as not run.
TEST(Hostile, ConsecutiveFailuresStopTheRun) {
    ConformRun r = conform({"--no-derived", "-j", "1", "--max-consecutive-failures", "3", "--decoder", with_fault("always-crash", "decode")});
    EXPECT_EQ(r.code, 1);
    expect_consistent_last_line(r);
    EXPECT_EQ(r.last_line, "CONFORMANCE FAILED: 0 passed, 3 failed, 0 expected failures, 0 skipped, 0 informational, 10 not run");
    EXPECT_NE(r.out.find("STOPPED after 3 crashes"), std::string::npos);
    EXPECT_TRUE(r.results["stopped_early"].get<bool>());
}

// 10. Per-case mode starts a compiled testee directly and cheaply: no shell, and nothing of the
// runner's memory is charged to it (a forked copy of a big runner would be, through wait4).
TEST(Hostile, PerCaseStartIsCheap) {
    EXPECT_FALSE(has_shell_syntax(adapter + " decode"));
    EXPECT_TRUE(has_shell_syntax("./a | b"));
    EXPECT_EQ(command_argv("x > y").front(), "/bin/sh");
    auto argv = split_command(adapter + " decode");
    EXPECT_EQ(command_argv(adapter + " decode"), argv);
    const std::size_t big = std::size_t{256} << 20;  // this process: 256 MiB resident
    std::vector<char> ballast(big);
    for (std::size_t i = 0; i < big; i += 4096) ballast[i] = static_cast<char>(i >> 12);
    auto t0 = std::chrono::steady_clock::now();
    const int n = 20;
    long peak = 0;
    for (int i = 0; i < n; ++i) {
        auto r = run_process(argv, "", std::chrono::seconds(10));
        EXPECT_TRUE(r.exited);
        peak = std::max(peak, r.peak_kb);
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / n;
    RecordProperty("per_case_ms", std::to_string(ms));  // informative: timings are measured in bench/
    EXPECT_LT(peak, 128 * 1024) << "the testee's peak includes the runner's " << (big >> 20) << " MiB";
    EXPECT_NE(ballast[big - 4096], 1);  // keeps the ballast alive
}

// D2: derived mutations the reference refuses as implementation-defined carry their if-accepted
// content (the reference's reading with that check relaxed), so an adapter that "accepts" them
// with garbage fails; before, such an answer passed as informational.
TEST(Hostile, AcceptingDerivedImplementationDefinedCasesWithGarbageFails) {
    const std::string corpus = std::string(OND_SOURCE_DIR) + "/corpus";
    ASSERT_TRUE(fs::exists(corpus + "/manifest.json")) << "corpus/manifest.json is missing: the golden corpus is part of the tree";
    ConformRun r = conform({"--corpus", corpus, "--decoder", with_fault("impl-not-json", "decode"), "--filter", "derived/mutation/*",
                            "--seed", "1", "--max-derived", "500"},
                           false);
    EXPECT_EQ(r.code, 1);
    int refused = 0, impl = 0;  // by the reference (all implementation-defined: the adapter accepts only those)
    for (const auto& c : r.results["cases"]) {
        if (c["answer"] != "accept" || c["expected_error"].is_null() || c["expected_error"] == "") continue;
        ++refused;
        EXPECT_EQ(c["status"], "fail") << c.dump();
        // Still implementation-defined after the relaxed reading: the garbage is not content JSON.
        if (c["verdict"] != "impl") continue;
        ++impl;
        EXPECT_TRUE(r.has_finding(c["id"], "required", "output")) << c.dump();
    }
    EXPECT_GT(refused, 0) << "no derived mutation is implementation-defined under this seed";
    EXPECT_GT(impl, 0);
}

// derive_if_accepted: the relaxed reading, through every implementation-defined point of the
// input; a rule every reader keeps behind them makes the case invalid.
TEST(Hostile, DerivedIfAcceptedContentIsTheRelaxedReading) {
    using namespace ond::test;
    Ctr one;
    one.add(1, strings_content({}));
    one.add(2, text_content("Hi"));
    one.add(3, tokens_content({}));
    one.add(4, B{}.varint(0));  // R22: a section 4 without tokens
    one.add(7, B{}.varint(0));  // R24: no groups
    const std::vector<std::uint8_t> b = one.build();
    Case c;
    c.input.assign(b.begin(), b.end());
    c.verdict = CaseVerdict::impl;
    c.error = "entities.without-tokens";
    derive_if_accepted(c);
    EXPECT_EQ(c.verdict, CaseVerdict::impl);
    ASSERT_TRUE(c.if_accepted);
    EXPECT_FALSE(json::compare_content(
        R"({"format":"ONDC","crc":false,"doc":{"text":"Hi","tokens":[],"ents":[],"cats":null,"spans":[]}})", *c.if_accepted))
        << *c.if_accepted;
    Ctr two;
    two.add(1, strings_content({}));
    two.add(2, text_content("Hi"));
    two.add(3, tokens_content({}));
    two.add(4, B{}.varint(0));
    two.add(7, B{}.varint(1).varint(0).varint(0));  // a group name of index 0: invalid
    const std::vector<std::uint8_t> b2 = two.build();
    Case d;
    d.input.assign(b2.begin(), b2.end());
    d.verdict = CaseVerdict::impl;
    d.error = "entities.without-tokens";
    derive_if_accepted(d);
    EXPECT_EQ(d.verdict, CaseVerdict::invalid);
    EXPECT_FALSE(d.if_accepted);
}

}  // namespace
}  // namespace ond::conformance
