// Every failure names the rule it breaks and where (Finding::rule and ::field), on real planted
// bugs of the test adapter; the rule broken need not be one the case cites. An encode failure
// saves what the encoder wrote next to the reports and names the bytes it should have written.
#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suite/classify.hpp"
#include "transport/process.hpp"
#include "test_conform_run.hpp"
#include "suite/reference.hpp"

namespace ond::conformance {
namespace {

namespace fs = std::filesystem;
using namespace test_run;

// The findings of a case at `level` and `check`, as (rule, field) pairs.
std::vector<std::pair<std::string, std::string>> where(const ConformRun& r, const std::string& id, const std::string& level,
                                                       const std::string& check) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& f : r.result(id)["findings"])
        if (f["level"] == level && f["check"] == check) out.emplace_back(f["rule"], f["field"]);
    return out;
}

using Where = std::vector<std::pair<std::string, std::string>>;

TEST(Findings, ContentRuleFollowsTheField) {
    EXPECT_EQ(content_rule("doc.tokens[2].conf"), "R3");
    EXPECT_EQ(content_rule("docs[1].ents[0].conf"), "R3");
    EXPECT_EQ(content_rule("doc.tokens[2].head"), "R19");
    EXPECT_EQ(content_rule("doc.tokens[0].start"), "R18");
    EXPECT_EQ(content_rule("doc.tokens[0].sent"), "R20");
    EXPECT_EQ(content_rule("doc.tokens[0].norm.utf16[1]"), "R13");
    EXPECT_EQ(content_rule("doc.tokens"), "R17");
    EXPECT_EQ(content_rule("doc.ents[0].start"), "R22");  // an entity's start is not a token span
    EXPECT_EQ(content_rule("doc.ents[0].label"), "R22");
    EXPECT_EQ(content_rule("doc.cats[1].score"), "R23");
    EXPECT_EQ(content_rule("doc.spans[0].spans[1].label"), "R24");
    EXPECT_EQ(content_rule("doc.text"), "R16");
    EXPECT_EQ(content_rule("docs"), "R11");
    EXPECT_EQ(content_rule("crc"), "R7");
    EXPECT_EQ(content_rule("(top level)"), "");
    EXPECT_EQ(difference_path("doc.tokens[2].conf: expected 0.5, got 0.25"), "doc.tokens[2].conf");
    EXPECT_EQ(difference_path("(top level): expected an object"), "(top level)");
    EXPECT_EQ(difference_path("not a path: x"), "");
    EXPECT_EQ(difference_path(std::string(60000, 'a') + "[: x"), "");  // one pass, no recursion
}

TEST(Findings, AnAcceptedFaultBreaksTheRuleOfItsErrorAtItsByte) {
    ConformRun r = conform({"--decoder", with_fault("nan-conf", "decode"), "--no-derived"});
    ASSERT_EQ(r.code, 1) << r.out;
    const std::string at = fault_byte("invalid_tokens_nan-confidence.ondc");
    EXPECT_EQ(where(r, "invalid/tokens/nan-confidence", "required", "verdict"), (Where{{"R3", at}}));
    EXPECT_NE(r.out.find("  FAIL invalid/tokens/nan-confidence [verdict] expected reject (tokens.confidence-out-of-range), got accept (R3 at " +
                         at + ")\n"),
              std::string::npos)
        << r.out;
}

// A valid case that cites R6 alone fails on its confidences: it breaks R3, at the field.
TEST(Findings, AContentDifferenceBreaksTheRuleOfItsField) {
    ConformRun r = conform({"--decoder", with_fault("lossy-floats", "decode"), "--no-derived"});
    ASSERT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(where(r, "valid/document/basic", "required", "content"), (Where{{"R3", "doc.tokens[0].conf"}}));
    EXPECT_EQ(r.result("valid/text/boom")["rules"], nlohmann::json::array({"R6"}));
    EXPECT_EQ(where(r, "valid/text/boom", "required", "content"), (Where{{"R3", "doc.tokens[0].conf"}}));

    // A text read with a U+FEFF before it: R16, at doc.text, in a case that cites R3 R6 R7 W1.
    ConformRun bom = conform({"--decoder", with_fault("bom-text", "decode"), "--no-derived", "--filter", "valid/document/basic"});
    ASSERT_EQ(bom.code, 1) << bom.out;
    EXPECT_EQ(where(bom, "valid/document/basic", "required", "content"), (Where{{"R16", "doc.text"}}));
}

