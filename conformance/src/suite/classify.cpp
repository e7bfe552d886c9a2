#include "suite/classify.hpp"

#include <algorithm>

#include "suite/reference.hpp"
#include "ond/text_escape.hpp"
#include "suite/writer_check.hpp"
#include "ond/content_json.hpp"
#include "ond/error.hpp"

namespace ond::conformance {

const char* level_name(Level l) noexcept {
    switch (l) {
        case Level::required: return "required";
        case Level::recommended: return "recommended";
        case Level::info: return "info";
    }
    return "?";
}

const char* check_name(Check c) noexcept {
    switch (c) {
        case Check::verdict: return "verdict";
        case Check::content: return "content";
        case Check::reason: return "reason";
        case Check::unknown_code: return "unknown-code";
        case Check::canonical_writer: return "canonical-writer";
        case Check::round_trip: return "round-trip";
        case Check::crash: return "crash";
        case Check::timeout: return "timeout";
        case Check::protocol: return "protocol";
        case Check::memory: return "memory";
        case Check::output: return "output";
        case Check::corpus: return "corpus";
        case Check::offset: return "offset";
    }
    return "?";
}

const char* profile_name(Profile p) noexcept { return p == Profile::spec ? "spec" : "strict"; }

const char* status_name(Status s) noexcept {
    switch (s) {
        case Status::pass: return "pass";
        case Status::fail: return "fail";
        case Status::xfail: return "xfail";
        case Status::stale: return "stale";
        case Status::skip: return "skip";
        case Status::info: return "info";
        case Status::not_run: return "not-run";
    }
    return "?";
}

bool CaseResult::required_failed() const {
    return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.level == Level::required; });
}

std::size_t output_limit(const Case& c) {
    std::size_t expected = std::max(c.expected ? c.expected->size() : 0, c.if_accepted ? c.if_accepted->size() : 0);
    for (const std::string& also : c.if_accepted_also) expected = std::max(expected, also.size());
    return (1u << 20) + 8 * expected + 64 * c.input.size();
}

namespace {

bool name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

// "(top level)", or a name followed by at least one ".name" or "[digits]": one pass, no
// backtracking and no recursion, whatever the length (the text may come from a testee).
bool is_field_path(std::string_view s) {
    if (s == "(top level)") return true;
    std::size_t i = 0, steps = 0;
    auto name = [&] {
        if (i == s.size() || !name_start(s[i])) return false;
        while (++i < s.size() && name_char(s[i])) {}
        return true;
    };
    if (!name()) return false;
    for (; i < s.size(); ++steps) {
        if (s[i] == '.') {
            ++i;
            if (!name()) return false;
        } else if (s[i] == '[') {
            std::size_t first = ++i;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
            if (i == first || i == s.size() || s[i] != ']') return false;
            ++i;
        } else {
            return false;
        }
    }
    return steps > 0 || s == "doc" || s == "docs" || s == "format" || s == "crc";
}

}  // namespace

std::string difference_path(std::string_view difference) {
    // The first of the ": "-separated pieces that is a path (a testee's key may come first).
    for (std::size_t from = 0;;) {
        const std::size_t to = difference.find(": ", from);
        if (to == std::string_view::npos) return {};
        if (is_field_path(difference.substr(from, to - from))) return std::string(difference.substr(from, to - from));
        from = to + 2;
    }
}

// The content model's containers set the rule (tokens R17, entities R22, ...); a token's own
// fields refine it (a head is R19); a name under another container keeps that container's rule
// (an entity's start is R22, not R18). Confidences are R3 wherever they are.
std::string content_rule(std::string_view path) {
    static const std::pair<std::string_view, std::string_view> containers[] = {
        {"format", "R6"}, {"crc", "R7"}, {"docs", "R11"}, {"doc", "R10"}, {"text", "R16"}, {"utf16", "R16"},
        {"tokens", "R17"}, {"ents", "R22"}, {"cats", "R23"}, {"spans", "R24"}};
    static const std::pair<std::string_view, std::string_view> token_fields[] = {
        {"start", "R18"}, {"length", "R18"}, {"head", "R19"}, {"sent", "R20"}, {"norm", "R13"}, {"lemma", "R13"},
        {"pos", "R13"}, {"tag", "R13"}, {"dep", "R13"}, {"morph", "R13"}};
    std::string_view rule;
    bool in_tokens = false, in_group = false;
    for (std::size_t i = 0; i < path.size();) {
        if (!name_start(path[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < path.size() && name_char(path[end])) ++end;
        const std::string_view name = path.substr(i, end - i);
        i = end;
        if (name == "conf") {
            rule = "R3";
            continue;
        }
        if (in_tokens) {
            for (const auto& [n, r] : token_fields)
                if (n == name) rule = r;
            continue;
        }
        if (in_group && name != "spans") continue;  // a group's name, spans and labels are R24
        for (const auto& [n, r] : containers)
            if (n == name) {
                rule = r;
                in_tokens = name == "tokens";
                in_group = name == "spans" || name == "ents" || name == "cats";
            }
    }
    return std::string(rule);
}

std::string rule_and_field(const Finding& f) {
    if (f.field.empty()) return f.rule;
    return (f.rule.empty() ? std::string("at ") : f.rule + " at ") + f.field;
}

namespace {

std::string mib(long kb) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(kb) / 1024.0);
    return buf;
}

std::vector<std::string_view> split_lines(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        auto nl = s.find('\n', pos);
        std::string_view line = s.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.empty()) out.push_back(line);
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    return out;
}

