// The last stage of a run, called by the CLI on the suite's RunReport: the reporters side by side,
// each written from the RunReport (its CaseResults) and the report's own input: the text report
// (stdout), JSON (all results), JUnit XML, and a static HTML matrix of cases by testee that merges
// several runs (read back from their JSON result files). Every text that came from a testee was
// escaped by the classifier (ond/text_escape.hpp, escape.cpp here), so each format holds it.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ond::conformance {

struct CaseInfo;
struct Finding;
struct Plan;
struct RunReport;
struct RunSummary;

// What the report stage is asked to write, and how its commands start `ond` again.
struct ReportInput {
    bool verbose = false;                 // every recommended and informational finding
    std::vector<std::string> argv;        // the invocation ("conform", its arguments), to print a rerun command
    std::string shell_ond = "ond";        // how the report's commands start ond (shell-quoted)
    std::string shell_env;                // put before the commands that start the testee
    std::string json, junit, html;        // files to write; empty: none
    std::string write_expected_failures;  // the ids of this run's required failures
};

// Before the run (report_run.cpp): every file the report will write can be written, and no two
// options name one file (nor the expected-failures list `expected_failures` read at the start,
// unless --write-expected-failures rewrites it on purpose). Throws std::runtime_error.
void check_report_files(const ReportInput& in, const std::string& expected_failures);
// Where the files that reproduce a failure go: the folder of --json, else --junit, else --html;
// empty when the run writes none of them.
std::string saved_cases_dir(const ReportInput& in);
// The lines printed before the cases run: the corpus, the testee, the seed, what runs, the
// expected-failures list's problems; then, with the baselines known, how memory and output are
// bounded.
void print_run_start(const RunReport& rep, const Plan& p, std::ostream& out);
void print_bounds(const RunReport& rep, bool measures_memory, std::ostream& out);
// Everything after the cases: the text report, the expected-failures file, JSON, JUnit, HTML,
// and the final line.
void report(const RunReport& rep, const ReportInput& in, std::ostream& out);
// The --write-expected-failures file: one required failure a line, with why.
std::string expected_failures_text(const RunReport& rep);

// The failures, findings, per-area table, rule coverage and, last, the commands that reproduce
// the first few failures (everything but the final line; report_text.cpp).
void text_report(const RunReport& rep, const ReportInput& in, std::ostream& out);
// "CONFORMANCE PASSED: 8 passed, 0 failed, 0 expected failures, 4 skipped, 1 informational, 0 not run"
std::string final_line(const RunSummary& s);
std::string summary_line(const RunSummary& s);  // the counts of final_line
// "cgroup v1; baselines decode 3 MiB, encode 4 MiB (over 128 MiB charged to every case)": how the
// run counted memory; empty for an in-process run.
std::string memory_line(const RunReport& rep);
// "[content] doc.tokens[2].conf: expected 0.5, got 0.25 (R3 at doc.tokens[2].conf)": a finding
// as every text format prints it, message escaped, ending with the rule it breaks and where.
std::string finding_text(const Finding& f);
// Quoted for a POSIX shell when it needs to be: `it's` -> `'it'\''s'`.
std::string shell_quote(const std::string& s);

// A case's files under their keys in the JSON results ("input", "expected", "if_accepted",
// "listing"), in the order the reports list them; a path is "" when the case has no such file.
std::vector<std::pair<const char*, const std::string*>> case_files(const CaseInfo& c);

// The run's corpus directory, absolute: the base of its case files' links.
std::string corpus_path(const RunReport& rep);

std::string results_json(const RunReport& rep);
std::string junit_xml(const RunReport& rep);

// Reads back a file written by --json, for --html-merge: the run's name, testee, profile, seed,
// corpus, summary and rules, and every case as the CaseResult it was written from. Text from the
// file is made printable as the classifier makes a testee's (a merged file is anyone's); a case
// whose kind, verdict, status or answer is not one of ours is refused. Throws std::runtime_error.
RunReport read_results_json(const std::string& path);
// The self-contained results page of one or more runs (report_html.cpp), a column per run:
// failures first, grouped by the rule broken, each finding in full; then every case by area;
// filters by area, verdict and status.
std::string html_matrix(const std::vector<RunReport>& runs);

}  // namespace ond::conformance