TEST(Findings, AWrongErrorCodeAndACrashNameTheCasesRuleAndWhere) {
    ConformRun r = conform({"--decoder", with_fault("wrong-code", "decode"), "--no-derived", "--filter", "invalid/crc/*"});
    EXPECT_EQ(where(r, "invalid/crc/mismatch", "recommended", "reason"), (Where{{"R7", fault_byte("invalid_crc_mismatch.ondc")}}));
    // The testee's code is not in the error table only for bad-utf8; this one is: no unknown-code finding.
    EXPECT_TRUE(where(r, "invalid/crc/mismatch", "recommended", "unknown-code").empty());

    ConformRun crash = conform({"--decoder", with_fault("crash-on-marker", "decode"), "--no-derived", "--filter", "valid/text/boom"});
    ASSERT_EQ(crash.code, 1) << crash.out;
    EXPECT_EQ(where(crash, "valid/text/boom", "required", "crash"), (Where{{"R6", "(top level)"}}));

    ConformRun twice = conform({"--persistent", with_fault("bytes-before", "serve"), "--no-derived", "--max-consecutive-failures", "0"});
    ASSERT_EQ(twice.code, 1) << twice.out;
    bool protocol = false;
    for (const auto& c : twice.results["cases"])
        for (const auto& f : c["findings"])
            if (f["check"] == "protocol") {
                protocol = true;
                EXPECT_EQ(f["rule"], "protocol");
                EXPECT_EQ(f["field"], "");
            }
    EXPECT_TRUE(protocol) << twice.out;
}

