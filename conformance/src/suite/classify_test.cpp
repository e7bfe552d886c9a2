// The classifier on its own: one case and one answer in, findings and a status out.
#include <gtest/gtest.h>

#include "suite/classify.hpp"
#include "test_fixture.hpp"
#include "ond/content_json.hpp"
#include "ond/ond.hpp"

namespace ond::conformance {
namespace {

using testing::bytes_of;

// A case the reference refuses with `error` (invalid, or implementation-defined and rejected).
Case refused_case(const std::string& id, CaseKind kind, CaseVerdict verdict, const std::string& error) {
    Case c;
    c.id = id;
    c.kind = kind;
    c.verdict = verdict;
    c.error = error;
    c.expect_accept = false;
    return c;
}


TesteeResult answer(Answer a, std::string out, std::string code = {}) {
    TesteeResult o;
    o.status = a;
    o.out = std::move(out);
    o.code = std::move(code);
    return o;
}

// An implementation-defined encode case: the reference refuses; a writer that accepts must write
// exactly the if-accepted bytes.
Case impl_encode() {
    Case c = refused_case("impl/encode/x", CaseKind::encode, CaseVerdict::impl, "content.score-out-of-range");
    c.input = json::to_json(testing::basic_container(false));
    c.if_accepted = bytes_of(testing::basic_container(false));
    return c;
}

TEST(Classify, ImplEncodeUnderSpecIsJudgedLikeAnyWriter) {
    Case c = impl_encode();
    ClassifyOptions spec;
    CaseResult same = classify(c, answer(Answer::accept, *c.if_accepted), spec);
    EXPECT_EQ(same.status, Status::info);
    EXPECT_EQ(same.recommended_pass, 1);  // the if-accepted bytes exactly
    // Bytes that read back to other content fail (required), whatever the writer rules say.
    std::string other = *c.if_accepted;
    other[other.size() - 5] = static_cast<char>(other[other.size() - 5] ^ 1);
    CaseResult diff = classify(c, answer(Answer::accept, other), spec);
    EXPECT_EQ(diff.status, Status::fail);
    ASSERT_GE(diff.findings.size(), 2u);
    EXPECT_EQ(diff.findings[1].check, Check::content);
    EXPECT_EQ(diff.findings[1].message.rfind("the bytes written ", 0), 0u) << diff.findings[1].message;
    // Refusing, as the reference does, passes; under strict, accepting fails the verdict.
    EXPECT_EQ(classify(c, answer(Answer::reject, "", "content.score-out-of-range"), spec).status, Status::pass);
    ClassifyOptions strict{Profile::strict, 64 * 1024};
    CaseResult s = classify(c, answer(Answer::accept, *c.if_accepted), strict);
    EXPECT_EQ(s.status, Status::fail);
    EXPECT_EQ(s.findings.at(0).check, Check::verdict);
}

TEST(Classify, ImplStreamUnderSpecWantsTheIfAcceptedLines) {
    Case c = refused_case("impl/stream/x", CaseKind::stream, CaseVerdict::impl, "section.misplaced");
    std::string line = json::to_json(testing::basic_container(false)) + "\n";
    c.expected = line;                // before the fault, as the reference reads it
    c.if_accepted = line + line;      // what an accepting reader gives
    EXPECT_EQ(classify(c, answer(Answer::accept, line + line), {}).status, Status::info);
    CaseResult short_ = classify(c, answer(Answer::accept, line), {});
    EXPECT_EQ(short_.status, Status::fail);
    EXPECT_EQ(short_.findings.at(1).message, "expected 2 JSON lines before the end, got 1");
    EXPECT_EQ(classify(c, answer(Answer::reject, line, "section.misplaced"), {}).status, Status::pass);
}

TEST(Classify, UnknownErrorCodeIsRecommended) {
    Case c = refused_case("invalid/x", CaseKind::decode, CaseVerdict::invalid, "crc.mismatch");
    CaseResult r = classify(c, answer(Answer::reject, "", "crc.mismatched"), {});
    EXPECT_EQ(r.status, Status::pass);
    ASSERT_EQ(r.findings.size(), 2u);
    EXPECT_EQ(r.findings[0].check, Check::reason);
    EXPECT_EQ(r.findings[1].check, Check::unknown_code);
    EXPECT_EQ(r.findings[1].level, Level::recommended);
    EXPECT_TRUE(classify(c, answer(Answer::reject, "", "crc.mismatch"), {}).findings.empty());
}

// Memory over the bound fails the case at required level, said the same under every accounting;
// a case that does not check memory, or an answer whose memory was not measured, has no finding.
TEST(Classify, MemoryOverTheBoundIsRequired) {
    Case c = refused_case("invalid/x", CaseKind::decode, CaseVerdict::invalid, "crc.mismatch");
    c.check_memory = true;
    TesteeResult o = answer(Answer::reject, "", "crc.mismatch");
    o.memory_measured = true;
    o.peak_kb = 300 * 1024;
    o.growth_kb = 260 * 1024;
    CaseResult r = classify(c, o, ClassifyOptions{Profile::spec, 250 * 1024});
    EXPECT_EQ(r.status, Status::fail);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].level, Level::required);
    EXPECT_EQ(r.findings[0].check, Check::memory);
    EXPECT_EQ(r.findings[0].message,
              "the peak memory of all the testee started, 300.0 MiB, is 260.0 MiB over the baseline (bound 250.0 MiB); reading or "
              "refusing an input must stay within the bound, whatever counts and lengths it declares");
    o.growth_kb = 250 * 1024;  // at the bound: within it
    EXPECT_EQ(classify(c, o, ClassifyOptions{Profile::spec, 250 * 1024}).status, Status::pass);
    o.growth_kb = 260 * 1024;
    o.memory_measured = false;
    EXPECT_EQ(classify(c, o, ClassifyOptions{Profile::spec, 250 * 1024}).status, Status::pass);
    c.check_memory = false;
    o.memory_measured = true;
    EXPECT_EQ(classify(c, o, ClassifyOptions{Profile::spec, 250 * 1024}).status, Status::pass);
}

