// Hostile testee text on its way into findings and reports: bounded in size at the point a finding
// is made, valid XML in the JUnit file, no regular expression (and so no recursion) over it in the
// HTML page, and no link a result file chooses.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "suite/classify.hpp"
#include "ond/text_escape.hpp"
#include "report/report.hpp"
#include "suite/run_report.hpp"
#include "test_fixture.hpp"
#include "ond/content_json.hpp"

namespace ond::conformance {
namespace escape_tests {

// Every character of `s` is one XML 1.0 allows: well-formed UTF-8, no C0 control but tab, newline
// and carriage return, no U+FFFE or U+FFFF. Returns the offset of the first that is not, or npos.
std::size_t first_non_xml(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return i;
        std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
        for (std::size_t k = 1; k < n; ++k) {
            auto b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (b & 0x3F);
        }
        const std::uint32_t min = n == 2 ? 0x80 : n == 3 ? 0x800 : n == 4 ? 0x10000 : 0;
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) return i;
        if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') return i;
        i += n;
    }
    return std::string::npos;
}

// What a hostile testee puts in an error code or a message: the two XML-forbidden noncharacters,
// C0 controls, an encoded surrogate, stray and truncated bytes.
const std::string hostile_text = std::string("code.\xEF\xBF\xBE.\xEF\xBF\xBF.") + '\x01' + '\x0B' + '\x1F' + '\0' +
                                 "\xED\xA0\x80.\xFF\xC3.\xE2\x80";

TEST(Escape, XmlEscapeLeavesOnlyXmlCharacters) {
    const std::string x = xml_escape(hostile_text);
    EXPECT_EQ(first_non_xml(x), std::string::npos) << x;
    EXPECT_EQ(x, "code.\\u{FFFE}.\\u{FFFF}.\\u{0001}\\u{000B}\\u{001F}\\u{0000}\\xED\\xA0\\x80.\\xFF\\xC3.\\xE2\\x80");
    EXPECT_EQ(xml_escape("a<b>&\"'\t\n\r \xE2\x82\xAC"), "a&lt;b&gt;&amp;&quot;&#39;\t\n\r \xE2\x82\xAC");
    // The reports' escaping of testee text shows the noncharacters too (U+1FFFE: one of every plane).
    EXPECT_EQ(safe("\xEF\xBF\xBE\xF0\x9F\xBF\xBE\xEF\xB7\x90"), "\\u{FFFE}\\u{1FFFE}\\u{FDD0}");
}

CaseResult failing_result(const std::string& id, const std::string& text) {
    CaseResult r;
    r.id = id;
    r.area = "invalid";
    r.status = Status::fail;
    r.answer = Answer::reject;
    r.error_code = text;
    r.findings.push_back({Level::required, Check::verdict, "expected accept, got reject (error: " + text + ")", "R6", "(top level)"});
    r.findings.push_back({Level::recommended, Check::unknown_code, "error code '" + text + "' is not in the error table", "protocol", ""});
    return r;
}

TEST(Escape, JunitIsValidXmlWhateverTheTesteeWrote) {
    RunReport rep;
    rep.testee = "adapter " + hostile_text;
    rep.results.push_back(failing_result("invalid/" + hostile_text, hostile_text));
    CaseResult passed = failing_result("valid/x", hostile_text);
    passed.status = Status::pass;  // findings go to <system-out>
    rep.results.push_back(passed);
    const std::string x = junit_xml(rep);
    EXPECT_EQ(first_non_xml(x), std::string::npos) << x;
    EXPECT_NE(x.find("\\u{FFFE}"), std::string::npos);
}

TEST(Escape, CappedCutsAtACharacterAndSaysHowLong) {
    EXPECT_EQ(capped("short\x01"), "short\\u{0001}");
    EXPECT_EQ(capped(std::string(500, 'k')), std::string(200, 'k') + "\xE2\x80\xA6 (500 bytes)");
    // A two-byte character across the limit is left out whole, not cut in half.
    std::string s = std::string(199, 'k') + "\xC3\xA9" + std::string(10, 'k');
    EXPECT_EQ(capped(s), std::string(199, 'k') + "\xE2\x80\xA6 (211 bytes)");
    EXPECT_EQ(capped(std::string(3000, 'k'), false, message_limit).size(), 1000u + 3 + std::string(" (3000 bytes)").size());
}

// A case the reference accepts, with its content as the expected answer.
Case accepting_case() {
    Case c;
    c.id = "valid/x";
    c.kind = CaseKind::decode;
    c.expected = json::to_json(testing::basic_container(false));
    return c;
}

TesteeResult answered(Answer a, std::string out, std::string code = {}, std::string detail = {}) {
    TesteeResult o;
    o.status = a;
    o.out = std::move(out);
    o.code = std::move(code);
    o.detail = std::move(detail);
    return o;
}

// Every finding and the error code are short, whatever the testee sent, and say that they were cut.
void expect_bounded(const CaseResult& r, std::size_t limit = message_limit) {
    ASSERT_FALSE(r.findings.empty());
    for (const auto& f : r.findings) {
        EXPECT_LE(f.message.size(), limit + 100) << f.message.substr(0, 300);
        EXPECT_NE(f.message.find("\xE2\x80\xA6 ("), std::string::npos) << f.message.substr(0, 300);
    }
    EXPECT_LE(r.error_code.size(), quote_limit + 40);
}

