#include "suite/settle.hpp"

#include <filesystem>
#include <map>
#include <vector>

#include "suite/writer_check.hpp"
#include "transport/proctree.hpp"

namespace ond::conformance {

namespace {

// After execute() (and the fuzzing phase, which uses the same testee): ends the testee, takes
// the verdicts that came late and marks the cases no worker took.
void settle_late(const Plan& p, Testee& testee, const ClassifyOptions& copt, RunReport& rep) {
    const auto& selected = p.selected;
    // Verdicts that came late: a persistent testee's bytes after a response void that answer.
    for (auto& a : testee.finish())
        if (a.case_index < selected.size()) rep.results[a.case_index] = classify(*selected[a.case_index], a.outcome, copt);
    // Cases no worker took: the run stopped first.
    for (std::size_t i = 0; i < selected.size(); ++i) {
        if (!rep.results[i].id.empty()) continue;
        TesteeResult o;
        o.status = Answer::not_run;
        rep.results[i] = classify(*selected[i], o, copt);
        rep.stopped_early = true;
    }
}

// Whether the testee supports an operation is fixed by its first answer to it (the first case of
// that operation in run order it answered at all). A later answer that disagrees - 'unsupported'
// (status 2) for an operation it answered, or an answer for one it called unsupported - fails
// that case [protocol]. Then the operations of which no case was checked are reported; decode
// among them fails the run.
void settle_support(const Plan& p, const Testee& testee, const std::vector<char>& asked, const ClassifyOptions& copt, RunReport& rep) {
    auto answered = [](Answer a) { return a == Answer::accept || a == Answer::reject || a == Answer::unsupported; };
    for (Op op : {Op::decode, Op::encode, Op::stream}) {
        std::size_t first = p.selected.size();
        for (std::size_t i = 0; i < p.selected.size() && first == p.selected.size(); ++i)
            if (asked[i] && op_of(p.selected[i]->kind) == op && answered(rep.results[i].answer)) first = i;
        std::size_t selected = 0, checked = 0;
        for (std::size_t i = 0; i < p.selected.size(); ++i) {
            if (op_of(p.selected[i]->kind) != op) continue;
            ++selected;
            CaseResult& r = rep.results[i];
            if (asked[i] && first < p.selected.size() && answered(r.answer) &&
                (r.answer == Answer::unsupported) != (rep.results[first].answer == Answer::unsupported)) {
                TesteeResult o;
                o.status = Answer::protocol;
                o.detail = r.answer == Answer::unsupported
                               ? std::string("answered 'unsupported' (status 2) to a ") + op_word(op) + " request, an operation it answered on " +
                                     rep.results[first].id + ": an operation is supported for every case or for none"
                               : std::string("answered a ") + op_word(op) + " request, an operation it called unsupported (status 2) on " +
                                     rep.results[first].id + ": an operation is supported for every case or for none";
                r = classify(*p.selected[i], o, copt);
            }
            if (r.status != Status::skip && r.status != Status::not_run) ++checked;
        }
        if (selected == 0 || checked > 0) continue;
        std::string why;
        if (!testee.supports(op))
            why = op == Op::decode ? "no --decoder" : op == Op::encode ? "no --encoder" : "no --stream-decoder";
        else if (first < p.selected.size() && rep.results[first].answer == Answer::unsupported)
            why = "the testee answered 'unsupported' (status 2) to every " + std::string(op_word(op)) + " request";
        else
            why = "every case was skipped or not run";
        rep.not_tested[op_word(op)] = why;
        if (op == Op::decode) rep.summary.decode_unchecked = true;
    }
}

// The listed cases (resolve_expected_failures mapped former ids to current ones): a failure is
// expected, a pass is stale.
void apply_expected_failures(const std::map<std::string, std::string>& expected, RunReport& rep) {
    for (auto& r : rep.results) {
        auto it = expected.find(r.id);
        if (it == expected.end()) continue;
        r.xfail_reason = it->second;
        if (r.status == Status::fail) r.status = Status::xfail;
        else if (r.status == Status::pass || r.status == Status::info) {
            r.status = Status::stale;
            rep.stale.push_back(r.id);
        }
    }
}

void count(const SettleInput& in, RunReport& rep) {
    auto& s = rep.summary;
    for (const auto& r : rep.results) {
        switch (r.status) {
            case Status::pass: s.passed++; break;
            case Status::stale: s.passed++, s.stale++; break;
            case Status::fail: s.failed++; break;
            case Status::xfail: s.xfailed++; break;
            case Status::skip: s.skipped++; break;
            case Status::info: s.info++; break;
            case Status::not_run: s.not_run++; break;
        }
        s.recommended_fail += r.recommended_fail;
        s.recommended_pass += r.recommended_pass;
    }
    for (const auto& rule : rep.rules)
        if (!rep.rule_cases.count(rule.id)) s.uncovered_rules++;
    s.corpus_problems = static_cast<int>(rep.corpus_problems.size());
    s.unknown_expected = static_cast<int>(rep.expected_failures.unknown.size());
    s.ok = s.failed == 0 && s.not_run == 0 && s.corpus_problems == 0 && !s.decode_unchecked &&
           (s.unknown_expected == 0 || in.allow_unknown_expected_failures) &&
           !(in.require_rule_coverage && s.uncovered_rules > 0);
}

// In cases/ of saved_cases_dir (the CLI gives the folder of the reports): for every
// failing case whose bytes are in no file - derived and fuzz inputs, a large case's recipe (its
// bytes are hundreds of MB), what an encoder wrote - a file to reproduce it by hand.
void save_failure_files(const SettleInput& in, const Plan& p, const std::map<std::size_t, std::string>& written, RunReport& rep) {
    namespace fs = std::filesystem;
    if (in.saved_cases_dir.empty()) return;
    const fs::path dir = fs::path(in.saved_cases_dir) / "cases";
    auto file_of = [&](const std::string& id, const std::string& ext) {
        std::string name = id;
        for (char& ch : name)
            if (ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) ch = '_';
        return (dir / (name + ext)).string();
    };
    for (std::size_t i = 0; i < p.selected.size(); ++i) {
        CaseResult& r = rep.results[i];
        if (r.status != Status::fail && r.status != Status::xfail) continue;
        const Case& c = *p.selected[i];
        std::vector<std::pair<std::string, std::string>> files;
        if (c.generated) {
            files.emplace_back("recipe", file_of(c.id, ".recipe.txt"));
            fs::create_directories(dir);
            write_file(files.back().second, c.generated->recipe + "\nThe bytes are not saved (" +
                                                std::to_string(c.generated->size) + " bytes): `ond conform --large --filter " +
                                                c.id + "` makes them again.\n");
        } else if (c.origin != Origin::corpus) {
            files.emplace_back("input", file_of(c.id, c.kind == CaseKind::encode ? ".json" : c.kind == CaseKind::stream ? ".onds" : ".ondc"));
            fs::create_directories(dir);
            write_file(files.back().second, c.input);
        }
        if (auto w = written.find(i); w != written.end()) {
            // What the encoder wrote, and the bytes it should have written: the case's expected
            // file (an encode case), its input (a valid decode case's round trip) or, with none in
            // the corpus, the reference's canonical bytes saved beside it.
            files.emplace_back("written", file_of(c.id, ".written.ondc"));
            fs::create_directories(dir);
            write_file(files.back().second, w->second);
            const std::string& in_corpus = c.kind == CaseKind::encode ? c.expected_path
                                           : c.verdict == CaseVerdict::valid ? c.input_path : std::string();
            if (!in_corpus.empty()) {
                files.emplace_back("expected", (fs::absolute(in.corpus_dir) / in_corpus).lexically_normal().string());
            } else if (auto canonical = c.kind == CaseKind::decode ? canonical_bytes(c) : std::nullopt) {
                files.emplace_back("expected", file_of(c.id, ".expected.ondc"));
                write_file(files.back().second, *canonical);
            }
        }
        r.saved = std::move(files);
    }
}

}  // namespace

void settle(const Plan& p, Testee& testee, Executed executed, const FuzzReport& fuzzed, const SettleInput& in, RunReport& rep) {
    rep.results = std::move(executed.results);
    settle_late(p, testee, in.classify, rep);
    sweep_orphans(0, true);
    for (const FuzzFinding& f : fuzzed.findings) rep.results.push_back(classify(f.c, f.answer, in.classify));
    settle_support(p, testee, executed.asked, in.classify, rep);
    apply_expected_failures(rep.expected_failures.reasons, rep);
    save_failure_files(in, p, executed.written, rep);
    count(in, rep);
}

}  // namespace ond::conformance
