// The classifier on its own: one case and one answer in, findings and a status out.
#include <gtest/gtest.h>

#include "classify.hpp"
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

TEST(Classify, ImplEncodeUnderSpecWantsTheIfAcceptedBytes) {
    Case c = impl_encode();
    ClassifyOptions spec;
    CaseResult same = classify(c, answer(Answer::accept, *c.if_accepted), spec);
    EXPECT_EQ(same.status, Status::info);
    std::string other = *c.if_accepted;
    other[20] = static_cast<char>(other[20] ^ 1);
    CaseResult diff = classify(c, answer(Answer::accept, other), spec);
    EXPECT_EQ(diff.status, Status::fail);
    ASSERT_EQ(diff.findings.size(), 2u);
    EXPECT_EQ(diff.findings[1].check, Check::content);
    EXPECT_EQ(diff.findings[1].message, "the bytes written are not the if-accepted bytes: first difference at byte 20 (got " +
                                            std::to_string(other.size()) + " bytes, expected " + std::to_string(other.size()) + ")");
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

TEST(Classify, OutputLimitFollowsTheCase) {
    Case c;
    c.input = std::string(100, 'x');
    c.expected = std::string(1000, 'y');
    EXPECT_EQ(output_limit(c), (1u << 20) + 8 * 1000 + 64 * 100);
}

}  // namespace
}  // namespace ond::conformance
