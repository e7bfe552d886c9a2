// The reporters of a run, side by side: the text report (stdout), JSON (all results), JUnit XML,
// and a static HTML matrix of cases by testee that merges several JSON result files. Every text
// that came from a testee was escaped by the classifier (escape.hpp), so each format holds it.
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ond::conformance {

struct Finding;
struct RunReport;
struct RunSummary;

// The failures, findings, per-area table, rule coverage and, last, the commands that reproduce
// the first few failures (everything but the final line; report_text.cpp).
void text_report(const RunReport& rep, std::ostream& out);
// "CONFORMANCE PASSED: 8 passed, 0 failed, 0 expected failures, 4 skipped, 1 informational, 0 not run"
std::string final_line(const RunSummary& s);
std::string summary_line(const RunSummary& s);  // the counts of final_line
// "[content] doc.tokens[2].conf: expected 0.5, got 0.25 (R3 at doc.tokens[2].conf)": a finding
// as every text format prints it, message escaped, ending with the rule it breaks and where.
std::string finding_text(const Finding& f);
// Quoted for a POSIX shell when it needs to be: `it's` -> `'it'\''s'`.
std::string shell_quote(const std::string& s);

std::string results_json(const RunReport& rep);
std::string junit_xml(const RunReport& rep);

// One column of the matrix: a testee's results by case id, with what the page needs to show
// each finding in full and link the case's files and rules.
struct MatrixColumn {
    std::string name;
    std::string testee;
    std::string summary;  // summary_line
    std::string seed, profile;
    std::string corpus;   // the corpus directory, absolute: the base of the case files' links
    bool ok = false;
    struct Finding {
        std::string level, check, message;
        std::string rule, field;  // the rule broken and where (classify.hpp's Finding)
    };
    struct Cell {
        std::string status;   // pass fail xfail stale skip info not-run
        std::string answer;   // accept reject crash timeout ...
        std::string error;    // the testee's error code, "" if none
        std::vector<Finding> findings;
        bool recommended = false;  // a recommended-level finding
    };
    struct Row {
        std::string area, kind, verdict, description, expected_error, source;
        std::vector<std::string> rules;
        std::vector<std::pair<std::string, std::string>> files;  // (label, path relative to the corpus)
        bool derived = false;
    };
    struct RuleInfo {
        std::string title, doc;  // doc: relative to the corpus's parent, as in rules.json
    };
    std::map<std::string, Cell> cells;
    std::map<std::string, Row> rows;
    std::map<std::string, RuleInfo> rules;
};

MatrixColumn column_from_report(const RunReport& rep);
// Reads a file written by --json; throws std::runtime_error.
MatrixColumn column_from_json_file(const std::string& path);
// The self-contained results page (report_html.cpp): failures first, grouped by the rule broken, each
// finding in full; then every case by area; filters by area, verdict and status.
std::string html_matrix(const std::vector<MatrixColumn>& columns);

}  // namespace ond::conformance