// The rule of an error code in the table; "" for a code it does not hold.
std::string rule_of_code(std::string_view code) {
    const ErrorInfo* e = code.empty() ? nullptr : find_error(code);
    return e ? std::string(e->rule) : std::string();
}

Op op_of_kind(CaseKind k) { return k == CaseKind::decode ? Op::decode : k == CaseKind::encode ? Op::encode : Op::stream; }

// The findings of one case, as the classifier builds them, each with the rule it breaks and
// where (Finding).
class Judge {
public:
    Judge(const Case& c, const TesteeResult& o, const ClassifyOptions& opt, CaseResult& r) : c_(c), o_(o), r_(r) {
        // Under spec, an implementation-defined case may get either verdict.
        either_verdict_ = opt.profile == Profile::spec && c.verdict == CaseVerdict::impl;
    }

    void add(Level l, Check k, std::string msg, std::string rule, std::string field) {
        if (l == Level::recommended) ++r_.recommended_fail;
        if (rule.empty()) rule = case_rule();
        r_.findings.push_back({l, k, std::move(msg), std::move(rule), std::move(field)});
    }
    std::string code_text() const { return o_.code.empty() ? "" : " (error: " + capped(o_.code) + ")"; }
    std::string expected_reject() const { return c_.error.empty() ? std::string("reject") : "reject (" + c_.error + ")"; }

    // The case's own rule: its expected error's, else the first it cites.
    std::string case_rule() const {
        std::string rule = rule_of_code(c_.error);
        return rule.empty() && !c_.rules.empty() ? c_.rules.front() : rule;
    }
    // What a testee broke when it refused what it must not: the rule its own error code names
    // (it applied that rule where it does not hold), else the case's.
    std::string refusal_rule() const {
        std::string rule = rule_of_code(o_.code);
        return rule.empty() ? case_rule() : rule;
    }
    // Where the reference finds the input's fault: the field of content a writer must refuse,
    // else the byte; "(top level)" for an input the reference accepts (the whole document).
    const std::string& fault_field() {
        if (fault_field_) return *fault_field_;
        fault_field_ = "(top level)";
        if (const RefAnswer* ref = refusal()) {
            if (!ref->path.empty()) fault_field_ = capped(ref->path);
            else if (ref->offset != no_offset) fault_field_ = "byte " + std::to_string(ref->offset);
        }
        return *fault_field_;
    }
    // The reference's refusal of the input (asked once): null for a case it accepts, and for a
    // large case, whose input the runner never holds.
    const RefAnswer* refusal() {
        if (c_.expect_accept || c_.generated) return nullptr;
        if (!reference_) reference_ = reference_answer(op_of_kind(c_.kind), c_.input);
        return reference_->accept ? nullptr : &*reference_;
    }

    // The testee's verdict differs from the reference's, as the spec allows: informational.
    bool allowed_other_verdict(bool accepted) {
        if (!either_verdict_) return false;
        add(Level::info, Check::verdict,
            accepted ? "the reference rejects" + (c_.error.empty() ? std::string() : " (" + c_.error + ")") +
                           "; accepted, as the spec allows"
                     : "the reference accepts; rejected" + code_text() + ", as the spec allows",
            accepted ? case_rule() : refusal_rule(), fault_field());
        return true;
    }

    // A verdict the case does not allow: accepting what must be refused breaks the rule of the
    // expected error, at the fault; refusing what must be accepted breaks the rule the testee's
    // error code names, for the whole input.
    void wrong_verdict(bool accepted, std::string msg) {
        add(Level::required, Check::verdict, std::move(msg), accepted ? case_rule() : refusal_rule(), fault_field());
    }

