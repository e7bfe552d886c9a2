// The reporters of a run, side by side, each written from the RunReport alone (its CaseResults):
// the text report (stdout), JSON (all results), JUnit XML, and a static HTML matrix of cases by
// testee that merges several runs (read back from their JSON result files). Every text
// that came from a testee was escaped by the classifier (escape.hpp), so each format holds it.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ond::conformance {

struct CaseInfo;
struct Finding;
struct RunReport;
struct RunSummary;

// The failures, findings, per-area table, rule coverage and, last, the commands that reproduce
// the first few failures (everything but the final line; report_text.cpp).
void text_report(const RunReport& rep, std::ostream& out);
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
