#include "suite/run_report.hpp"

#include <algorithm>

namespace ond::conformance {

RunReport start_report(const RunSetup& setup, const Corpus& corpus, const Testee& testee) {
    RunReport rep;
    rep.setup = setup;
    rep.corpus_version = corpus.corpus_version;
    rep.format_version = corpus.format_version;
    rep.corpus_cases = corpus.cases.size();
    rep.rules = corpus.rules;
    rep.corpus_problems = corpus.problems;
    for (const auto& c : corpus.cases)
        for (const auto& rule : c.rules) rep.rule_cases[rule]++;
    rep.testee = testee.describe();
    for (CaseKind k : {CaseKind::decode, CaseKind::encode, CaseKind::stream})
        if (testee.supports(op_of(k))) rep.commands[k] = testee.command(op_of(k));
    rep.memory_cap = testee.memory_cap();
    return rep;
}

void record_memory(const Testee& testee, const std::map<Op, std::string>& baseline_inputs, RunReport& rep) {
    rep.memory_accounting = testee.memory_accounting();
    rep.baseline_allowance_kb = testee.baseline_allowance_kb();
    for (const auto& [op, in] : baseline_inputs)
        if (testee.supports(op)) rep.baseline_kb[op_word(op)] = testee.baseline_kb(op);
}

void update_memory(const Testee& testee, RunReport& rep) {
    rep.memory_accounting = testee.memory_accounting();
    for (auto& [op, kb] : rep.baseline_kb) kb = std::max(kb, testee.baseline_kb(op == "decode" ? Op::decode : op == "encode" ? Op::encode : Op::stream));
}

}  // namespace ond::conformance