    void reason() {
        if (!c_.check_reason || c_.error.empty() || o_.code.empty()) return;
        if (o_.code != c_.error) {
            add(Level::recommended, Check::reason, "expected error " + c_.error + ", got " + capped(o_.code), case_rule(), fault_field());
            return;
        }
        ++r_.recommended_pass;
        offset();
    }
    // The offset a testee reported with the right code (optional) against the reference's, which
    // is the manifest's error_offset: where a front-to-back reader meets the fault
    // (docs/reading-rules.md, "Error offsets"). Without an offset nothing is checked.
    void offset() {
        const RefAnswer* ref = o_.offset ? refusal() : nullptr;
        if (!ref || ref->offset == no_offset || ref->code != o_.code) return;
        if (*o_.offset == ref->offset) ++r_.recommended_pass;
        else
            add(Level::recommended, Check::offset,
                "expected error " + c_.error + " at byte " + std::to_string(ref->offset) + ", reported at byte " + std::to_string(*o_.offset),
                case_rule(), fault_field());
    }

    // A content difference: the path compare_content names, and the rule of that field.
    void content(std::string_view want, std::string_view got, const std::string& where = "") {
        try {
            if (auto d = json::compare_content(want, got)) {
                const std::string path = difference_path(*d);
                add(Level::required, Check::content, where + capped(*d, false, message_limit), content_rule(path),
                    where + (path.empty() ? capped(d->substr(0, d->find(": "))) : path));
            }
        } catch (const json::JsonError& e) {
            not_content_json(where, e.what());
        }
    }
    // Output that is not content JSON breaks the protocol's answer format.
    void not_content_json(const std::string& where, std::string_view what) {
        add(Level::required, Check::output, where + "the output is not content JSON: " + capped(what, false, message_limit), "protocol",
            where.empty() ? "(top level)" : where.substr(0, where.size() - 2));
    }

    // JSON lines, one per container, against the wanted ones; false on the first difference.
    bool lines(std::string_view want_text, std::string_view got_text, const char* until) {
        auto want = split_lines(want_text);
        auto got = split_lines(got_text);
        for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
            std::size_t before = r_.findings.size();
            content(want[i], got[i], "line " + std::to_string(i + 1) + ": ");
            if (r_.findings.size() != before) return false;
        }
        if (got.size() == want.size()) return true;
        // Too few lines: the stream stopped early (wrongly refused, or lost a container); too
        // many: it read past the fault it must stop at.
        const std::string rule = got.size() > want.size() && !c_.expect_accept ? case_rule() : refusal_rule();
        add(Level::required, Check::content,
            "expected " + std::to_string(want.size()) + " JSON lines before the " + until + ", got " + std::to_string(got.size()), rule,
            "line " + std::to_string(std::min(got.size(), want.size()) + 1));
        return false;
    }

    // A writer's bytes against the canonical ones, judged rule by rule (W1-W5, each at its level).
    void written(const std::string& canonical, const std::string& got) {
        if (got == canonical) {
            ++r_.recommended_pass;
            return;
        }
        add_writer_findings(canonical, got, Check::canonical_writer, r_);  // writer_check.cpp: rule by rule
    }

    // What an implementation-defined case's accepting testee must give.
    const std::optional<std::string>& if_accepted() const { return c_.if_accepted ? c_.if_accepted : c_.expected; }

    // An accepted implementation-defined decode case: its if-accepted content, or one of the
    // others the case lists as equally right; with none known, at least content JSON.
    void if_accepted_content() {
        if (!if_accepted()) {
            content_json(o_.out, "");
            return;
        }
        const std::size_t before = r_.findings.size();
        content(*if_accepted(), o_.out, "if-accepted content: ");
        if (r_.findings.size() == before || c_.if_accepted_also.empty()) return;
        for (const std::string& also : c_.if_accepted_also) {
            try {
                if (!json::compare_content(also, o_.out)) {
                    r_.findings.resize(before);  // equal to another acceptable content
                    return;
                }
            } catch (const json::JsonError&) {
                break;  // not content JSON: the finding stands
            }
        }
        r_.findings.back().message += " (nor any of the " + std::to_string(c_.if_accepted_also.size()) +
                                      " other acceptable contents)";
    }

    // Output that must at least be content JSON (no if-accepted content to compare with).
    void content_json(std::string_view got, const std::string& where) {
        try {
            (void)json::from_json(got);
        } catch (const json::JsonError& e) {
            not_content_json(where, e.what());
        }
    }

    void decode(bool accepted) {
        if (accepted != c_.expect_accept && allowed_other_verdict(accepted)) {
            if (accepted) if_accepted_content();
            return;
        }
        if (accepted && c_.expect_accept) content(*c_.expected, o_.out);
        else if (accepted) wrong_verdict(true, "expected " + expected_reject() + ", got accept");
        else if (c_.expect_accept) wrong_verdict(false, "expected accept, got reject" + code_text());
        else reason();
    }

    void stream(bool accepted) {
        if (accepted != c_.expect_accept && allowed_other_verdict(accepted)) {
            if (accepted && if_accepted()) lines(*if_accepted(), o_.out, "end");
            else if (accepted)
                for (std::string_view line : split_lines(o_.out)) content_json(line, "a line: ");
            return;
        }
        lines(c_.expected.value_or(""), o_.out, c_.expect_accept ? "end" : "fault");
        if (accepted && !c_.expect_accept) wrong_verdict(true, "expected " + expected_reject() + ", got accept");
        else if (!accepted && c_.expect_accept) wrong_verdict(false, "expected accept, got reject" + code_text());
        else if (!accepted) reason();
    }

    void encode(bool accepted) {
        if (accepted != c_.expect_accept && allowed_other_verdict(accepted)) {
            // Judged like any writer (writer_check.cpp): read back with the one check relaxed,
            // the content and the required writer rules; the if-accepted bytes are recommended.
            if (accepted) add_impl_writer_findings(c_, o_.out, r_);
            return;
        }
        if (accepted && c_.expect_accept) written(*c_.expected, o_.out);
        else if (accepted)
            wrong_verdict(true, "expected the writer to refuse this content" + (c_.error.empty() ? std::string() : " (" + c_.error + ")") +
                                    ", it wrote " + std::to_string(o_.out.size()) + " bytes");
        else if (c_.expect_accept) wrong_verdict(false, "expected the canonical bytes, the writer refused" + code_text());
        else reason();
    }