// The writer's unused table string: W3 (the case cites W1), at the field of the first byte that
// differs; what it wrote is saved, and the expected file is named.
TEST(Findings, AnEncodeFailureSavesTheBytesWrittenAndNamesTheExpectedFile) {
    // The folder of the first report given (--json: conform() gives one in work_dir()).
    const std::string dir = work_dir();
    ConformRun r = conform({"--encoder", with_fault("noncanonical-table", "encode"), "--no-derived", "--junit", dir + "/encode.xml"});
    ASSERT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(where(r, "valid/encode/basic", "required", "canonical-writer"), (Where{{"W3", "strings.count"}}));
    const auto& saved = r.result("valid/encode/basic")["saved"];
    const std::string written = saved.value("written", ""), expected = saved.value("expected", "");
    EXPECT_EQ(written, (fs::absolute(dir) / "cases" / "valid_encode_basic.written.ondc").lexically_normal().string());
    EXPECT_EQ(expected, (fs::absolute(fixture()) / "cases" / "valid_encode_basic.ondc").lexically_normal().string());
    ASSERT_TRUE(fs::exists(written));
    // The saved bytes are what the adapter writes for that content.
    auto run = run_process(split_command(with_fault("noncanonical-table", "encode")),
                           read_file(fixture() + "/cases/valid_encode_basic.json"), std::chrono::seconds(30));
    EXPECT_EQ(read_file(written), run.out);
    EXPECT_NE(read_file(written), read_file(expected));
    EXPECT_NE(r.out.find("    written: " + written + "  (what the encoder wrote; "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("    expected: " + expected + "  (the canonical bytes it should have written)\n"), std::string::npos) << r.out;
}

// The decode -> encode round trip of a persistent adapter whose writer adds an unused string:
// the decode case fails [round-trip] W3; the bytes written on the round trip are saved, and the
// expected bytes are the case's own input.
TEST(Findings, ARoundTripFailureSavesTheBytesWritten) {
    const std::string dir = work_dir();
    ConformRun r = conform({"--persistent", with_fault("noncanonical-table", "serve"), "--no-derived", "--filter", "valid/document/basic"});
    ASSERT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(where(r, "valid/document/basic", "required", "round-trip"), (Where{{"W3", "strings.count"}}));
    const auto& saved = r.result("valid/document/basic")["saved"];
    const std::string written = saved.value("written", ""), expected = saved.value("expected", "");
    EXPECT_EQ(written, (fs::absolute(dir) / "cases" / "valid_document_basic.written.ondc").lexically_normal().string());
    EXPECT_EQ(expected, (fs::absolute(fixture()) / "cases" / "valid_document_basic.ondc").lexically_normal().string());
    ASSERT_TRUE(fs::exists(written));
    auto run = run_process(split_command(with_fault("noncanonical-table", "encode")),
                           read_file(fixture() + "/cases/valid_document_basic.json"), std::chrono::seconds(30));
    EXPECT_EQ(read_file(written), run.out);
    EXPECT_NE(r.out.find("    written: " + written + "  (what the encoder wrote on the round trip; "), std::string::npos) << r.out;
}

// The page groups a failure under the rule it breaks: the lossy reader's cases citing R6 first
// sit under R3, and the BOM reader's basic case (citing R3 first) under R16 as well.
TEST(Findings, TheHtmlGroupsFailuresByTheRuleBroken) {
    const std::string a = work_dir() + "/lossy-group.json", b = work_dir() + "/bom-group.json", html = work_dir() + "/groups.html";
    std::ostringstream o1, e1, o2, e2, o3, e3;
    ASSERT_EQ(conform_run({"--corpus", fixture(), "--no-derived", "--name", "lossy", "--decoder", with_fault("lossy-floats", "decode"),
                           "--json", a, "-q"},
                          o1, e1),
              1);
    ASSERT_EQ(conform_run({"--corpus", fixture(), "--no-derived", "--name", "bom", "--decoder", with_fault("bom-text", "decode"),
                           "--filter", "valid/document/*", "--json", b, "-q"},
                          o2, e2),
              1);
    ASSERT_EQ(conform_run({"--html-merge", html, a, b}, o3, e3), 0) << e3.str();
    const std::string h = read_file(html);
    // The sections of the failures, in order, and the cards in each.
    std::map<std::string, std::vector<std::string>> groups;
    for (std::size_t at = 0; (at = h.find("<section class=\"group\" id=\"group-", at)) != std::string::npos; ++at) {
        const std::size_t q = h.find("data-rule=\"", at) + 11;
        const std::string rule = h.substr(q, h.find('"', q) - q);
        const std::size_t end = h.find("</section>", at);
        for (std::size_t card = at; (card = h.find("<div class=\"card\"", card + 1)) < end;) {
            const std::size_t id = h.find("data-id=\"", card) + 9;
            groups[rule].push_back(h.substr(id, h.find('"', id) - id));
        }
    }
    EXPECT_EQ(groups["R3"], (std::vector<std::string>{"noncanonical/section/unknown-section", "valid/document/basic", "valid/text/boom",
                                                      "valid/text/hang-marker"}))
        << h.substr(h.find("<h2 id=\"failures\">"), 2000);
    EXPECT_EQ(groups["R16"], std::vector<std::string>{"valid/document/basic"});
    EXPECT_EQ(groups.size(), 2u);  // not R6, the first rule three of them cite
    EXPECT_NE(h.find("<h2 id=\"failures\">Failures: 4 cases, by the rule broken</h2>"), std::string::npos);
    // Each finding names its rule (a link) and its field.
    EXPECT_NE(h.find("<b>required [content]</b> breaks <span class=\"rule\" title=\"\">R16</span> at <code class=\"path\">doc.text</code>"),
              std::string::npos);
}

// A derived case's bytes are next to the reports, and the printed run line, run by a shell,
// shows the failure by hand: the CRC-ignoring decoder accepts a flipped bit (exit 0, content).
TEST(Findings, ADerivedCasesRunLineReproducesItsFailure) {
    ConformRun r = conform({"--decoder", with_fault("ignore-crc", "decode"), "--seed", "1", "--max-derived", "40", "--filter",
                            "derived/bitflip/*"});
    ASSERT_EQ(r.code, 1) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\n  (derived/bitflip/[^ ]+)  [^\n]+\n    bytes:   ([^ \n]+)  [^\n]+\n    run:     ([^\n]+)\n")))
        << r.out;
    EXPECT_EQ(r.result(m[1])["saved"]["input"], m[2].str());
    EXPECT_EQ(m[3].str(), with_fault("ignore-crc", "decode") + " < " + m[2].str());
    const auto res = run_process({"/bin/sh", "-c", m[3].str()}, "", std::chrono::seconds(30));
    EXPECT_TRUE(res.exited && res.exit_code == 0) << res.err;
    EXPECT_EQ(res.out.substr(0, 1), "{");
    EXPECT_FALSE(reference_decode(read_file(m[2])).accept);
}

}  // namespace
}  // namespace ond::conformance