// The offset an adapter may give with its code: checked against the reference's at recommended
// level when the code is right; a wrong code is one finding, not two; no offset, no check.
TEST(Classify, AReportedOffsetIsCheckedWithTheRightCode) {
    Case c = refused_case("invalid/x", CaseKind::decode, CaseVerdict::invalid, "header.bad-magic");
    c.input = "XNDC" + std::string(8, '\0');  // the reference: header.bad-magic at byte 0
    auto with_offset = [](std::string code, std::uint64_t offset) {
        TesteeResult o = answer(Answer::reject, "", std::move(code));
        o.offset = offset;
        return o;
    };
    CaseResult right = classify(c, with_offset("header.bad-magic", 0), {});
    EXPECT_TRUE(right.findings.empty());
    EXPECT_EQ(right.recommended_pass, 2);  // the code and the offset
    EXPECT_EQ(classify(c, answer(Answer::reject, "", "header.bad-magic"), {}).recommended_pass, 1);  // the code alone

    CaseResult wrong = classify(c, with_offset("header.bad-magic", 4), {});
    EXPECT_EQ(wrong.status, Status::pass);
    ASSERT_EQ(wrong.findings.size(), 1u);
    EXPECT_EQ(wrong.findings[0].check, Check::offset);
    EXPECT_EQ(wrong.findings[0].level, Level::recommended);
    EXPECT_EQ(wrong.findings[0].message, "expected error header.bad-magic at byte 0, reported at byte 4");
    EXPECT_EQ(wrong.findings[0].rule, "R6");
    EXPECT_EQ(wrong.findings[0].field, "byte 0");
    EXPECT_STREQ(check_name(Check::offset), "offset");

    CaseResult other_code = classify(c, with_offset("header.bad-version", 4), {});
    ASSERT_EQ(other_code.findings.size(), 1u);
    EXPECT_EQ(other_code.findings[0].check, Check::reason);
}

TEST(Classify, OutputLimitFollowsTheCase) {
    Case c;
    c.input = std::string(100, 'x');
    c.expected = std::string(1000, 'y');
    EXPECT_EQ(output_limit(c), (1u << 20) + 8 * 1000 + 64 * 100);
}

// An implementation-defined decode case may list more than one acceptable content (R9).
TEST(Classify, ImplDecodeAcceptsEveryListedContent) {
    Case c = refused_case("impl/bin/x", CaseKind::decode, CaseVerdict::impl, "section.misplaced");
    ond::Container skipped = testing::basic_container(false), read = skipped;
    read.docs.edit(0, [&](ond::Doc& d) {
        d.has_cats = true;
        d.cats.push_back({read.strings.intern("extra"), 0.25f});
    });
    c.if_accepted = json::to_json(skipped);
    c.if_accepted_also = {json::to_json(read)};
    ClassifyOptions spec;
    EXPECT_EQ(classify(c, answer(Answer::accept, *c.if_accepted), spec).status, Status::info);
    EXPECT_EQ(classify(c, answer(Answer::accept, c.if_accepted_also[0]), spec).status, Status::info);
    ond::Container neither = read;
    neither.docs.edit(0, [](ond::Doc& d) { d.cats[0].score = 0.5f; });
    CaseResult r = classify(c, answer(Answer::accept, json::to_json(neither)), spec);
    EXPECT_EQ(r.status, Status::fail);
    ASSERT_EQ(r.findings.size(), 2u);
    EXPECT_EQ(r.findings[1].check, Check::content);
    EXPECT_NE(r.findings[1].message.find("(nor any of the 1 other acceptable contents)"), std::string::npos) << r.findings[1].message;
    EXPECT_GE(output_limit(c), 8 * c.if_accepted_also[0].size());
}

// With no if-accepted content known (a derived case the relaxed reading could not read), an
// acceptance must at least be content JSON.
TEST(Classify, ImplDecodeWithoutIfAcceptedNeedsContentJson) {
    Case c = refused_case("derived/mutation/x", CaseKind::decode, CaseVerdict::impl, "tokens.sentence-padding");
    ClassifyOptions spec;
    CaseResult junk = classify(c, answer(Answer::accept, "this is not JSON at all"), spec);
    EXPECT_EQ(junk.status, Status::fail);
    ASSERT_EQ(junk.findings.size(), 2u);
    EXPECT_EQ(junk.findings[1].check, Check::output);
    EXPECT_EQ(classify(c, answer(Answer::accept, json::to_json(testing::basic_container(false))), spec).status, Status::info);
}

}  // namespace
}  // namespace ond::conformance
