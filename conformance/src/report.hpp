// Machine-readable and page reports of a run: JSON (all results), JUnit XML, and a static HTML
// matrix of cases by testee that merges several JSON result files.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ond::conformance {

struct RunReport;

std::string results_json(const RunReport& rep);
std::string junit_xml(const RunReport& rep);

// One column of the matrix: a testee's results by case id.
struct MatrixColumn {
    std::string name;
    std::string testee;
    std::string summary;  // e.g. "412 passed, 3 failed, 0 expected failures, 0 skipped"
    bool ok = false;
    struct Cell {
        std::string status;   // pass fail xfail stale skip info
        std::string answer;   // accept reject crash timeout ...
        std::string tooltip;  // findings
        bool recommended = false;  // a recommended-level finding
    };
    struct Row {
        std::string area, kind, verdict, description;
    };
    std::map<std::string, Cell> cells;
    std::map<std::string, Row> rows;
};

MatrixColumn column_from_report(const RunReport& rep);
// Reads a file written by --json; throws std::runtime_error.
MatrixColumn column_from_json_file(const std::string& path);
std::string html_matrix(const std::vector<MatrixColumn>& columns);

}  // namespace ond::conformance
