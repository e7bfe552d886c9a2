#include "writer_check.hpp"

#include <algorithm>

#include "ond/content_json.hpp"
#include "writer_rules.hpp"

namespace ond::conformance {

namespace {

const char* const inspect_hint = "; compare `ond inspect` of the canonical bytes and of the testee's";

}  // namespace

void add_writer_findings(std::string_view canonical, std::string_view got, const char* check, CaseResult& r) {
    const WriterJudgement j = judge_writer(canonical, got);
    std::string where;
    if (j.first_difference) {
        where = "; first difference at byte " + std::to_string(*j.first_difference);
        if (!j.first_difference_field.empty()) where += " (" + j.first_difference_field + ")";
        where += ", got " + std::to_string(got.size()) + " bytes, canonical " + std::to_string(canonical.size());
    }
    // Bytes that decode to other content fail whatever the rule.
    const RefAnswer want = reference_decode(canonical), have = reference_decode(got);
    if (have.accept) {
        std::optional<std::string> d;
        try {
            d = json::compare_content(want.out, have.out);
        } catch (const json::JsonError& e) {
            d = e.what();
        }
        if (d) r.findings.push_back({Level::required, check, "the bytes written decode to other content: " + *d + where});
    }
    for (const WriterFinding& f : j.findings) {
        r.findings.push_back({f.required ? Level::required : Level::recommended, check,
                              "writer rule " + f.rule + " (" + (f.required ? "required" : "recommended") + "): " +
                                  f.message + where + inspect_hint});
        if (!f.required) ++r.recommended_fail;
    }
}

void check_round_trip(const Case& c, const Outcome& decoded, Testee& testee, unsigned worker, CaseResult& r) {
    if (c.kind != Kind::decode || c.origin != "corpus" || decoded.status != Outcome::Status::accept) return;
    if (c.verdict != Verdict::valid && c.verdict != Verdict::noncanonical) return;
    if (r.required_failed() || !testee.supports(Op::encode) || !c.expected) return;
    // The canonical bytes: a valid case's input; else the reference's encoding of the expected content.
    std::string canonical = c.input;
    if (c.verdict != Verdict::valid) {
        const RefAnswer ref = reference_encode(*c.expected);
        if (!ref.accept) return;  // content the reference cannot write has no canonical bytes
        canonical = ref.out;
    }
    const Outcome e = testee.run(Op::encode, decoded.out, worker);
    if (e.status == Outcome::Status::accept) {
        if (e.out == canonical) ++r.recommended_pass;
        else add_writer_findings(canonical, e.out, "round-trip", r);
    } else if (e.status != Outcome::Status::unsupported) {
        r.findings.push_back({Level::required, "round-trip",
                              std::string("the encoder did not write the decoder's content: ") + status_name(e.status) +
                                  (e.code.empty() ? "" : " (error: " + e.code + ")")});
    }
    if (r.required_failed()) r.status = Status::fail;
}

}  // namespace ond::conformance
