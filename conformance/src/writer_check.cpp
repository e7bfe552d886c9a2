#include "writer_check.hpp"

#include "check_switch.hpp"
#include "escape.hpp"
#include "ond/content_json.hpp"
#include "writer_rules.hpp"

namespace ond::conformance {

void add_writer_findings(std::string_view canonical, std::string_view got, Check check, CaseResult& r) {
    if (got == canonical) {
        ++r.recommended_pass;
        return;
    }
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
        if (d)
            r.findings.push_back({Level::required, Check::content,
                                  capped("the bytes written decode to other content: " + *d + where, false, message_limit)});
    }
    for (const WriterFinding& f : j.findings) {
        const std::string message = "writer rule " + f.rule + " (" + (f.required ? "required" : "recommended") + "): " +
                                    f.message + where + "; compare `ond inspect` of the canonical bytes and of these";
        r.findings.push_back({f.required ? Level::required : Level::recommended, check, escape_text(message, false)});
        if (!f.required) ++r.recommended_fail;
    }
}

void add_impl_writer_findings(const Case& c, std::string_view got, CaseResult& r) {
    std::vector<Errc> relaxed;
    if (const ErrorInfo* refusal = find_error(c.error))
        if (auto check = detail::reader_check_of(refusal->errc)) relaxed.push_back(*check);
    detail::RelaxedChecks relax(relaxed);
    const std::string how = relaxed.empty() ? std::string() : " with " + std::string(error_info(relaxed[0]).code) + " relaxed";
    const RefAnswer have = reference_decode(got);
    if (!have.accept) {
        r.findings.push_back({Level::required, Check::content,
                              escape_text("the bytes written do not read back" + how + ": " + have.message, false)});
        return;
    }
    std::optional<std::string> d;
    try {
        d = json::compare_content(c.input, have.out);
    } catch (const json::JsonError& e) {
        d = e.what();
    }
    if (d) {
        r.findings.push_back({Level::required, Check::content,
                              escape_text("the bytes written read back" + how + " to other content: " + *d, false)});
        return;
    }
    if (c.if_accepted) add_writer_findings(*c.if_accepted, got, Check::canonical_writer, r);
}

void check_round_trip(const Case& c, const TesteeResult& decoded, Testee& testee, unsigned worker, std::size_t case_index,
                      CaseResult& r) {
    if (c.kind != CaseKind::decode || c.origin != Origin::corpus || decoded.status != Answer::accept) return;
    if (c.verdict != CaseVerdict::valid && c.verdict != CaseVerdict::noncanonical) return;
    if (r.required_failed() || !testee.supports(Op::encode) || !c.expected) return;
    // The canonical bytes: a valid case's input; else the reference's encoding of the expected content.
    std::string canonical = c.input;
    if (c.verdict != CaseVerdict::valid) {
        const RefAnswer ref = reference_encode(*c.expected);
        if (!ref.accept) return;  // content the reference cannot write has no canonical bytes
        canonical = ref.out;
    }
    RunContext ctx;
    ctx.case_index = case_index;
    const TesteeResult e = testee.run(Op::encode, decoded.out, worker, ctx);
    if (e.status == Answer::accept)
        add_writer_findings(canonical, e.out, Check::round_trip, r);
    else if (e.status != Answer::unsupported)
        r.findings.push_back({Level::required, Check::round_trip,
                              std::string("the encoder did not write the decoder's content back: ") + answer_name(e.status) +
                                  (e.code.empty() ? "" : " (error: " + capped(e.code, false) + ")")});
    if (r.required_failed()) r.status = Status::fail;
}

}  // namespace ond::conformance
