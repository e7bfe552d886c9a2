#include "classify.hpp"

#include <algorithm>

#include "escape.hpp"
#include "writer_check.hpp"
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

// The findings of one case, as the classifier builds them.
class Judge {
public:
    Judge(const Case& c, const TesteeResult& o, const ClassifyOptions& opt, CaseResult& r) : c_(c), o_(o), r_(r) {
        // Under spec, an implementation-defined case may get either verdict.
        either_verdict_ = opt.profile == Profile::spec && c.verdict == CaseVerdict::impl;
    }

    void add(Level l, Check k, std::string msg) {
        if (l == Level::recommended) ++r_.recommended_fail;
        r_.findings.push_back({l, k, std::move(msg)});
    }
    std::string code_text() const { return o_.code.empty() ? "" : " (error: " + capped(o_.code) + ")"; }
    std::string expected_reject() const { return c_.error.empty() ? std::string("reject") : "reject (" + c_.error + ")"; }

    // The testee's verdict differs from the reference's, as the spec allows: informational.
    bool allowed_other_verdict(bool accepted) {
        if (!either_verdict_) return false;
        add(Level::info, Check::verdict,
            accepted ? "the reference rejects" + (c_.error.empty() ? std::string() : " (" + c_.error + ")") +
                           "; accepted, as the spec allows"
                     : "the reference accepts; rejected" + code_text() + ", as the spec allows");
        return true;
    }

    void reason() {
        if (!c_.check_reason || c_.error.empty() || o_.code.empty()) return;
        if (o_.code == c_.error) ++r_.recommended_pass;
        else add(Level::recommended, Check::reason, "expected error " + c_.error + ", got " + capped(o_.code));
    }

    void content(std::string_view want, std::string_view got, const std::string& where = "") {
        try {
            if (auto d = json::compare_content(want, got)) add(Level::required, Check::content, where + capped(*d, false, message_limit));
        } catch (const json::JsonError& e) {
            add(Level::required, Check::output, where + "the output is not content JSON: " + capped(e.what(), false, message_limit));
        }
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
        add(Level::required, Check::content,
            "expected " + std::to_string(want.size()) + " JSON lines before the " + until + ", got " + std::to_string(got.size()));
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
            add(Level::required, Check::output, where + "the output is not content JSON: " + escape_text(e.what(), false));
        }
    }

    void decode(bool accepted) {
        if (accepted != c_.expect_accept && allowed_other_verdict(accepted)) {
            if (accepted) if_accepted_content();
            return;
        }
        if (accepted && c_.expect_accept) content(*c_.expected, o_.out);
        else if (accepted) add(Level::required, Check::verdict, "expected " + expected_reject() + ", got accept");
        else if (c_.expect_accept) add(Level::required, Check::verdict, "expected accept, got reject" + code_text());
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
        if (accepted && !c_.expect_accept) add(Level::required, Check::verdict, "expected " + expected_reject() + ", got accept");
        else if (!accepted && c_.expect_accept) add(Level::required, Check::verdict, "expected accept, got reject" + code_text());
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
            add(Level::required, Check::verdict,
                "expected the writer to refuse this content" + (c_.error.empty() ? std::string() : " (" + c_.error + ")") +
                    ", it wrote " + std::to_string(o_.out.size()) + " bytes");
        else if (c_.expect_accept) add(Level::required, Check::verdict, "expected the canonical bytes, the writer refused" + code_text());
        else reason();
    }

private:
    const Case& c_;
    const TesteeResult& o_;
    CaseResult& r_;
    bool either_verdict_ = false;
};

}  // namespace

CaseResult classify(const Case& c, const TesteeResult& o, const ClassifyOptions& opt) {
    CaseResult r;
    r.id = c.id, r.area = c.area, r.origin = c.origin, r.source = c.source, r.description = c.description;
    r.input_path = c.input_path, r.expected_error = c.error, r.kind = c.kind, r.verdict = c.verdict, r.rules = c.rules;
    r.expected_path = c.expected_path, r.if_accepted_path = c.if_accepted_path, r.listing_path = c.listing_path;
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
        case Answer::start_error: j.add(Level::required, Check::crash, "could not start the testee: " + detail); break;
        case Answer::crash: j.add(Level::required, Check::crash, detail.empty() ? "crashed" : detail); break;
        case Answer::timeout: j.add(Level::required, Check::timeout, detail); break;
        case Answer::protocol: j.add(Level::required, Check::protocol, detail); break;
        case Answer::output: j.add(Level::required, Check::output, detail); break;
        case Answer::accept:
        case Answer::reject: break;
    }
    if (o.memory_measured && c.check_memory && o.growth_kb > opt.memory_bound_kb)
        j.add(Level::required, Check::memory,
              "peak RSS of the process tree " + mib(o.peak_kb) + " is " + mib(o.growth_kb) + " over the baseline (bound " +
                  mib(opt.memory_bound_kb) + "); reading or refusing an input must stay within the bound, whatever counts and lengths it declares");
    if (o.status == Answer::accept || o.status == Answer::reject) {
        const bool accepted = o.status == Answer::accept;
        switch (c.kind) {
            case CaseKind::decode: j.decode(accepted); break;
            case CaseKind::stream: j.stream(accepted); break;
            case CaseKind::encode: j.encode(accepted); break;
        }
        if (!accepted && !o.code.empty() && !find_error(o.code))
            j.add(Level::recommended, Check::unknown_code,
                  "error code '" + capped(o.code) + "' is not in the error table (docs/error-codes.md)");
    }
    if (r.required_failed()) r.status = Status::fail;
    else if (std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.level == Level::info; }))
        r.status = Status::info;
    else r.status = Status::pass;
    return r;
}

}  // namespace ond::conformance
