// The --large cases are cases of the one run: selected by --filter, run through the same testee
// (shell-syntax commands, --memory-limit), counted in the last line and in every report.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_conform_run.hpp"

namespace ond::conformance {
namespace large_test {

using namespace test_run;

// Adapters in shell syntax (run under /bin/sh -c) that answer after reading the header only.
const std::string rejects_tokens = "head -c 12 >/dev/null; echo 'error: tokens.count-too-large' >&2; exit 1";
const std::string rejects_stream = "head -c 12 >/dev/null; echo 'error: stream.length-too-large' >&2; exit 1";
const std::string accepts = "head -c 12 >/dev/null; echo '{}'; exit 0";
const std::string rejects_content = "head -c 12 >/dev/null; echo 'error: content.too-large' >&2; exit 1";

TEST(Large, CasesPassThroughShellSyntaxAdaptersAndAreCounted) {
    ConformRun r = conform({"--large", "--filter", "large/*-plus-one", "--decoder", rejects_tokens, "--stream-decoder", rejects_stream,
                            "--encoder", rejects_content});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(r.last_line, "CONFORMANCE PASSED: 4 passed, 0 failed, 0 expected failures, 0 skipped, 0 informational, 0 not run");
    ASSERT_EQ(r.results["cases"].size(), 4u);
    EXPECT_EQ(r.result("large/encode-body-cap-plus-one")["status"], "pass");
    EXPECT_EQ(r.result("large/encode-body-cap-plus-one")["error"], "content.too-large");
    EXPECT_EQ(r.result("large/encode-tokens-cap-plus-one")["status"], "pass");
    EXPECT_EQ(r.result("large/encode-tokens-cap-plus-one")["kind"], "encode");
    EXPECT_EQ(r.result("large/tokens-cap-plus-one")["status"], "pass");
    EXPECT_EQ(r.result("large/tokens-cap-plus-one")["origin"], "large");
    EXPECT_EQ(r.result("large/stream-body-cap-plus-one")["status"], "pass");
    EXPECT_EQ(r.result("large/stream-body-cap-plus-one")["error"], "stream.length-too-large");
}

TEST(Large, AFailingLargeCaseFailsTheRunAndReachesEveryReport) {
    const std::string junit = work_dir() + "/large.xml", html = work_dir() + "/large.html";
    ConformRun r = conform({"--large", "--filter", "large/*-plus-one", "--decoder", accepts, "--junit", junit, "--html", html});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(r.last_line, "CONFORMANCE FAILED: 0 passed, 1 failed, 0 expected failures, 3 skipped, 0 informational, 0 not run");
    EXPECT_EQ(r.results["summary"]["ok"], false);
    const auto& c = r.result("large/tokens-cap-plus-one");
    EXPECT_EQ(c["status"], "fail");
    ASSERT_FALSE(c["findings"].empty());
    EXPECT_EQ(c["findings"][0]["check"], "verdict");
    EXPECT_NE(c["findings"][0]["message"].get<std::string>().find("expected reject (tokens.count-too-large), got accept"), std::string::npos)
        << c["findings"][0]["message"];
    EXPECT_NE(r.out.find("FAIL large/tokens-cap-plus-one [verdict]"), std::string::npos) << r.out;
    EXPECT_NE(read_file(junit).find("large/tokens-cap-plus-one"), std::string::npos);
    EXPECT_NE(read_file(junit).find("<failure"), std::string::npos);
    EXPECT_NE(read_file(html).find("large/tokens-cap-plus-one"), std::string::npos);
    // Its bytes are too large to save: the recipe is, next to the reports, and the summary says so.
    const std::string recipe = c["saved"]["recipe"];
    EXPECT_NE(read_file(recipe).find("an ONDC of 2^25 + 1 tokens"), std::string::npos) << read_file(recipe);
    EXPECT_NE(r.out.find("too large to save: rerun makes it again"), std::string::npos) << r.out;
}

// The testee's hard memory cap holds for the large cases too: an adapter that reads its whole
// input (345 MB) into memory cannot under --memory-limit 64.
TEST(Large, TheMemoryLimitApplies) {
    ConformRun r = conform({"--large", "--filter", "large/tokens-cap*", "--memory-limit", "64", "--decoder", adapter + " decode"});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(r.result("large/tokens-cap-plus-one")["status"], "fail");
    EXPECT_TRUE(r.has_finding("large/tokens-cap-plus-one", "required", "crash")) << r.out;
}

TEST(Large, OnlyWithTheOption) {
    ConformRun r = conform({"--filter", "large/*", "--decoder", rejects_tokens});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--filter 'large/*' matches no case"), std::string::npos) << r.err;
}

// With --large, filters that leave out every large case are refused as a filter that matches
// nothing is, instead of a run that silently has none.
TEST(Large, AFilterThatMatchesNoLargeCaseIsRefused) {
    ConformRun r = conform({"--large", "--filter", "valid/text/boom", "--decoder", rejects_tokens});
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.err.find("ond conform: --large: no --filter matches a large/* case, so none would run (add --filter 'large/*')"),
              std::string::npos)
        << r.err;
    ConformRun both = conform({"--large", "--filter", "valid/text/boom", "--filter", "large/tokens-cap*", "--decoder", rejects_tokens});
    EXPECT_EQ(both.err.find("--large:"), std::string::npos) << both.err;
    EXPECT_EQ(both.results["cases"].size(), 2u);  // the adapter refuses everything: the valid case fails
    EXPECT_EQ(both.result("large/tokens-cap-plus-one")["status"], "pass");
}

// Where the run starts, a run without --large says what its caps are checked by.
TEST(Large, WithoutItTheHeaderSaysTheCapsAreCheckedByTheCodeOnly) {
    const std::string line =
        "limits: without --large the token cap (2^25) and the stream body cap (2^30) are met only in small inputs that declare the "
        "cap or one more: a reader with no cap, or with either cap off by one, is caught there only by a wrong error code "
        "(recommended level), and a writer's token and body caps not at all; --large adds each cap (accepted) and one past it "
        "(refused) at full size, the writer's two caps too (its body cap per case only)\n";
    ConformRun without = conform({"--no-derived", "--filter", "valid/text/boom"});
    EXPECT_NE(without.out.find(line), std::string::npos) << without.out;
    ConformRun with = conform({"--large", "--filter", "large/tokens-cap*", "--decoder", rejects_tokens});
    EXPECT_EQ(with.out.find("limits: without --large"), std::string::npos) << with.out;
}

// A reader whose caps are one too low (it refuses exactly 2^25 tokens, exactly a 2^30-byte
// body) fails the at-cap cases (required); it answers after the 12-byte header.
TEST(Large, AReaderThatRefusesAtTheCapFails) {
    ConformRun r = conform({"--large", "--filter", "large/*-at-cap", "--decoder", rejects_tokens, "--stream-decoder", rejects_stream});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_EQ(r.last_line, "CONFORMANCE FAILED: 0 passed, 2 failed, 0 expected failures, 2 skipped, 0 informational, 0 not run");
    EXPECT_EQ(r.result("large/encode-tokens-at-cap")["status"], "skip");  // no encoder
    EXPECT_EQ(r.result("large/encode-body-at-cap")["status"], "skip");
    for (const char* id : {"large/tokens-at-cap", "large/stream-body-at-cap"}) {
        const auto& c = r.result(id);
        EXPECT_EQ(c["status"], "fail") << c;
        EXPECT_EQ(c["findings"][0]["check"], "verdict") << c;
        EXPECT_NE(c["findings"][0]["message"].get<std::string>().find("expected accept, got reject"), std::string::npos) << c;
    }
    // An answer that is no content JSON fails on its content, read as it came.
    ConformRun wrong = conform({"--large", "--filter", "large/tokens-at-cap", "--decoder", accepts});
    EXPECT_EQ(wrong.code, 1) << wrong.out;
    const auto& c = wrong.result("large/tokens-at-cap");
    EXPECT_EQ(c["findings"][0]["check"], "content") << c;
    EXPECT_EQ(c["findings"][0]["message"], "(top level): missing key \"format\"") << c;
}

// A writer whose token cap is one too low (it refuses exactly 2^25 tokens) fails the at-cap case
// (required) and passes the plus-one case; one that writes other bytes fails on them. Both
// answer after the first 12 bytes of the 4.1 GB of content JSON.
TEST(Large, AWriterThatRefusesAtTheCapFails) {
    ConformRun r = conform({"--large", "--filter", "large/encode-*", "--encoder", rejects_content});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_EQ(r.last_line, "CONFORMANCE FAILED: 2 passed, 2 failed, 0 expected failures, 0 skipped, 0 informational, 0 not run");
    for (const char* id : {"large/encode-tokens-at-cap", "large/encode-body-at-cap"}) {
        const auto& c = r.result(id);
        EXPECT_EQ(c["findings"][0]["check"], "verdict") << c;
        EXPECT_EQ(c["findings"][0]["level"], "required") << c;
        EXPECT_EQ(c["findings"][0]["message"], "expected the canonical bytes, the writer refused (error: content.too-large)") << c;
    }
    EXPECT_EQ(r.result("large/encode-tokens-cap-plus-one")["status"], "pass");
    EXPECT_EQ(r.result("large/encode-body-cap-plus-one")["status"], "pass");
    // Other bytes: the first 4 of the canonical ones do not decode.
    ConformRun wrong = conform({"--large", "--filter", "large/encode-tokens-at-cap", "--encoder", "head -c 12 >/dev/null; printf ONDC"});
    EXPECT_EQ(wrong.code, 1) << wrong.out;
    const auto& w = wrong.result("large/encode-tokens-at-cap");
    EXPECT_EQ(w["findings"][0]["check"], "canonical-writer") << w;
    EXPECT_EQ(w["findings"][0]["level"], "required") << w;
    EXPECT_NE(w["findings"][0]["message"].get<std::string>().find("writer rule decode (required): the bytes do not decode: "), std::string::npos)
        << w;
    EXPECT_NE(w["findings"][0]["message"].get<std::string>().find("; first difference at byte 4, got 4 bytes, canonical 343932962"),
              std::string::npos)
        << w;
}

// The body cases' content JSON (4.3 GB) passes a persistent frame's 4-byte length: a persistent
// testee does not get them, and the run says why (informational); the token cases it does get.
TEST(Large, APersistentTesteeDoesNotGetWhatNoFrameHolds) {
    ConformRun r = conform({"--large", "--filter", "large/encode-body-*", "--persistent", adapter + " serve"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(r.last_line, "CONFORMANCE PASSED: 0 passed, 0 failed, 0 expected failures, 2 skipped, 0 informational, 0 not run");
    for (const char* id : {"large/encode-body-at-cap", "large/encode-body-cap-plus-one"}) {
        const auto& c = r.result(id);
        EXPECT_EQ(c["status"], "skip") << c;
        ASSERT_FALSE(c["findings"].empty()) << c;
        EXPECT_EQ(c["findings"][0]["level"], "info") << c;
        EXPECT_NE(c["findings"][0]["message"].get<std::string>().find(
                      "is more than this testee takes (4294967295 bytes, one frame's 4-byte length); run it per case"),
                  std::string::npos)
            << c;
    }
}

// --name is escaped on the terminal as the reports escape testee text: no ESC sequence, line
// separator, bidi override or line of its own reaches it raw.
TEST(Large, TheNameIsEscapedOnTheTerminal) {
    ConformRun r = conform({"--no-derived", "--filter", "valid/text/boom", "--name", "x\x1b[2J\u2028\u202E\nCONFORMANCE PASSED"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("as 'x\\u{001B}[2J\\u{2028}\\u{202E}\\nCONFORMANCE PASSED'"), std::string::npos) << r.out;
    for (const char* raw : {"\x1b", "\u2028", "\u202E"}) EXPECT_EQ(r.out.find(raw), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\nCONFORMANCE PASSED'"), std::string::npos) << r.out;
}

// In-process, the reference would hold the whole input: the large cases are skipped, saying why.
TEST(Large, InProcessTheyAreSkippedWithTheReason) {
    ConformRun r = conform({"--large", "--no-derived"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.result("large/tokens-cap-plus-one")["status"], "skip");
    EXPECT_TRUE(r.has_finding("large/tokens-cap-plus-one", "info", "verdict"));
}

// --fuzz is a phase of the same run: its minimised disagreements are cases (fuzz/...), counted
// and reported; the testee is the run's (so --memory-limit holds); its text is escaped.
TEST(FuzzPhase, DisagreementsAreCasesOfTheRunAndTheMemoryLimitHolds) {
    const std::string out = work_dir() + "/fuzz-limit";
    // A clean adapter that first touches 96 MiB: under a 64 MiB cap the runner kills it (a crash),
    // under the default cap (at least 1 GiB) it goes on to answer as the reference does.
    const std::string decoder =
        "python3 -c 'b = bytearray(96 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1' && exec " + adapter + " decode";
    ConformRun r = conform({"--no-derived", "--filter", "valid/text/boom", "--max-consecutive-failures", "0", "--memory-limit", "64",
                            "--decoder", decoder, "--fuzz", "1", "--fuzz-out", out, "--seed", "3"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    expect_consistent_last_line(r);
    int fuzz_cases = 0;
    for (const auto& c : r.results["cases"]) {
        if (c["origin"] != "fuzz") continue;
        ++fuzz_cases;
        EXPECT_EQ(c["status"], "fail") << c;
        EXPECT_EQ(c["findings"][0]["check"], "crash") << c;
    }
    EXPECT_GE(fuzz_cases, 1) << r.out;
    // Without the cap the same adapter agrees with the reference.
    ConformRun clean = conform({"--no-derived", "--filter", "valid/text/boom", "--decoder", decoder, "--fuzz", "1", "--fuzz-out",
                                out + "-clean", "--seed", "3"});
    EXPECT_EQ(clean.code, 0) << clean.out;
    EXPECT_EQ(clean.results["cases"].size(), 1u);
}

bool printable_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b == 0x1B || (b < 0x20 && b != '\n' && b != '\t' && b != '\r') || b >= 0x80) return false;  // this run's text is ASCII
    }
    return true;
}

// D10: a testee whose error text is invalid UTF-8 no longer aborts --fuzz (exit 2) nor reaches
// the terminal raw; the findings are saved.
TEST(FuzzPhase, TesteeBytesAreEscapedAndTheFindingsKept) {
    const std::string out = work_dir() + "/fuzz-utf8";
    // Rejections become crashes whose stderr clears the screen and holds a byte that is not UTF-8.
    const std::string decoder = adapter + " decode || { printf 'boom \\033[2J\\377\\n' >&2; exit 3; }";
    ConformRun r = conform({"--no-derived", "--filter", "valid/text/boom", "--decoder", decoder, "--fuzz", "1", "--fuzz-out", out,
                            "--seed", "4"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_TRUE(printable_utf8(r.out)) << r.out;
    EXPECT_TRUE(printable_utf8(r.err)) << r.err;
    int saved = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
        const std::string p = entry.path().string();
        if (p.size() < 10 || p.substr(p.size() - 10) != ".meta.json") continue;
        ++saved;
        const auto meta = nlohmann::json::parse(read_file(p));
        EXPECT_EQ(meta["kind"], "decode");
        EXPECT_NE(meta["description"].get<std::string>().find("boom \\u{001B}[2J\\xFF"), std::string::npos) << meta["description"];
    }
    EXPECT_GE(saved, 1);
}

}  // namespace large_test
}  // namespace ond::conformance
