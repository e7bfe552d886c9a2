#include "suite/writer_check.hpp"

#include "suite/reference.hpp"
#include "ond/internal/check_switch.hpp"
#include "ond/text_escape.hpp"
#include "ond/content_json.hpp"
#include "suite/writer_rules.hpp"
#include "ond/writer_rules.hpp"

namespace ond::conformance {

namespace {

// The rules.json id of a writer rule's finding (writer_rules.def), e.g. "W3".
std::string rule_id(const std::string& writer_rule) {
    const WriterRuleInfo* info = find_writer_rule(writer_rule);
    return info ? std::string(info->rule) : std::string();
}

std::string rule_of_code(std::string_view code) {
    const ErrorInfo* e = code.empty() ? nullptr : find_error(code);
    return e ? std::string(e->rule) : std::string();
}

std::string byte_field(std::uint64_t offset) { return offset == no_offset ? std::string("(top level)") : "byte " + std::to_string(offset); }

// A difference between the content a writer was given and what its bytes read back to.
void add_content_difference(const std::string& prefix, const std::string& difference, const std::string& where, CaseResult& r) {
    const std::string path = difference_path(difference);
    r.findings.push_back({Level::required, Check::content, capped(prefix + difference + where, false, message_limit),
                          content_rule(path), path.empty() ? "(top level)" : path});
}

}  // namespace

void add_writer_findings(std::string_view canonical, std::string_view got, Check check, CaseResult& r) {
    if (got == canonical) {
        ++r.recommended_pass;
        return;
    }
    const WriterJudgement j = judge_writer(canonical, got);
    std::string where, field;
    if (j.first_difference) {
        where = "; first difference at byte " + std::to_string(*j.first_difference);
        if (!j.first_difference_field.empty()) where += " (" + j.first_difference_field + ")";
        where += ", got " + std::to_string(got.size()) + " bytes, canonical " + std::to_string(canonical.size());
        field = j.first_difference_field.empty() ? byte_field(*j.first_difference) : escape_text(j.first_difference_field, false);
    }
    // Bytes that decode to other content fail whatever the rule.
    const RefAnswer want = reference_decode(canonical), have = reference_decode(got);
    if (have.too_large)
        r.findings.push_back({Level::required, Check::content,
                              "the bytes written decode to other content: " + have.message + " (the canonical content's is " +
                                  std::to_string(want.out.size()) + ")" + where,
                              r.rules.empty() ? std::string() : r.rules.front(), "(top level)"});
    if (have.accept) {
        std::optional<std::string> d;
        try {
            d = json::compare_content(want.out, have.out);
        } catch (const json::JsonError& e) {
            d = e.what();
        }
        if (d) add_content_difference("the bytes written decode to other content: ", *d, where, r);
    }
    for (const WriterFinding& f : j.findings) {
        const std::string message =
            writer_rule_tag(f.rule) + ": " + f.message + where + "; compare `ond inspect` of the canonical bytes and of these";
        // Bytes that do not decode break the rule of their first fault, at its byte.
        const bool undecodable = f.rule == "decode";
        std::string rule = undecodable ? rule_of_code(have.code) : rule_id(f.rule);
        r.findings.push_back({f.required ? Level::required : Level::recommended, check, escape_text(message, false), std::move(rule),
                              undecodable ? byte_field(have.offset) : field.empty() ? "(top level)" : field});
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
                              escape_text("the bytes written do not read back" + how + ": " + have.message, false), rule_of_code(have.code),
                              byte_field(have.offset)});
        return;
    }
    std::optional<std::string> d;
    try {
        d = json::compare_content(c.input, have.out);
    } catch (const json::JsonError& e) {
        d = e.what();
    }
    if (d) {
        add_content_difference("the bytes written read back" + how + " to other content: ", *d, "", r);
        return;
    }
    if (c.if_accepted) add_writer_findings(*c.if_accepted, got, Check::canonical_writer, r);
}

std::optional<std::string> canonical_bytes(const Case& c) {
    if (c.verdict == CaseVerdict::valid) return c.input;
    if (!c.expected) return std::nullopt;
    RefAnswer ref = reference_encode(*c.expected);
    if (!ref.accept) return std::nullopt;  // content the reference cannot write has no canonical bytes
    return std::move(ref.out);
}

void check_round_trip(const Case& c, const TesteeResult& decoded, Testee& testee, unsigned worker, std::size_t case_index,
                      CaseResult& r, std::string& written) {
    if (c.kind != CaseKind::decode || c.origin != Origin::corpus || decoded.status != Answer::accept) return;
    if (c.verdict != CaseVerdict::valid && c.verdict != CaseVerdict::noncanonical) return;
    if (r.required_failed() || !testee.supports(Op::encode) || !c.expected) return;
    const std::optional<std::string> canonical_or_none = canonical_bytes(c);
    if (!canonical_or_none) return;
    const std::string& canonical = *canonical_or_none;
    RunContext ctx;
    ctx.case_index = case_index;
    const TesteeResult e = testee.run(Op::encode, decoded.out, worker, ctx);
    if (e.status == Answer::accept)
        add_writer_findings(canonical, e.out, Check::round_trip, r);
    else if (e.status != Answer::unsupported) {
        // A refusal breaks the rule its error code names; a broken answer, the protocol.
        std::string rule = e.status == Answer::reject ? rule_of_code(e.code) : std::string("protocol");
        if (rule.empty()) rule = c.rules.empty() ? std::string() : c.rules.front();
        r.findings.push_back({Level::required, Check::round_trip,
                              std::string("the encoder did not write the decoder's content back: ") + answer_name(e.status) +
                                  (e.code.empty() ? "" : " (error: " + capped(e.code, false) + ")"),
                              std::move(rule), "(top level)"});
    }
    if (r.required_failed()) {
        r.status = Status::fail;
        if (e.status == Answer::accept) written = e.out;
    }
}

}  // namespace ond::conformance
