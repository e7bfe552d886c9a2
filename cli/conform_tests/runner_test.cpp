// End-to-end tests of `ond conform`: the reference and a clean adapter pass; each deliberately
// faulty adapter is reported as failing on the right case, at the right level.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suite/cases.hpp"
#include "conform_cli.hpp"
#include "test_conform_run.hpp"
#include "test_fixture.hpp"
#include "ond/content_json.hpp"
#include "transport/process.hpp"
#include "suite/run_report.hpp"
#include "suite/reference.hpp"
#include "suite/writer_rules.hpp"
#include "ond/writer_rules.hpp"

namespace ond::conformance {
namespace {

namespace fs = std::filesystem;
using namespace test_run;

TEST(Conform, ReferencePassesTheFixtureCorpus) {
    ConformRun r = conform({"--seed", "11", "--max-derived", "60"});
    EXPECT_EQ(r.code, 0) << r.out;
    expect_consistent_last_line(r);
    EXPECT_EQ(r.results["summary"]["failed"], 0);
    EXPECT_EQ(r.results["summary"]["recommended_fail"], 0);
    EXPECT_NE(r.out.find("seed: 11"), std::string::npos);
    // All corpus cases plus the derived ones ran.
    int corpus = 0, derived = 0;
    for (const auto& c : r.results["cases"]) (c["origin"] == "corpus" ? corpus : derived)++;
    EXPECT_EQ(corpus, testing::fixture_case_count);
    EXPECT_GE(derived, 60 * 3);
    // The per-area table and the rule coverage table are printed.
    EXPECT_NE(r.out.find("Summary by area"), std::string::npos);
    EXPECT_NE(r.out.find("derived-bitflip"), std::string::npos);
    EXPECT_NE(r.out.find("no case exercises R99"), std::string::npos);
}

TEST(Conform, CleanAdapterPassesWithNoFindingsInBothModes) {
    std::vector<std::string> common = {"--seed", "5", "--max-derived", "25"};
    auto per_case_args = common;
    per_case_args.insert(per_case_args.end(), {"--decoder", adapter + " decode", "--encoder", adapter + " encode",
                                               "--stream-decoder", adapter + " stream"});
    ConformRun a = conform(per_case_args);
    EXPECT_EQ(a.code, 0) << a.out;
    expect_consistent_last_line(a);
    EXPECT_EQ(a.results["summary"]["skipped"], 0);
    EXPECT_EQ(a.results["summary"]["recommended_fail"], 0);
    EXPECT_GT(a.results["baseline_rss_kb"].get<long>(), 0);

    auto persistent_args = common;
    persistent_args.insert(persistent_args.end(), {"--persistent", adapter + " serve"});
    ConformRun b = conform(persistent_args);
    EXPECT_EQ(b.code, 0) << b.out;
    // Both modes give the same result for every case.
    ASSERT_EQ(a.results["cases"].size(), b.results["cases"].size());
    for (std::size_t i = 0; i < a.results["cases"].size(); ++i) {
        const auto& x = a.results["cases"][i];
        const auto& y = b.results["cases"][i];
        EXPECT_EQ(x["id"], y["id"]);
        EXPECT_EQ(x["status"], y["status"]) << x["id"];
        EXPECT_EQ(x["answer"], y["answer"]) << x["id"];
        EXPECT_EQ(x["error"], y["error"]) << x["id"];
    }
}

TEST(Conform, OndServeAsPersistentTesteeMatchesTheInProcessReference) {
    // serve() is what `ond serve` runs (the test adapter's serve loop is a copy of the same
    // framing): through the `ond` tool it must give every case the in-process reference's answer.
    const std::string ond = OND_CLI_PATH;
    ASSERT_TRUE(fs::exists(ond)) << ond;  // a dependency of this test binary
    const ConformRun r = conform({"--persistent", ond + " serve", "--seed", "3", "--max-derived", "20"});
    const ConformRun ref = conform({"--seed", "3", "--max-derived", "20"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(ref.code, 0) << ref.out;
    ASSERT_EQ(r.results["cases"].size(), ref.results["cases"].size());
    ASSERT_GT(r.results["cases"].size(), std::size_t{testing::fixture_case_count});
    for (std::size_t i = 0; i < r.results["cases"].size(); ++i) {
        const auto& x = r.results["cases"][i];
        const auto& y = ref.results["cases"][i];
        EXPECT_EQ(x["id"], y["id"]);
        EXPECT_EQ(x["status"], y["status"]) << x["id"];
        EXPECT_EQ(x["answer"], y["answer"]) << x["id"];
        EXPECT_EQ(x["error"], y["error"]) << x["id"];
    }
}

TEST(Conform, OndToolIsACleanAdapter) {
    const std::string ond = OND_CLI_PATH;
    ASSERT_TRUE(fs::exists(ond)) << ond;
    ConformRun r = conform({"--decoder", ond + " decode", "--encoder", ond + " encode", "--stream-decoder", ond + " stream", "--seed", "3",
                     "--max-derived", "30"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.results["summary"]["recommended_fail"], 0) << r.out;
}

TEST(Faulty, AcceptingANanConfidenceFails) {
    ConformRun r = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived"});
    EXPECT_EQ(r.code, 1);
    expect_consistent_last_line(r);
    EXPECT_EQ(r.failed_ids(), std::vector<std::string>{"invalid/tokens/nan-confidence"});
    EXPECT_TRUE(r.has_finding("invalid/tokens/nan-confidence", "required", "verdict"));
    EXPECT_NE(r.out.find("FAIL invalid/tokens/nan-confidence [verdict] expected reject (tokens.confidence-out-of-range), got accept"),
              std::string::npos) << r.out;
    // Encode and stream cases are skipped: no adapter for them.
    EXPECT_EQ(r.results["summary"]["skipped"], 4);
}

TEST(Faulty, IgnoringTheCrcFailsTheCrcCaseAndTheBitFlips) {
    ConformRun r = conform({"--decoder", with_fault("ignore-crc", "decode"), "--seed", "1", "--max-derived", "200", "--filter", "invalid/*",
                     "--filter", "valid/*", "--filter", "derived/bitflip/*"});
    EXPECT_EQ(r.code, 1);
    expect_consistent_last_line(r);
    EXPECT_EQ(r.result("invalid/crc/mismatch")["status"], "fail");
    EXPECT_EQ(r.result("valid/document/basic")["status"], "pass");
    int flips_failed = 0, flips = 0;
    for (const auto& c : r.results["cases"]) {
        if (c["origin"] != "bitflip") continue;
        ++flips;
        flips_failed += c["status"] == "fail";
    }
    EXPECT_EQ(flips, 200);
    // Flips in the trailer or in the bytes the CRC covers all pass the broken reader unless the
    // flip breaks something else too, so many must be reported.
    EXPECT_GT(flips_failed, 20);
}

TEST(Faulty, LossyFloatsFailTheContentCheckWithThePath) {
    ConformRun r = conform({"--decoder", with_fault("lossy-floats", "decode"), "--no-derived"});
    EXPECT_EQ(r.code, 1);
    const auto& basic = r.result("valid/document/basic");
    EXPECT_EQ(basic["status"], "fail");
    ASSERT_FALSE(basic["findings"].empty());
    EXPECT_EQ(basic["findings"][0]["check"], "content");
    std::string msg = basic["findings"][0]["message"];
    EXPECT_NE(msg.find("doc.tokens[0].conf"), std::string::npos) << msg;
    // Rejections are unaffected.
    EXPECT_EQ(r.result("invalid/crc/mismatch")["status"], "pass");
}

TEST(Faulty, UnusedTableStringIsARequiredWriterFinding) {
    // The spec states that the table holds only strings the documents use (W3, required).
    ConformRun r = conform({"--encoder", with_fault("noncanonical-table", "encode"), "--no-derived"});
    EXPECT_EQ(r.code, 1) << r.out;
    expect_consistent_last_line(r);
    const auto& c = r.result("valid/encode/basic");
    EXPECT_EQ(c["status"], "fail");
    EXPECT_TRUE(r.has_finding("valid/encode/basic", "required", "canonical-writer"));
    EXPECT_NE(r.out.find("FAIL valid/encode/basic [canonical-writer] " + writer_rule_tag(writer_rule_info(WriterRule::table_only_used).id) +
                         ": W3: string table entry 14 'unused' is not referenced by the body; first difference at byte 17 (strings.count)"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.result("invalid/encode/head-out-of-range")["status"], "pass");
}

TEST(Faulty, ACrashFailsThatCaseOnly) {
    for (const std::string mode : {"per-case", "persistent"}) {
        std::vector<std::string> args = {"--no-derived"};
        if (mode == "per-case") args.insert(args.end(), {"--decoder", with_fault("crash-on-marker", "decode")});
        else args.insert(args.end(), {"--persistent", with_fault("crash-on-marker", "serve")});
        ConformRun r = conform(args);
        EXPECT_EQ(r.code, 1) << mode;
        EXPECT_EQ(r.result("valid/text/boom")["answer"], "crash") << mode;
        EXPECT_TRUE(r.has_finding("valid/text/boom", "required", "crash")) << mode;
        std::string msg = r.result("valid/text/boom")["findings"][0]["message"];
        EXPECT_NE(msg.find("signal 11"), std::string::npos) << mode << ": " << msg;
        // Every decode case without the marker passes, also after the crash in persistent mode.
        for (const auto& c : r.results["cases"])
            if (c["kind"] == "decode" && c["id"] != "valid/text/boom") {
                EXPECT_NE(c["status"], "fail") << mode << " " << c["id"];
            }
    }
}

TEST(Faulty, AHangIsATimeOut) {
    for (const std::string mode : {"per-case", "persistent"}) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::string> args = {"--no-derived", "--timeout", "1", "--filter", "valid/*"};
        if (mode == "per-case") args.insert(args.end(), {"--decoder", with_fault("hang-on-marker", "decode")});
        else args.insert(args.end(), {"--persistent", with_fault("hang-on-marker", "serve")});
        ConformRun r = conform(args);
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20)) << mode;
        EXPECT_EQ(r.code, 1) << mode;
        EXPECT_EQ(r.failed_ids(), std::vector<std::string>{"valid/text/hang-marker"}) << mode;
        EXPECT_EQ(r.result("valid/text/hang-marker")["answer"], "timeout") << mode;
        EXPECT_TRUE(r.has_finding("valid/text/hang-marker", "required", "timeout")) << mode;
    }
}

TEST(Faulty, AllocatingTheDeclaredLengthBreaksTheMemoryBound) {
    ConformRun r = conform({"--decoder", with_fault("alloc-declared", "decode"), "--seed", "2", "--max-derived", "20", "--filter",
                     "derived/memory/*", "--filter", "valid/*"});
    EXPECT_EQ(r.code, 1);
    const auto& c = r.result("derived/memory/valid/document/basic/body-length");
    EXPECT_EQ(c["status"], "fail");
    EXPECT_TRUE(r.has_finding("derived/memory/valid/document/basic/body-length", "required", "memory"));
    EXPECT_GT(c["rss_kb"].get<long>() - r.results["baseline_rss_kb"].get<long>(), 64 * 1024);
    // Cases that declare nothing huge pass.
    EXPECT_EQ(r.result("valid/document/basic")["status"], "pass");
    EXPECT_EQ(r.result("derived/memory/valid/document/basic/token-count-huge")["status"], "pass");

    // The clean adapter stays within the bound on the same cases.
    ConformRun clean = conform({"--decoder", adapter + " decode", "--seed", "2", "--max-derived", "20", "--filter", "derived/memory/*"});
    EXPECT_EQ(clean.code, 0) << clean.out;
}

TEST(Faulty, AWrongErrorCodeIsRecommendedOnly) {
    ConformRun r = conform({"--decoder", with_fault("wrong-code", "decode"), "--no-derived"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(r.has_finding("invalid/crc/mismatch", "recommended", "reason"));
    EXPECT_EQ(r.result("invalid/crc/mismatch")["status"], "pass");
    // header.bad-magic is what it always says, so that case is right.
    EXPECT_FALSE(r.has_finding("invalid/header/bad-magic", "recommended", "reason"));
    EXPECT_GE(r.results["summary"]["recommended_fail"].get<int>(), 3);
    EXPECT_NE(r.out.find("WARN invalid/crc/mismatch [reason] expected error crc.mismatch, got header.bad-magic"), std::string::npos);
}

// The runner knows the error table: a code outside it is reported as unknown, at recommended level.
TEST(Faulty, AnUnknownErrorCodeIsRecommendedOnly) {
    ConformRun r = conform({"--decoder", with_fault("bad-utf8", "decode"), "--no-derived"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(r.has_finding("invalid/crc/mismatch", "recommended", "unknown-code"));
    EXPECT_FALSE(r.has_finding("invalid/crc/mismatch", "required", "unknown-code"));
    EXPECT_EQ(r.result("invalid/crc/mismatch")["status"], "pass");
    EXPECT_NE(r.out.find("WARN invalid/crc/mismatch [unknown-code] error code 'x\\xC0\\x80y' is not in the error table "
                         "(docs/error-codes.md) (protocol)\n"),
              std::string::npos)
        << r.out;
    // A code that is in the table but not the expected one is a reason finding, never unknown-code.
    ConformRun w = conform({"--decoder", with_fault("wrong-code", "decode"), "--no-derived"});
    for (const auto& c : w.results["cases"])
        for (const auto& f : c["findings"]) EXPECT_NE(f["check"], "unknown-code") << c["id"];
}

// The help tells the story of the docs: persistent mode first, spec the default profile, strict
// opt-in, and what each level does.
TEST(Cli, HelpLeadsWithPersistentModeAndTheDefaultProfile) {
    std::ostringstream o, e;
    EXPECT_EQ(conform_run({"--help"}, o, e), 0);
    std::string h = o.str();
    auto persistent = h.find("  --persistent TEXT           use this mode: one long-lived adapter process per job, framed requests "
                             "(docs/protocol.md; version 2, version 1 still accepted)");
    ASSERT_NE(persistent, std::string::npos) << h;
    EXPECT_LT(persistent, h.find("  --decoder TEXT              per-case mode, one process per case:"));
    EXPECT_NE(h.find("spec (the default): an implementation-defined case passes either verdict"), std::string::npos);
    EXPECT_NE(h.find("; strict (opt-in): it must get the reference's verdict"), std::string::npos);
    EXPECT_NE(h.find("a recommended one (the error code of a rejection, an error code not in the table, canonical bytes\n"
                     "only the rulings fix) is reported apart and does not."),
              std::string::npos)
        << h;
}

// The default profile is spec: an implementation-defined case passes either verdict, and an
// accepted one must give the case's if-accepted content (the score kept as it is).
TEST(Profiles, SpecIsTheDefaultAndChecksTheIfAcceptedContent) {
    const std::string id = "impl/categories/score-above-one";
    ConformRun spec = conform({"--decoder", with_fault("accept-impl", "decode"), "--no-derived"});
    EXPECT_EQ(spec.code, 0) << spec.out;
    EXPECT_EQ(spec.results["profile"], "spec");
    EXPECT_EQ(spec.result(id)["status"], "info");
    EXPECT_TRUE(spec.has_finding(id, "info", "verdict"));
    EXPECT_EQ(spec.results["summary"]["informational"], 1);
    expect_consistent_last_line(spec);
    EXPECT_EQ(spec.last_line, "CONFORMANCE PASSED: 8 passed, 0 failed, 0 expected failures, 4 skipped, 1 informational, 0 not run");

    // Accepting but giving other content than the if-accepted one is a required failure.
    ConformRun wrong = conform({"--decoder", with_fault("accept-impl-wrong", "decode"), "--no-derived"});
    EXPECT_EQ(wrong.code, 1);
    EXPECT_EQ(wrong.failed_ids(), std::vector<std::string>{id});
    EXPECT_TRUE(wrong.has_finding(id, "required", "content"));
    std::string msg = wrong.result(id)["findings"][1]["message"];
    EXPECT_NE(msg.find("if-accepted content: doc.cats[0].score"), std::string::npos) << msg;

    // The reference's own choice (reject) passes under both profiles.
    ConformRun clean = conform({"--decoder", adapter + " decode", "--no-derived"});
    EXPECT_EQ(clean.result(id)["status"], "pass");

    // strict is opt-in and holds the testee to the reference's verdict.
    ConformRun strict = conform({"--decoder", with_fault("accept-impl", "decode"), "--no-derived", "--profile", "strict"});
    EXPECT_EQ(strict.code, 1);
    EXPECT_EQ(strict.failed_ids(), std::vector<std::string>{id});
    EXPECT_TRUE(strict.has_finding(id, "required", "verdict"));
    expect_consistent_last_line(strict);
}

TEST(ExpectedFailures, RatchetStaleAndRewrite) {
    std::string list = work_dir() + "/xfail.txt";
    write_file(list, "# known\ninvalid/tokens/nan-confidence  # accepts NaN\n\nvalid/document/basic\n");
    ConformRun r = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--expected-failures", list});
    EXPECT_EQ(r.code, 0) << r.out;
    expect_consistent_last_line(r);
    EXPECT_EQ(r.result("invalid/tokens/nan-confidence")["status"], "xfail");
    EXPECT_EQ(r.result("valid/document/basic")["status"], "stale");
    EXPECT_EQ(r.results["stale"], nlohmann::json::array({"valid/document/basic"}));
    EXPECT_NE(r.out.find("STALE valid/document/basic"), std::string::npos);
    std::string cmd = "ond conform --corpus " + fixture() + " --decoder '" + with_fault("nan-conf", "decode") +
                      "' --no-derived --expected-failures " + list;
    EXPECT_NE(r.out.find(cmd), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--write-expected-failures " + list), std::string::npos) << r.out;

    // An unlisted failure fails the run; the rewrite writes exactly the failing ids.
    write_file(list, "valid/document/basic\n");
    ConformRun r2 = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--expected-failures", list,
                      "--write-expected-failures", list});
    EXPECT_EQ(r2.code, 1);
    auto ids = read_expected_failures(list);
    ASSERT_EQ(ids.size(), 1u);
    EXPECT_EQ(ids[0].id, "invalid/tokens/nan-confidence");
    // `id  # reason`: the reason is the first required finding.
    EXPECT_EQ(ids[0].reason, "[verdict] expected reject (tokens.confidence-out-of-range), got accept");
    ConformRun r3 = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--expected-failures", list});
    EXPECT_EQ(r3.code, 0);
    EXPECT_TRUE(r3.results["stale"].empty());
}

// D21: a listed id that matches no case (a typo) fails the run, with its line; a UTF-8 BOM does
// not hide the first id; an id only left out by --filter is not unknown.
TEST(ExpectedFailures, UnknownIdsFailTheRunAndABomIsStripped) {
    const std::string list = work_dir() + "/xfail-bom.txt";
    write_file(list, "\xEF\xBB\xBFinvalid/tokens/nan-confidence  # accepts NaN\ninvalid/tokens/nan-confidenc\nvalid/text/boom\n");
    ConformRun r = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--filter", "invalid/*",
                            "--expected-failures", list});
    EXPECT_EQ(r.code, 1) << r.out;
    expect_consistent_last_line(r);
    EXPECT_EQ(r.results["summary"]["failed"], 0);
    EXPECT_EQ(r.results["summary"]["unknown_expected_failures"], 1);
    EXPECT_EQ(r.result("invalid/tokens/nan-confidence")["status"], "xfail");
    EXPECT_EQ(r.results["unknown_expected_failures"], nlohmann::json::array({"invalid/tokens/nan-confidenc"}));
    const std::string line = "expected-failures:2: 'invalid/tokens/nan-confidenc' matches no case of corpus 0.0.1-test";
    EXPECT_NE(r.out.find("\n" + line + " (fails the run)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n  " + line + "\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.results["expected_failures_notes"], nlohmann::json::array({line}));

    // The opt-out: a warning, and the run passes.
    ConformRun allowed = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--filter", "invalid/*",
                                  "--expected-failures", list, "--allow-unknown-expected-failures"});
    EXPECT_EQ(allowed.code, 0) << allowed.out;
    EXPECT_NE(allowed.out.find(line + " (allowed: --allow-unknown-expected-failures)\n"), std::string::npos) << allowed.out;
    EXPECT_EQ(allowed.results["summary"]["unknown_expected_failures"], 1);
}

// D19: one path for two reports, or for a report and the expected-failures list, is refused.
TEST(Cli, OnePathForTwoFilesIsRefused) {
    const std::string a = work_dir() + "/same.out", list = work_dir() + "/same-list.txt";
    write_file(list, "valid/document/basic\n");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--junit", a, "--html", a},
             {"--html", a, "--write-expected-failures", work_dir() + "/./same.out"},
             {"--expected-failures", list, "--html", list},
             {"--expected-failures", list, "--junit", list}}) {
        std::vector<std::string> full = {"--corpus", fixture(), "--no-derived", "-q"};
        full.insert(full.end(), args.begin(), args.end());
        std::ostringstream o, e;
        EXPECT_EQ(conform_run(full, o, e), 2) << args[0] << " " << args[2];
        EXPECT_NE(e.str().find("name the same file"), std::string::npos) << e.str();
    }
    EXPECT_EQ(read_file(list), "valid/document/basic\n");  // untouched
}

// D27: every numeric option is range-checked (a huge --memory-bound used to overflow).
TEST(Cli, NumbersAreRangeChecked) {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--memory-bound", "9007199254740993"},
                                                                  {"--memory-bound", "0"},
                                                                  {"--max-derived", "50000"},
                                                                  {"--max-consecutive-failures", "-1"},
                                                                  {"--fuzz", "-5"},
                                                                  {"--memory-limit", "8"}}) {
        std::vector<std::string> full = {"--corpus", fixture(), "--no-derived", "-q"};
        full.insert(full.end(), args.begin(), args.end());
        std::ostringstream o, e;
        EXPECT_EQ(conform_run(full, o, e), 2) << args[0] << " " << args[1] << "\n" << o.str();
        EXPECT_NE(e.str().find(args[0]), std::string::npos) << e.str();
    }
}

TEST(Selection, FilterAndSkip) {
    ConformRun r = conform({"--no-derived", "--filter", "invalid/*", "--skip", "invalid/crc/*"});
    EXPECT_EQ(r.code, 0);
    expect_consistent_last_line(r);
    EXPECT_EQ(r.results["cases"].size(), 5u);
    EXPECT_EQ(r.result("invalid/crc/mismatch")["status"], "skip");
    EXPECT_EQ(r.results["summary"]["skipped"], 1);
    EXPECT_EQ(r.last_line, "CONFORMANCE PASSED: 4 passed, 0 failed, 0 expected failures, 1 skipped, 0 informational, 0 not run");
}

TEST(Coverage, RequireRuleCoverageFailsOnAnUncoveredRule) {
    ConformRun r = conform({"--no-derived", "--require-rule-coverage"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.last_line, "CONFORMANCE FAILED: 13 passed, 0 failed, 0 expected failures, 0 skipped, 0 informational, 0 not run");
    EXPECT_NE(r.out.find("R99      0 NO CASE"), std::string::npos) << r.out;
    bool seen = false;
    for (const auto& rule : r.results["rule_coverage"])
        if (rule["rule"] == "R7") {
            seen = true;
            EXPECT_EQ(rule["cases"], 3);
        }
    EXPECT_TRUE(seen);
}

TEST(Corpus, AHashMismatchFailsTheRun) {
    std::string dir = work_dir() + "/corrupt";
    fs::remove_all(dir);
    fs::copy(fixture(), dir, fs::copy_options::recursive);
    std::string f = dir + "/cases/valid_document_basic.json";
    write_file(f, read_file(f) + " ");
    ConformRun r = conform({"--corpus", dir, "--no-derived"}, false);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("valid/document/basic: cases/valid_document_basic.json has SHA-256"), std::string::npos) << r.out;
}

TEST(Cli, UsageErrors) {
    ConformRun r = conform({"--profile", "lenient"});
    EXPECT_EQ(r.code, 2);
    r = conform({"--decoder", "no-such-adapter-program decode"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot find the program 'no-such-adapter-program'"), std::string::npos) << r.err;
    r = conform({"--decoder", "'unterminated"});
    EXPECT_EQ(r.code, 2);
    r = conform({"--corpus", work_dir() + "/no-such-corpus"}, false);
    EXPECT_EQ(r.code, 2);
}

TEST(Cli, CorpusDirFromTheEnvironment) {
    ::setenv("OND_CORPUS_DIR", fixture().c_str(), 1);
    EXPECT_EQ(default_corpus_dir(), fixture());
    ConformRun r = conform({"--no-derived"}, false);
    ::unsetenv("OND_CORPUS_DIR");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.results["corpus"]["corpus_version"], "0.0.1-test");
}

TEST(Fuzz, FindsMinimisesAndSavesADisagreement) {
    std::string out = work_dir() + "/fuzz-out";
    std::ostringstream o, e;
    int code = conform_run({"--corpus", fixture(), "--no-derived", "--decoder", with_fault("lossy-floats", "decode"), "--fuzz", "3",
                            "--fuzz-out", out, "--seed", "9"},
                           o, e);
    EXPECT_EQ(code, 1) << o.str() << e.str();
    EXPECT_NE(o.str().find("seed 9"), std::string::npos);
    int saved = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
        std::string p = entry.path().string();
        if (p.size() < 10 || p.substr(p.size() - 10) != ".meta.json") continue;
        ++saved;
        auto meta = nlohmann::json::parse(read_file(p));
        EXPECT_EQ(meta["kind"], "decode");
        EXPECT_EQ(meta["source"]["harness"], "ond conform --fuzz");
        std::string input = read_file(out + "/" + meta["input"].get<std::string>());
        EXPECT_LE(input.size(), meta["minimised_from_bytes"].get<std::size_t>());
        // The saved input still shows the disagreement.
        RefAnswer ref = reference_decode(input);
        EXPECT_EQ(meta["verdict"] == "valid", ref.accept);
        if (meta["disagreement"] == "content") {
            ASSERT_TRUE(ref.accept);
            auto cmd = split_command(with_fault("lossy-floats", "decode"));
            auto res = run_process(cmd, input, std::chrono::seconds(10));
            EXPECT_TRUE(json::compare_content(ref.out, res.out).has_value());
        }
    }
    EXPECT_GE(saved, 1);

    // The reference never disagrees with itself.
    std::ostringstream o2, e2;
    EXPECT_EQ(conform_run({"--corpus", fixture(), "--no-derived", "--fuzz", "1", "--fuzz-out", out + "-none"}, o2, e2), 0) << o2.str();
    EXPECT_FALSE(fs::exists(out + "-none"));
}

// Debian's interpreter when present: version-manager shims on PATH can take a second to start.
std::string python3() {
    std::string sys = resolve_executable("/usr/bin/python3");
    return sys.empty() ? resolve_executable("python3") : sys;
}

std::string python_adapter(const std::string& op) {
    return python3() + " " + std::string(OND_SOURCE_DIR) + "/conformance/examples/python_adapter.py " + op;
}

TEST(PythonAdapter, PassesTheFixtureInBothModes) {
    ASSERT_FALSE(python3().empty()) << "python3 (a build dependency of the tests) is not on PATH";
    ConformRun a = conform({"--decoder", python_adapter("decode"), "--no-derived"});
    EXPECT_EQ(a.code, 0) << a.out;
    EXPECT_EQ(a.results["summary"]["skipped"], 4);  // encode and stream: the example decodes only
    EXPECT_EQ(a.results["summary"]["recommended_fail"], 0) << a.out;
    ConformRun b = conform({"--persistent", python_adapter("serve"), "--no-derived"});
    EXPECT_EQ(b.code, 0) << b.out;
    ASSERT_EQ(a.results["cases"].size(), b.results["cases"].size());
    for (std::size_t i = 0; i < a.results["cases"].size(); ++i) {
        EXPECT_EQ(a.results["cases"][i]["status"], b.results["cases"][i]["status"]) << a.results["cases"][i]["id"];
        EXPECT_EQ(a.results["cases"][i]["error"], b.results["cases"][i]["error"]) << a.results["cases"][i]["id"];
    }
    // The derived cases, persistently (one interpreter per job, so this stays fast).
    ConformRun c = conform({"--persistent", python_adapter("serve"), "--seed", "4", "--max-derived", "100"});
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_GT(c.results["cases"].size(), 300u);
}

bool have_golden_corpus() { return fs::exists(std::string(OND_SOURCE_DIR) + "/corpus/manifest.json"); }

// CI: the example adapter against the real corpus, ratcheted by its expected-failures list.
TEST(PythonAdapter, PassesTheGoldenCorpusWithItsExpectedFailures) {
    ASSERT_FALSE(python3().empty()) << "python3 (a build dependency of the tests) is not on PATH";
    ASSERT_TRUE(have_golden_corpus()) << "corpus/manifest.json is missing: the golden corpus is part of the tree";
    std::string xfail = std::string(OND_SOURCE_DIR) + "/conformance/examples/python_adapter.expected-failures";
    ConformRun r = conform({"--corpus", std::string(OND_SOURCE_DIR) + "/corpus", "--persistent", python_adapter("serve"), "--seed",
                            "1", "--max-derived", "150", "--expected-failures", xfail},
                           false);
    EXPECT_EQ(r.code, 0) << r.out;
}

// `ond conform` with no arguments: the reference codec over the golden corpus, every rule covered.
TEST(Golden, ReferencePassesTheGoldenCorpus) {
    ASSERT_TRUE(have_golden_corpus()) << "corpus/manifest.json is missing: the golden corpus is part of the tree";
    ::unsetenv("OND_CORPUS_DIR");
    ConformRun r = conform({"--require-rule-coverage"}, false);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.results["summary"]["failed"], 0);
    EXPECT_EQ(r.results["summary"]["uncovered_rules"], 0);
}

// ---- Rulings, revision 2 (over the golden corpus's implementation-defined cases) ----

ConformRun golden(std::vector<std::string> args) {
    args.insert(args.begin(), {"--corpus", std::string(OND_SOURCE_DIR) + "/corpus", "--no-derived"});
    return conform(args, false);
}

const std::vector<std::string> empty_section_cases = {"impl/entities/annotated-none-no-tokens", "impl/spans/zero-groups",
                                                      "impl/bin/entities-in-record-without-tokens"};

// R22 and R24: a reader that accepts a section 4 without tokens (ents [] or null) or a section 7
// without groups passes under the default profile, as does one that rejects them; strict wants
// the reference's rejection.
TEST(Rulings, EmptySectionsPassAcceptedOrRejected) {
    ASSERT_TRUE(have_golden_corpus()) << "corpus/manifest.json is missing: the golden corpus is part of the tree";
    const std::vector<std::string> filter = {"--filter", "impl/entities/*", "--filter", "impl/spans/zero-groups", "--filter",
                                             "impl/bin/entities-in-record-*"};
    auto run = [&](const std::string& decoder, bool strict) {
        std::vector<std::string> args = {"--decoder", decoder};
        args.insert(args.end(), filter.begin(), filter.end());
        if (strict) args.insert(args.end(), {"--profile", "strict"});
        return golden(args);
    };
    for (const std::string fault : {"accept-empty-sections", "accept-empty-sections-null"}) {
        ConformRun spec = run(with_fault(fault, "decode"), false);
        EXPECT_EQ(spec.code, 0) << fault << "\n" << spec.out;
        for (const auto& id : empty_section_cases) {
            EXPECT_EQ(spec.result(id)["status"], "info") << fault << " " << id;
            EXPECT_EQ(spec.result(id)["answer"], "accept") << fault << " " << id;
        }
        expect_consistent_last_line(spec);
        ConformRun strict = run(with_fault(fault, "decode"), true);
        EXPECT_EQ(strict.code, 1) << fault;
        auto failed = strict.failed_ids();
        std::sort(failed.begin(), failed.end());
        auto want = empty_section_cases;
        std::sort(want.begin(), want.end());
        EXPECT_EQ(failed, want) << fault;
    }
    for (bool strict : {false, true}) {
        ConformRun clean = run(adapter + " decode", strict);
        EXPECT_EQ(clean.code, 0) << clean.out;
        for (const auto& id : empty_section_cases) {
            EXPECT_EQ(clean.result(id)["status"], "pass") << id;
            EXPECT_EQ(clean.result(id)["answer"], "reject") << id;
        }
    }
}

// R9: sections 6 and 7 in a record may be skipped or read as the record's own; both pass.
TEST(Rulings, RecordExtrasPassSkippedOrRead) {
    ASSERT_TRUE(have_golden_corpus()) << "corpus/manifest.json is missing: the golden corpus is part of the tree";
    for (const std::string fault : {"skip-record-extras", "read-record-extras"}) {
        ConformRun r = golden({"--decoder", with_fault(fault, "decode"), "--filter", "impl/bin/section-*-in-record"});
        EXPECT_EQ(r.code, 0) << fault << "\n" << r.out;
        for (const char* id : {"impl/bin/section-1-in-record", "impl/bin/section-5-in-record", "impl/bin/section-6-in-record",
                               "impl/bin/section-7-in-record"}) {
            EXPECT_EQ(r.result(id)["status"], "info") << fault << " " << id;
            EXPECT_EQ(r.result(id)["answer"], "accept") << fault << " " << id;
        }
    }
}

// Encoding implementation-defined content: a writer that writes it is judged like any encoder
// (read back with the one check relaxed). An allowed table order or varint width is only a
// recommended finding; output that reads back to other content fails.
TEST(Rulings, WritersOfImplementationDefinedContent) {
    ASSERT_TRUE(have_golden_corpus()) << "corpus/manifest.json is missing: the golden corpus is part of the tree";
    auto run = [](const std::string& fault) { return golden({"--encoder", with_fault(fault, "encode"), "--filter", "encode-impl/*"}); };
    auto rule_findings = [](const ConformRun& r, const std::string& level) {
        std::vector<std::string> out;
        for (const auto& c : r.results["cases"])
            for (const auto& f : c["findings"])
                if (f["level"] == level) out.push_back(f["message"]);
        return out;
    };
    ConformRun exact = run("write-impl");
    EXPECT_EQ(exact.code, 0) << exact.out;
    EXPECT_EQ(exact.results["summary"]["informational"], 9);  // the corpus's 9 encode-impl cases
    EXPECT_TRUE(rule_findings(exact, "recommended").empty());

    ConformRun order = run("write-impl-token-order");
    EXPECT_EQ(order.code, 0) << order.out;
    EXPECT_EQ(order.results["summary"]["informational"], 9);
    EXPECT_TRUE(rule_findings(order, "required").empty());
    EXPECT_TRUE(order.has_finding("encode-impl/encode/group-duplicate", "recommended", "canonical-writer"));
    for (const std::string& m : rule_findings(order, "recommended"))
        EXPECT_NE(m.find(writer_rule_tag(writer_rule_info(WriterRule::canonical_numbering).id)), std::string::npos) << m;

    ConformRun wide = run("write-impl-varint5");
    EXPECT_EQ(wide.code, 0) << wide.out;
    const auto wide_rec = rule_findings(wide, "recommended");
    EXPECT_EQ(wide_rec.size(), 9u);
    for (const std::string& m : wide_rec) EXPECT_NE(m.find(writer_rule_tag(writer_rule_info(WriterRule::minimal_varints).id)), std::string::npos) << m;

    ConformRun lossy = run("write-impl-lossy");
    EXPECT_EQ(lossy.code, 1);
    EXPECT_EQ(lossy.failed_ids().size(), 9u);
    EXPECT_TRUE(lossy.has_finding("encode-impl/encode/group-duplicate", "required", "content"));
    const std::string msg = lossy.result("encode-impl/encode/category-score-above-one")["findings"][1]["message"];
    EXPECT_NE(msg.find("read back with categories.score-out-of-range relaxed to other content"), std::string::npos) << msg;

    // Under strict only the refusing writer (the clean adapter) passes.
    ConformRun strict = golden({"--encoder", with_fault("write-impl", "encode"), "--filter", "encode-impl/*", "--profile", "strict"});
    EXPECT_EQ(strict.code, 1);
    ConformRun clean = golden({"--encoder", adapter + " encode", "--filter", "encode-impl/*", "--profile", "strict"});
    EXPECT_EQ(clean.code, 0) << clean.out;
}

}  // namespace
}  // namespace ond::conformance
