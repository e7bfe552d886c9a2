// The reporters of a run, side by side: the text report (stdout), JSON (all results), JUnit XML,
// and a static HTML matrix of cases by testee that merges several JSON result files. Every text
// that came from a testee was escaped by the classifier (escape.hpp), so each format holds it.
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace ond::conformance {

struct RunReport;
struct RunSummary;

// The failures, findings, per-area table and rule coverage (everything but the final line).
void text_report(const RunReport& rep, std::ostream& out);
// "CONFORMANCE PASSED: 8 passed, 0 failed, 0 expected failures, 4 skipped, 1 informational, 0 not run"
std::string final_line(const RunSummary& s);
std::string summary_line(const RunSummary& s);  // the counts of final_line

std::string results_json(const RunReport& rep);
std::string junit_xml(const RunReport& rep);

// One column of the matrix: a testee's results by case id.
struct MatrixColumn {
    std::string name;
    std::string testee;
    std::string summary;  // summary_line
    std::string seed, profile;
    bool ok = false;
    struct Cell {
        std::string status;   // pass fail xfail stale skip info
        std::string answer;   // accept reject crash timeout ...
        std::string tooltip;  // findings
        bool recommended = false;  // a recommended-level finding
    };
    struct Row {
        std::string area, kind, verdict, description;
        bool derived = false;
    };
    std::map<std::string, Cell> cells;
    std::map<std::string, Row> rows;
};

MatrixColumn column_from_report(const RunReport& rep);
// Reads a file written by --json; throws std::runtime_error.
MatrixColumn column_from_json_file(const std::string& path);
std::string html_matrix(const std::vector<MatrixColumn>& columns);

}  // namespace ond::conformance