private:
    const Case& c_;
    const TesteeResult& o_;
    CaseResult& r_;
    bool either_verdict_ = false;
    std::optional<std::string> fault_field_;
    std::optional<RefAnswer> reference_;
};

}  // namespace

CaseResult classify(const Case& c, const TesteeResult& o, const ClassifyOptions& opt) {
    CaseResult r;
    static_cast<CaseInfo&>(r) = c;
    r.answer = o.status;
    r.error_code = capped(o.code);
    r.peak_kb = o.peak_kb;
    r.growth_kb = o.growth_kb;
    r.output_limit = output_limit(c);
    r.ms = o.ms;
    Judge j(c, o, opt, r);
    const std::string detail = capped(o.detail, true, detail_limit);

    switch (o.status) {
        case Answer::unsupported: r.status = Status::skip; return r;
        case Answer::not_run: r.status = Status::not_run; return r;
        // A crash or a time-out breaks the rule of what the input holds, where it holds it; a
        // broken answer breaks the protocol.
        case Answer::start_error: j.add(Level::required, Check::crash, "could not start the testee: " + detail, "protocol", ""); break;
        case Answer::crash: j.add(Level::required, Check::crash, detail.empty() ? "crashed" : detail, "", j.fault_field()); break;
        case Answer::timeout: j.add(Level::required, Check::timeout, detail, "", j.fault_field()); break;
        case Answer::protocol: j.add(Level::required, Check::protocol, detail, "protocol", ""); break;
        case Answer::output: j.add(Level::required, Check::output, detail, "protocol", ""); break;
        case Answer::accept:
        case Answer::reject: break;
    }
    if (o.memory_measured && c.check_memory && o.growth_kb > opt.memory_bound_kb)
        j.add(Level::required, Check::memory,
              "the peak memory of all the testee started, " + mib(o.peak_kb) + ", is " + mib(o.growth_kb) + " over the baseline (bound " +
                  mib(opt.memory_bound_kb) + "); reading or refusing an input must stay within the bound, whatever counts and lengths it declares",
              "", j.fault_field());
    if (o.status == Answer::accept || o.status == Answer::reject) {
        const bool accepted = o.status == Answer::accept;
        switch (c.kind) {
            case CaseKind::decode: j.decode(accepted); break;
            case CaseKind::stream: j.stream(accepted); break;
            case CaseKind::encode: j.encode(accepted); break;
        }
        if (!accepted && !o.code.empty() && !find_error(o.code))
            j.add(Level::recommended, Check::unknown_code,
                  "error code '" + capped(o.code) + "' is not in the error table (docs/error-codes.md)", "protocol", "");
    }
    if (r.required_failed()) r.status = Status::fail;
    else if (std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.level == Level::info; }))
        r.status = Status::info;
    else r.status = Status::pass;
    return r;
}

Op op_of(CaseKind k) { return op_of_kind(k); }

const char* op_word(Op op) { return op == Op::decode ? "decode" : op == Op::encode ? "encode" : "stream"; }

}  // namespace ond::conformance