TEST(Escape, FindingsQuoteAtMostAFewHundredBytesOfTesteeText) {
    const std::string key(480 * 1024, 'k');
    const Case c = accepting_case();
    // A duplicate key of 480 KiB in the decoded content.
    const std::string dup = "{\"" + key + "\":1,\"" + key + "\":2}";
    CaseResult content = classify(c, answered(Answer::accept, dup), {});
    ASSERT_EQ(content.findings.size(), 1u);
    EXPECT_EQ(content.findings[0].check, Check::output);
    expect_bounded(content);
    // An error code of 480 KiB: the verdict finding, the unknown-code finding and the code itself.
    CaseResult code = classify(c, answered(Answer::reject, "", key), {});
    ASSERT_EQ(code.findings.size(), 2u);
    for (const auto& f : code.findings) EXPECT_NE(f.message.find("(" + std::to_string(key.size()) + " bytes)"), std::string::npos);
    EXPECT_LE(code.findings[0].message.size(), quote_limit + 80);
    EXPECT_EQ(code.error_code, capped(key));
    // A crash whose details quote 480 KiB of stderr.
    expect_bounded(classify(c, answered(Answer::crash, "", "", key), {}), detail_limit);
}

TEST(Escape, FieldPathOfAHugeKeyNeitherRecursesNorIsShownWhole) {
    RunReport run;
    run.setup.name = "t";
    CaseResult r;
    r.id = "valid/x", r.area = "valid";
    r.status = Status::fail, r.answer = Answer::accept;
    // A 60,000-letter name ending in a path step is a path; one before ": " without a step is not.
    const std::string letters(60000, 'k');
    // The classifier takes a finding's field from its message (difference_path).
    for (const std::string& message : {letters + ": " + letters + ".x[12]: expected 1, got 2", std::string("doc.tokens[2].conf: expected 1, got 2")})
        r.findings.push_back({Level::required, Check::content, message, "R3", difference_path(message)});
    run.results.push_back(r);
    const std::string h = html_matrix({run});
    EXPECT_NE(h.find("at <code class=\"path\">" + letters + ".x[12]</code>"), std::string::npos);
    EXPECT_NE(h.find("at <code class=\"path\">doc.tokens[2].conf</code>"), std::string::npos);
}

// A merged result file chooses the case files and the rule documents: only relative paths below
// the corpus become links.
TEST(Escape, ResultFileValuesBecomeLinksOnlyWhenRelative) {
    RunReport run;
    run.setup.name = "t";
    CaseResult r;
    r.id = "valid/x", r.area = "valid";
    r.rules = {"R1", "R2"};
    r.input_path = "javascript:alert(1)", r.expected_path = "https://example.com/x", r.listing_path = "/etc/passwd";
    r.if_accepted_path = "cases/../../x";
    r.status = Status::fail, r.answer = Answer::accept;
    r.findings.push_back({Level::required, Check::verdict, "expected reject, got accept", "R1", "byte 0"});
    run.results.push_back(r);
    CaseResult derived;  // a derived case links its source's files
    derived.id = "derived/x", derived.area = "derived", derived.origin = Origin::bitflip, derived.source = "valid/x";
    derived.input_path = "..\\x", derived.listing_path = "cases/valid/a.ondc";
    derived.status = Status::fail, derived.answer = Answer::crash;
    run.results.push_back(derived);
    run.rules = {{"R1", "one", "JaVaScRiPt:alert(2)"}, {"R2", "two", "docs/rulings.md#r2"}};
    for (const std::string corpus : {"", "/srv/corpus"}) {
        run.setup.corpus_dir = corpus;
        const std::string h = html_matrix({run});
        for (const char* bad : {"alert", "example.com", "passwd", "/x\"", "..", "\\x"})
            EXPECT_EQ(h.find(std::string("href=\"") + bad), std::string::npos) << bad;
        for (std::size_t at = h.find("href=\""); at != std::string::npos; at = h.find("href=\"", at + 1)) {
            const std::string target = h.substr(at + 6, h.find('"', at + 6) - at - 6);
            EXPECT_TRUE(target.starts_with("#") || target == "cases/valid/a.ondc" ||
                        target == "file:///srv/corpus/cases/valid/a.ondc" || target == "file:///srv/docs/rulings.md#r2")
                << target;
        }
        EXPECT_NE(h.find(corpus.empty() ? "href=\"cases/valid/a.ondc\">source listing</a>" : "href=\"file:///srv/corpus/cases/valid/a.ondc\">source listing</a>"),
                  std::string::npos);
        for (const char* shown : {"<span title=\"not a relative path: no link\">input</span>", "<span title=\"not a relative path: no link\">source input</span>"})
            EXPECT_NE(h.find(shown), std::string::npos) << shown;
        if (!corpus.empty()) {
            EXPECT_NE(h.find("href=\"file:///srv/docs/rulings.md#r2\""), std::string::npos);
        }
    }
}

}  // namespace escape_tests
}  // namespace ond::conformance
