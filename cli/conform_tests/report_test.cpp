// The reporters: the terminal summary's reproduce commands, JSON and JUnit, and the HTML page,
// rendered in headless Chromium to check that a failing case's finding is on screen unhovered.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suite/cases.hpp"
#include "suite/reference.hpp"
#include "conform_cli.hpp"
#include "test_conform_run.hpp"
#include "test_fixture.hpp"
#include "transport/process.hpp"
#include "report/report.hpp"

namespace ond::conformance {
namespace {

namespace fs = std::filesystem;
using namespace test_run;

// No external resource: nothing is fetched, whatever the page is opened with.
void expect_self_contained(const std::string& h) {
    EXPECT_EQ(h.find(" src="), std::string::npos);
    EXPECT_EQ(h.find("<link"), std::string::npos);
    EXPECT_EQ(h.find("http://"), std::string::npos);
    EXPECT_EQ(h.find("https://"), std::string::npos);
    EXPECT_EQ(h.find("@import"), std::string::npos);
}

TEST(Reproduce, ShellQuote) {
    EXPECT_EQ(shell_quote("plain/path-1.ondc"), "plain/path-1.ondc");
    EXPECT_EQ(shell_quote("with space"), "'with space'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_quote("a$b"), "'a$b'");
}

// The lines of `out` from the first one that starts with `from` to the end.
std::string tail_from(const std::string& out, const std::string& from) {
    auto at = out.find("\n" + from);
    return at == std::string::npos ? std::string() : out.substr(at + 1);
}

TEST(Reproduce, TheSummaryEndsWithTheCommandsThatReproduceTheFailure) {
    // An adapter in a directory with a space, so that the command needs quoting.
    std::string dir = work_dir() + "/with space";
    fs::create_directories(dir);
    std::string exe = dir + "/adapter";
    fs::remove(exe);
    fs::create_symlink(adapter, exe);
    std::string decoder = "'" + exe + "' --fault nan-conf decode";
    ConformRun r = conform({"--decoder", decoder, "--no-derived", "--filter", "invalid/*"});
    ASSERT_EQ(r.code, 1) << r.out;
    const std::string file = shell_quote(fixture() + "/cases/invalid_tokens_nan-confidence.ondc");
    const std::string run = "'" + exe + "' --fault nan-conf decode < " + file;
    const std::string rerun = "ond conform --corpus " + shell_quote(fixture()) + " --decoder ''\\''" + exe +
                              "'\\'' --fault nan-conf decode' --no-derived -q --filter invalid/tokens/nan-confidence";
    EXPECT_EQ(tail_from(r.out, "To reproduce"),
              "To reproduce the failure:\n"
              "  invalid/tokens/nan-confidence  [verdict] expected reject (tokens.confidence-out-of-range), got accept (R3 at " +
                  fault_byte("invalid_tokens_nan-confidence.ondc") + ")\n"
              "    file:    " + file + "\n"
              "    run:     " + run + "\n"
              "    inspect: ond inspect " + file + "\n"
              "    rerun:   " + rerun + "\n"
              "CONFORMANCE FAILED: 2 passed, 1 failed, 0 expected failures, 2 skipped, 0 informational, 0 not run\n");

    // The commands do what they say: the testee line shows the acceptance (exit 0, content JSON) ...
    auto res = run_process({"/bin/sh", "-c", run}, "", std::chrono::seconds(30));
    EXPECT_TRUE(res.exited && res.exit_code == 0) << res.err;
    EXPECT_EQ(res.out.substr(0, 1), "{") << res.out;
    // ... and the rerun line runs that case alone and fails it again.
    const std::string ond = OND_CLI_PATH;
    ASSERT_TRUE(fs::exists(ond)) << ond;  // a dependency of this test binary
    res = run_process({"/bin/sh", "-c", shell_quote(ond) + rerun.substr(3)}, "", std::chrono::seconds(60));
    EXPECT_TRUE(res.exited && res.exit_code == 1) << res.out << res.err;
    EXPECT_NE(res.out.find("CONFORMANCE FAILED: 0 passed, 1 failed, 0 expected failures, 0 skipped, 0 informational, 0 not run"),
              std::string::npos)
        << res.out;
    res = run_process({"/bin/sh", "-c", shell_quote(ond) + " inspect " + file}, "", std::chrono::seconds(30));
    EXPECT_TRUE(res.exited) << res.err;
    EXPECT_NE(res.out.find("ONDC"), std::string::npos) << res.out;
}

// The commands start ond and the testee as this shell would: ond by path when it is not the `ond`
// on PATH, and with the OND variable the adapter templates read.
TEST(Reproduce, CommandsCarryTheProgramPathAndTheAdaptersVariable) {
    ShellContext shell{"/opt/x/ond", "OND=/opt/x/ond "};
    std::ostringstream out, err;
    const int code = conform_run({"--corpus", fixture(), "--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--filter",
                                  "invalid/tokens/nan-confidence", "-q"},
                                 out, err, false, shell);
    ASSERT_EQ(code, 1) << out.str() << err.str();
    const std::string file = shell_quote(fixture() + "/cases/invalid_tokens_nan-confidence.ondc");
    const std::string tail = tail_from(out.str(), "To reproduce");
    EXPECT_NE(tail.find("    run:     OND=/opt/x/ond " + with_fault("nan-conf", "decode") + " < " + file + "\n"), std::string::npos) << tail;
    EXPECT_NE(tail.find("    inspect: /opt/x/ond inspect " + file + "\n"), std::string::npos) << tail;
    EXPECT_NE(tail.find("    rerun:   OND=/opt/x/ond /opt/x/ond conform --corpus "), std::string::npos) << tail;

    // Outside the test, the context names this program: here the test binary is not the `ond` on PATH.
    const ShellContext self = this_shell_context();
    EXPECT_EQ(self.ond.front(), '/') << self.ond;
}

TEST(Reproduce, PersistentAndDerivedFailuresShowTheFirstThree) {
    ConformRun r = conform({"--persistent", with_fault("ignore-crc", "serve"), "--seed", "1", "--max-derived", "40", "--filter",
                            "invalid/crc/*", "--filter", "derived/bitflip/*"});
    ASSERT_EQ(r.code, 1) << r.out;
    const int failed = r.results["summary"]["failed"];
    ASSERT_GT(failed, 3);
    std::string tail = tail_from(r.out, "To reproduce");
    ASSERT_EQ(tail.substr(0, tail.find('\n')), "To reproduce the first 3 of " + std::to_string(failed) + " failures:");
    int reruns = 0;
    for (std::size_t at = 0; (at = tail.find("\n    rerun:   ", at + 1)) != std::string::npos;) ++reruns;
    EXPECT_EQ(reruns, 3);
    // The corpus case comes first: the persistent command as run, and its file.
    const std::string file = shell_quote(fixture() + "/cases/invalid_crc_mismatch.ondc");
    const std::string head = "  invalid/crc/mismatch  [verdict] expected reject (crc.mismatch), got accept (R7 at " +
                             fault_byte("invalid_crc_mismatch.ondc") + ")\n"
                             "    file:    " + file + "\n"
                             "    testee:  " + with_fault("ignore-crc", "serve") +
                             "  (persistent: it got this file as one request; rerun sends it alone)\n"
                             "    inspect: ond inspect " + file + "\n"
                             "    rerun:   ond conform --corpus " + shell_quote(fixture()) + " --persistent '" +
                             with_fault("ignore-crc", "serve") + "' --max-derived 40 -q --seed 1 --filter invalid/crc/mismatch\n";
    EXPECT_EQ(tail.substr(tail.find('\n') + 1, head.size()), head) << tail;
    // Then derived ones: their bytes saved next to the reports and run as they are, the source's
    // file, and a rerun that pins the seed.
    std::smatch m;
    std::regex derived("\n  (derived/bitflip/[^ ]+)  \\[verdict\\] [^\n]+\n    bytes:   ([^ \n]+)  \\(this case's input, saved next "
                       "to the reports; derived from [^)]+\\)\n    testee:  ([^\n]+)\n    source:  [^\n]+\\.ond[cb]  \\([^;]+; this case's bytes "
                       "are derived from it at run time: rerun replays them\\)\n    inspect: ond inspect [^\n]+\n    rerun:   ond conform "
                       "[^\n]+ --seed 1 --filter ([^ \n]+)\n");
    ASSERT_TRUE(std::regex_search(tail, m, derived)) << tail;
    EXPECT_EQ(m[1], m[4]);
    EXPECT_EQ(r.result(m[1])["status"], "fail");
    EXPECT_EQ(r.result(m[1])["saved"]["input"], m[2].str());
    // The saved bytes show the fault by hand: the reference refuses them, the faulty adapter accepts.
    const std::string bytes = read_file(m[2]);
    EXPECT_FALSE(reference_decode(bytes).accept);
    auto res = run_process(split_command(with_fault("ignore-crc", "decode")), bytes, std::chrono::seconds(30));
    EXPECT_TRUE(res.exited && res.exit_code == 0) << res.err;
    // A persistent adapter reads frames: the line names it and says that rerun sends the case alone.
    EXPECT_EQ(m[3].str(), with_fault("ignore-crc", "serve") + "  (persistent: it got these bytes as one request; rerun sends it alone)");
}

// An encoder's wrong bytes are saved next to the reports, and the reproduce lines name them.
TEST(Reproduce, AnEncodeFailureSavesWhatTheEncoderWrote) {
    ConformRun r = conform({"--no-derived", "--filter", "valid/encode/basic", "--encoder", with_fault("noncanonical-table", "encode"),
                            "--decoder", adapter + " decode"});
    ASSERT_EQ(r.code, 1) << r.out;
    const auto& c = r.result("valid/encode/basic");
    ASSERT_TRUE(c.contains("saved")) << c;
    const std::string written = c["saved"]["written"];
    auto res = run_process(split_command(with_fault("noncanonical-table", "encode")),
                           read_file(fixture() + "/" + c["files"]["input"].get<std::string>()), std::chrono::seconds(30));
    EXPECT_EQ(read_file(written), res.out);
    EXPECT_NE(r.out.find("    written: " + shell_quote(written)), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(the expected bytes)"), std::string::npos) << r.out;
}

TEST(Reproduce, NoFailureNoCommands) {
    ConformRun r = conform({"--no-derived", "--decoder", adapter + " decode"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.find("To reproduce"), std::string::npos);
}

TEST(Reports, JsonJunitHtmlAndMerge) {
    std::string junit = work_dir() + "/r.xml", html = work_dir() + "/r.html", merged = work_dir() + "/merged.html";
    ConformRun ref = conform({"--no-derived", "--name", "reference", "--junit", junit, "--html", html});
    ASSERT_EQ(ref.code, 0);
    EXPECT_EQ(ref.results["name"], "reference");
    EXPECT_EQ(ref.results["cases"].size(), static_cast<std::size_t>(testing::fixture_case_count));
    std::string x = read_file(junit);
    EXPECT_NE(x.find("<testsuites name=\"ond conform\" tests=\"13\" failures=\"0\""), std::string::npos) << x;
    EXPECT_NE(x.find("name=\"invalid/crc/mismatch\""), std::string::npos);
    std::string h = read_file(html);
    EXPECT_NE(h.find("<style>"), std::string::npos);
    expect_self_contained(h);
    EXPECT_NE(h.find("invalid/tokens/nan-confidence"), std::string::npos);
    EXPECT_NE(h.find("<h2 id=\"failures\">Failures: 0 cases, by the rule broken</h2>\n<p>No case fails.</p>"), std::string::npos);

    std::string ref_json = work_dir() + "/ref.json", bad_json = work_dir() + "/bad.json";
    std::ostringstream o1, e1;
    ASSERT_EQ(conform_run({"--corpus", fixture(), "--no-derived", "--name", "reference", "--json", ref_json, "-q"}, o1, e1), 0);
    std::ostringstream o2, e2;
    EXPECT_EQ(conform_run({"--corpus", fixture(), "--no-derived", "--name", "nan-accepting", "--decoder",
                           with_fault("nan-conf", "decode"), "--json", bad_json, "--junit", junit, "-q"},
                          o2, e2),
              1);
    x = read_file(junit);
    EXPECT_NE(x.find("<failure message=\"[verdict] expected reject (tokens.confidence-out-of-range), got accept (R3 at " +
                     fault_byte("invalid_tokens_nan-confidence.ondc") + ")\""),
              std::string::npos)
        << x;

    std::ostringstream o3, e3;
    ASSERT_EQ(conform_run({"--html-merge", merged, ref_json, bad_json}, o3, e3), 0) << e3.str();
    h = read_file(merged);
    EXPECT_NE(h.find("<th>reference</th><th>nan-accepting</th>"), std::string::npos);
    // The NaN case: passes in the reference's column, fails in the other.
    auto row = h.find("<td class=\"id\">invalid/tokens/nan-confidence</td>");
    ASSERT_NE(row, std::string::npos);
    auto row_end = h.find("</tr>", row);
    std::string tr = h.substr(row, row_end - row);
    auto pass_at = tr.find("class=\"c pass\"");
    auto fail_at = tr.find("class=\"c fail\"");
    EXPECT_NE(pass_at, std::string::npos) << tr;
    EXPECT_NE(fail_at, std::string::npos) << tr;
    EXPECT_LT(pass_at, fail_at);
    EXPECT_NE(h.find("FAILED: 8 passed, 1 failed, 0 expected failures, 4 skipped, 0 informational, 0 not run"), std::string::npos);

    std::ostringstream o4, e4;
    EXPECT_EQ(conform_run({"--html-merge", merged}, o4, e4), 2);
}

// Every report is written from the run's CaseResults: the page --html-merge makes of a run's
// JSON is the page the run itself wrote, byte for byte (derived cases and a failure included).
// A result file whose case names a status ond conform does not have is refused, not guessed at.
TEST(Reports, TheMergedPageOfARunIsTheRunsOwnPage) {
    const std::string json = work_dir() + "/own.json", html = work_dir() + "/own.html", merged = work_dir() + "/own-merged.html";
    std::ostringstream o1, e1;
    ASSERT_EQ(conform_run({"--corpus", fixture(), "--max-derived", "20", "--name", "nan-accepting", "--decoder",
                           with_fault("nan-conf", "decode"), "--json", json, "--html", html, "-q"},
                          o1, e1),
              1)
        << e1.str();
    std::ostringstream o2, e2;
    ASSERT_EQ(conform_run({"--html-merge", merged, json}, o2, e2), 0) << e2.str();
    const std::string own = read_file(html);
    EXPECT_NE(own.find("Failures: 1 case, by the rule broken"), std::string::npos);
    const std::string results = read_file(json);
    std::size_t derived = 0;  // the run has derived cases, whose origin the page reads back
    for (std::size_t at = 0; (at = results.find("\"origin\": \"", at)) != std::string::npos; ++at)
        derived += results.compare(at + 11, 7, "corpus\"") != 0;
    EXPECT_GT(derived, 0u);
    EXPECT_EQ(read_file(merged), own);

    std::string text = read_file(json);
    const std::string failed = "\"status\": \"fail\"";
    const auto at = text.find(failed);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, failed.size(), "\"status\": \"odd\"");
    const std::string odd = work_dir() + "/odd.json";
    write_file(odd, text);
    std::ostringstream o3, e3;
    EXPECT_EQ(conform_run({"--html-merge", merged, odd}, o3, e3), 2);
    EXPECT_NE(e3.str().find("has status 'odd', not one of ond conform's"), std::string::npos) << e3.str();
}

std::string find_chromium() {
    std::string chromium;
    for (const char* name : {"chromium", "chromium-browser"})
        if (chromium.empty()) chromium = resolve_executable(name);
    return chromium;
}

ProcessResult run_chromium(const std::string& chromium, std::vector<std::string> args) {
    std::vector<std::string> argv = {chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,900",
                                     "--user-data-dir=" + work_dir() + "/chromium-profile"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, "", std::chrono::seconds(120));
}

// What the probe script (below) measured: `key value...` lines.
std::map<std::string, std::string> probe_lines(const std::string& dom) {
    std::map<std::string, std::string> m;
    auto b = dom.find("<pre id=\"probe\">"), e = dom.find("</pre>", b);
    if (b == std::string::npos || e == std::string::npos) return m;
    std::istringstream in(dom.substr(b + 16, e - b - 16));
    std::string line;
    while (std::getline(in, line)) {
        auto sp = line.find(' ');
        m[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1);
    }
    return m;
}

struct Box {
    int top = 0, bottom = 0, width = 0;
    std::string visibility, display, untitled;
};

Box parse_box(const std::string& s) {
    Box b;
    std::istringstream in(s);
    in >> b.top >> b.bottom >> b.width >> b.visibility >> b.display >> b.untitled;
    return b;
}

// The page of a failing run, rendered: a screenshot, then the DOM after a probe script has
// measured the failing case's finding (on screen, unhovered) and worked the filters.
TEST(Reports, HtmlRendersInHeadlessChromium) {
    std::string chromium = find_chromium();
    if (chromium.empty()) GTEST_SKIP() << "chromium is not installed";
    std::string html = work_dir() + "/render.html", png = work_dir() + "/render.png";
    ConformRun r = conform({"--decoder", with_fault("nan-conf", "decode"), "--seed", "3", "--max-derived", "30", "--html", html});
    ASSERT_EQ(r.code, 1);
    ASSERT_TRUE(fs::exists(html));
    std::string page = read_file(html);
    expect_self_contained(page);
    fs::remove(png);
    auto res = run_chromium(chromium, {"--screenshot=" + png, "file://" + html});
    ASSERT_TRUE(res.exited) << res.err;
    ASSERT_TRUE(fs::exists(png)) << res.err;
    std::string data = read_file(png);
    ASSERT_GT(data.size(), 1000u);
    EXPECT_EQ(data.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));

    const int total = static_cast<int>(r.results["cases"].size());
    int failing = 0, passing = 0;
    for (const auto& c : r.results["cases"]) failing += c["status"] == "fail", passing += c["status"] == "pass";
    ASSERT_EQ(failing, 1);
    std::string probe = R"(<pre id="probe"></pre><script>
(function () {
  var out = [], id = 'invalid/tokens/nan-confidence';
  var card = document.getElementById('card-' + id), row = document.getElementById('row-' + id);
  var msg = card.querySelector('.fnd.req .msg'), cell = row.querySelector('.fnd.req .msg');
  function box(e) {
    var r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return [Math.round(r.top), Math.round(r.bottom), Math.round(r.width), s.visibility, s.display, e.closest('[title]') === null].join(' ');
  }
  out.push('viewport ' + innerHeight);
  out.push('card ' + box(msg));
  out.push('cardtext ' + msg.textContent);
  out.push('row ' + box(cell));
  out.push('rowtext ' + cell.textContent);
  out.push('path ' + (card.querySelector('code.path') ? card.querySelector('code.path').textContent : ''));
  out.push('files ' + Array.prototype.map.call(card.querySelectorAll('dd.files a'), function (a) { return a.textContent; }).join(','));
  out.push('group ' + card.closest('section.group').dataset.rule + ' ' + card.querySelector('.fnd.req').dataset.rule + ' ' +
           card.querySelector('.fnd.req code.path').textContent);
  var status = document.getElementById('f-status'), area = document.getElementById('f-area');
  function pick(e, v) { e.value = v; e.dispatchEvent(new Event('change')); }
  pick(status, 'fail');
  out.push('fail ' + document.getElementById('f-count').textContent + '|' + card.hidden + ' ' + row.hidden + ' ' + box(msg));
  pick(status, 'pass');
  out.push('pass ' + document.getElementById('f-count').textContent + '|' + card.hidden + ' ' + row.hidden);
  pick(status, '');
  pick(area, 'crc');
  out.push('crc ' + document.getElementById('f-count').textContent + '|' + card.hidden + ' ' + row.hidden);
  document.getElementById('probe').textContent = out.join('\n');
})();
</script>
</body>)";
    std::string probed = work_dir() + "/probe.html";
    write_file(probed, std::regex_replace(page, std::regex("</body>"), probe));
    res = run_chromium(chromium, {"--dump-dom", "file://" + probed});
    ASSERT_TRUE(res.exited) << res.err;
    auto m = probe_lines(res.out);
    ASSERT_TRUE(m.count("card")) << res.out.substr(0, 2000);
    int viewport = std::stoi(m["viewport"]);
    // The failure's finding: laid out, visible, no tooltip needed, and on the first screen.
    Box card = parse_box(m["card"]);
    EXPECT_GT(card.top, 0) << m["card"];
    EXPECT_LT(card.bottom, viewport) << m["card"];
    EXPECT_GT(card.bottom - card.top, 5) << m["card"];
    EXPECT_GT(card.width, 100) << m["card"];
    EXPECT_EQ(card.visibility, "visible");
    EXPECT_EQ(card.display, "block");
    EXPECT_EQ(card.untitled, "true");
    EXPECT_EQ(m["cardtext"], "expected reject (tokens.confidence-out-of-range), got accept");
    // In the table of all cases too, in the case's row (further down the page).
    Box row = parse_box(m["row"]);
    EXPECT_GT(row.top, card.bottom) << m["row"];
    EXPECT_GT(row.bottom - row.top, 5) << m["row"];
    EXPECT_GT(row.width, 100) << m["row"];
    EXPECT_EQ(row.visibility, "visible");
    EXPECT_EQ(row.display, "block");
    EXPECT_EQ(row.untitled, "true");
    EXPECT_EQ(m["rowtext"], m["cardtext"]);
    EXPECT_EQ(m["files"], "input,listing");
    // Under the rule the finding breaks, which the finding names with the byte of the fault.
    EXPECT_EQ(m["group"], "R3 R3 " + fault_byte("invalid_tokens_nan-confidence.ondc"));
    // Filters: status fail leaves the one failing case; pass hides it; area crc hides it too.
    const std::string fail = m["fail"];
    EXPECT_EQ(fail.substr(0, fail.find('|')), "1 of " + std::to_string(total) + " cases shown");
    EXPECT_EQ(fail.substr(fail.find('|') + 1, 12), "false false ") << fail;
    EXPECT_EQ(parse_box(fail.substr(fail.find('|') + 13)).visibility, "visible") << fail;
    EXPECT_EQ(m["pass"], std::to_string(passing) + " of " + std::to_string(total) + " cases shown|true true");
    int crc = 0;
    for (const auto& c : r.results["cases"]) crc += c["area"] == "crc";
    EXPECT_EQ(m["crc"], std::to_string(crc) + " of " + std::to_string(total) + " cases shown|true true");
}

// The page's content, without a browser: failures grouped by rule, findings in the page's text
// (not in attributes), the field path of a content finding, the case's files and rule links.
TEST(Reports, HtmlShowsEachFindingInFull) {
    std::string html = work_dir() + "/lossy.html";
    ConformRun r = conform({"--decoder", with_fault("lossy-floats", "decode"), "--no-derived", "--html", html});
    ASSERT_EQ(r.code, 1);
    std::string h = read_file(html);
    expect_self_contained(h);
    EXPECT_EQ(h.find(" title=\"required"), std::string::npos);
    const auto& basic = r.result("valid/document/basic");
    std::string msg = basic["findings"][0]["message"];
    ASSERT_EQ(msg.substr(0, msg.find(':')), "doc.tokens[0].conf") << msg;
    // The card of valid/document/basic under its first rule, R3, with its doc link.
    // Under the heading, one link per rule group with its count of failing cases.
    std::smatch toc;
    ASSERT_TRUE(std::regex_search(h, toc, std::regex("<p class=\"toc\">By rule:( <a href=\"#group-[^\"]+\">[^<]+</a>&nbsp;\\d+)+</p>")));
    EXPECT_NE(toc.str().find(" <a href=\"#group-R3\">R3</a>&nbsp;"), std::string::npos) << toc.str();
    auto group = h.find("<section class=\"group\" id=\"group-R3\" data-rule=\"R3\"><h3><a class=\"rule\" href=\"file://");
    ASSERT_NE(group, std::string::npos);
    auto r3 = h.find("docs/rulings.md#r3\">R3</a> confidences (", group);
    ASSERT_NE(r3, std::string::npos);
    auto card = h.find("<div class=\"card\" id=\"card-valid/document/basic\"", r3);
    ASSERT_NE(card, std::string::npos);
    std::string c = h.substr(card, h.find("</dl></div>", card) - card);
    EXPECT_NE(c.find("<dt>description</dt><dd>fixture case valid/document/basic</dd>"), std::string::npos) << c;
    EXPECT_NE(c.find("<dt>expected</dt><dd>accept, with the expected content</dd>"), std::string::npos) << c;
    EXPECT_NE(c.find("<dd><span class=\"fail\">&nbsp;fail&nbsp;</span> accept</dd>"), std::string::npos) << c;
    EXPECT_NE(c.find("<b>required [content]</b> breaks <a class=\"rule\" href=\"file://" +
                     (fs::absolute(fixture()).parent_path() / "docs/rulings.md").lexically_normal().string() +
                     "#r3\">R3</a> at <code class=\"path\">doc.tokens[0].conf</code><div class=\"msg\">" +
                     [&] {
                         std::string e;
                         for (char ch : msg) e += ch == '"' ? std::string("&quot;") : std::string(1, ch);
                         return e;
                     }() + "</div>"),
              std::string::npos)
        << c;
    std::string corpus = fs::absolute(fixture()).lexically_normal().string();
    EXPECT_NE(c.find("<a href=\"file://" + corpus + "/cases/valid_document_basic.ondc\">input</a> <a href=\"file://" + corpus +
                     "/cases/valid_document_basic.json\">expected</a> <a href=\"file://" + corpus +
                     "/cases/valid_document_basic.txt\">listing</a>"),
              std::string::npos)
        << c;
    // Failures come before the table of all cases.
    EXPECT_LT(card, h.find("<h2>All cases by area</h2>"));
    // The filter boxes list the areas, verdicts and statuses present.
    EXPECT_NE(h.find("<select id=\"f-status\"><option value=\"\">all</option><option>fail</option><option>pass</option><option>skip</option>"
                     "</select>"),
              std::string::npos);
}

}  // namespace
}  // namespace ond::conformance
