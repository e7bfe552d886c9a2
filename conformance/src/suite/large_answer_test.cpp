// The answers of the --large cases that must be accepted are judged as they arrive: the same
// inputs and checks at small caps, against the reference's answers (the clean test adapter) and hostile ones.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "suite/large.hpp"
#include "suite/large_answer.hpp"
#include "transport/process.hpp"

namespace ond::conformance {
namespace {

const LargeCaps small{3, 4096};

const std::vector<Case>& small_cases() {
    static const std::vector<Case> cases = large_cases(small);
    return cases;
}

const Case& find_case(const std::string& id) {
    for (const Case& c : small_cases())
        if (c.id == id) return c;
    throw std::runtime_error("no case " + id);
}

// What `cmd` (shell syntax) writes for the case's input, through the case's own check.
struct Judged {
    ProcessResult run;
    std::vector<Finding> findings;
    bool refused = false;
};
Judged through_check(const Case& c, const std::string& cmd, std::size_t max_output = 1u << 20) {
    auto check = c.generated->answer();
    SpawnLimits limits{max_output, 0, [check](std::string_view b) { return check->feed(b); }};
    Judged j;
    j.run = run_process({"/bin/sh", "-c", cmd}, c.generated->open(), std::chrono::seconds(20), limits);
    j.findings = check->finish();
    j.refused = check->refused();
    return j;
}

// Feeds `answer` in pieces of `step` bytes.
std::vector<Finding> judge_text(const Case& c, const std::string& answer, std::size_t step = 7) {
    auto check = c.generated->answer();
    for (std::size_t i = 0; i < answer.size(); i += step)
        if (!check->feed(std::string_view(answer).substr(i, step))) break;
    return check->finish();
}

const std::string three_tokens =
    R"({"format":"ONDC","crc":false,"doc":{"text":"aaa","tokens":[)"
    R"({"start":0,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":1},)"
    R"({"start":1,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":1,"sent":0,"conf":1},)"
    R"({"start":2,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":2,"sent":0,"conf":1}],)"
    R"("ents":null,"cats":null,"spans":[]}})";

TEST(LargeAnswer, TheReferenceAnswersPassAtTheCaps) {
    const Case& tokens = find_case("large/tokens-at-cap");
    EXPECT_TRUE(tokens.expect_accept);
    EXPECT_EQ(tokens.generated->size, 12u + 6 + 9 + 5 + 1 + 9 * 3 + 1 + 1);
    Judged d = through_check(tokens, std::string(OND_TEST_ADAPTER) + " decode");
    EXPECT_TRUE(d.run.exited && d.run.exit_code == 0) << d.run.err;
    EXPECT_TRUE(d.run.out.empty());  // it went to the check, not into memory
    EXPECT_TRUE(d.findings.empty()) << d.findings[0].message;
    EXPECT_EQ(tokens.generated->answer_limit, 2 * three_tokens.size() + (1u << 20));

    const Case& stream = find_case("large/stream-body-at-cap");
    EXPECT_EQ(stream.generated->size, 12u + 4096);
    Judged s = through_check(stream, std::string(OND_TEST_ADAPTER) + " stream");
    EXPECT_TRUE(s.run.exited && s.run.exit_code == 0) << s.run.err;
    EXPECT_TRUE(s.findings.empty()) << s.findings[0].message;
    // One past the caps the reference refuses (at the format's caps only: these are 4 and 4097).
    EXPECT_FALSE(find_case("large/tokens-cap-plus-one").expect_accept);
    EXPECT_EQ(find_case("large/stream-body-cap-plus-one").generated->size, 12u + 4097);
}

// Persistent mode: the accepting response's payload goes to the sink; the reply keeps the status byte.
TEST(LargeAnswer, PersistentAnswersGoThroughTheSinkToo) {
    const Case& c = find_case("large/tokens-at-cap");
    PersistentProcess serve({OND_TEST_ADAPTER, "serve"});
    auto check = c.generated->answer();
    const std::function<bool(std::string_view)> sink = [check](std::string_view b) { return check->feed(b); };
    const Input in{{}, c.generated->size, c.generated->open()};
    auto rep = serve.request('D', in, std::chrono::seconds(20), 1u << 20, &sink);
    ASSERT_EQ(rep.kind, PersistentProcess::Reply::Kind::answer) << rep.detail;
    EXPECT_EQ(rep.payload, std::string(1, '\0'));
    const auto f = check->finish();
    EXPECT_TRUE(f.empty()) << f[0].message;
    // A wrong answer: the check says where.
    auto wrong = find_case("large/stream-body-at-cap").generated->answer();  // expects no tokens
    const std::function<bool(std::string_view)> to_wrong = [wrong](std::string_view b) { return wrong->feed(b); };
    const Input again{{}, c.generated->size, c.generated->open()};
    rep = serve.request('D', again, std::chrono::seconds(20), 1u << 20, &to_wrong);
    // A short answer may be all in before the parser sees the fault: cut off or complete, the
    // check has the difference either way.
    EXPECT_TRUE(rep.kind == PersistentProcess::Reply::Kind::answer || (rep.kind == PersistentProcess::Reply::Kind::output_limit && wrong->refused()))
        << rep.detail;
    EXPECT_EQ(wrong->finish().at(0).message, "line 1: doc.text: expected the text (0 x \"a\"), got \"aaa\"");
    serve.finish();
}

TEST(LargeAnswer, TheExactAnswerPassesInAnyPieces) {
    const Case& c = find_case("large/tokens-at-cap");
    for (std::size_t step : {1u, 7u, 4096u}) EXPECT_TRUE(judge_text(c, three_tokens, step).empty()) << step;
    // Blanks and another key order are the same content.
    std::string spaced = three_tokens;
    spaced.replace(spaced.find(R"("ents":null,"cats":null)"), 23, R"( "cats" : null ,  "ents":null)");
    EXPECT_TRUE(judge_text(c, spaced + "\n").empty());
}

TEST(LargeAnswer, OneWrongTokenFailsWithItsPlace) {
    const Case& c = find_case("large/tokens-at-cap");
    std::string wrong = three_tokens;
    wrong.replace(wrong.find(R"("head":1)"), 8, R"("head":0)");
    auto f = judge_text(c, wrong);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].level, Level::required);
    EXPECT_EQ(f[0].check, Check::content);
    EXPECT_EQ(f[0].field, "doc.tokens[1].head");
    EXPECT_EQ(f[0].message, "doc.tokens[1].head: expected 1, got 0");
    EXPECT_EQ(f[0].rule, "R19");

    std::string conf = three_tokens;
    conf.replace(conf.rfind(R"("conf":1)"), 8, R"("conf":0.5)");
    EXPECT_EQ(judge_text(c, conf).at(0).message, "doc.tokens[2].conf: expected 1, got 0.5");
    std::string text = three_tokens;
    text.replace(text.find(R"("aaa")"), 5, R"("aab")");
    EXPECT_EQ(judge_text(c, text).at(0).message, "doc.text: expected the text (3 x \"a\"), got \"aab\"");
}

TEST(LargeAnswer, MissingExtraOrRepeatedTokensAndKeysFail) {
    const Case& c = find_case("large/tokens-at-cap");
    std::string two = three_tokens;
    const auto last = two.rfind(R"(,{"start":2)");
    two.erase(last, two.find('}', last) + 1 - last);
    EXPECT_EQ(judge_text(c, two).at(0).message, "doc.tokens: expected 3 tokens, got 2");
    std::string four = three_tokens;
    four.insert(four.find("],"), R"(,{"start":3})");
    EXPECT_EQ(judge_text(c, four).at(0).message, "doc.tokens: more than the 3 tokens");
    std::string twice = three_tokens;
    twice.replace(twice.find(R"("sent":0)"), 8, R"("head":0)");
    EXPECT_EQ(judge_text(c, twice).at(0).message, "doc.tokens[0].head: the key comes twice");
    std::string missing = three_tokens;
    missing.replace(missing.find(R"(,"spans":[])"), 11, "");
    EXPECT_EQ(judge_text(c, missing).at(0).message, "doc: missing key \"spans\"");
}

TEST(LargeAnswer, ATruncatedAnswerFails) {
    const Case& c = find_case("large/tokens-at-cap");
    auto f = judge_text(c, three_tokens.substr(0, three_tokens.size() - 1));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find(": not content JSON at byte "), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("unexpected end of input"), std::string::npos) << f[0].message;
    EXPECT_FALSE(judge_text(c, "").empty());
    EXPECT_FALSE(judge_text(c, three_tokens + "{}").empty());
}

// A testee that never ends its answer is cut off as soon as the answer cannot be right (a string
// longer than any the content has), or at the answer limit (blanks), holding at most a piece.
TEST(LargeAnswer, AnEndlessAnswerIsCutOffInBoundedMemory) {
    const Case& c = find_case("large/tokens-at-cap");
    Judged text = through_check(c, "cat >/dev/null; printf '{\"format\":\"ONDC\",\"crc\":false,\"doc\":{\"text\":\"'; yes aaaaaaaa | tr -d '\\n'");
    EXPECT_TRUE(text.run.output_exceeded);
    EXPECT_TRUE(text.refused);
    ASSERT_EQ(text.findings.size(), 1u);
    EXPECT_EQ(text.findings[0].message.rfind("(top level): a string of more than 64 characters, longer than any the content holds", 0), 0u)
        << text.findings[0].message;
    Judged digits = through_check(c, "cat >/dev/null; printf '{\"format\":\"ONDC\",\"crc\":false,\"doc\":{\"tokens\":[{\"start\":'; yes 1 | tr -d '\\n'");
    EXPECT_TRUE(digits.refused);
    EXPECT_NE(digits.findings.at(0).message.find("a number of more than 64 characters"), std::string::npos) << digits.findings[0].message;
    // Blanks are valid JSON as long as they last: the answer limit ends them (1 MiB here).
    Judged blanks = through_check(c, "cat >/dev/null; printf '{'; yes ' ' | tr -d '\\n'", 1u << 20);
    EXPECT_TRUE(blanks.run.output_exceeded);
    EXPECT_FALSE(blanks.refused);
    EXPECT_TRUE(blanks.run.out.empty());
    EXPECT_LT(blanks.run.wall_ms, 20000.0);
}

TEST(LargeAnswer, TheStreamAnswerIsOneLine) {
    const Case& c = find_case("large/stream-body-at-cap");
    const std::string line = R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":null,"spans":[]}})";
    EXPECT_TRUE(judge_text(c, line + "\n").empty());
    EXPECT_EQ(judge_text(c, line).at(0).message, "line 1: (top level): the line does not end with one \"\\n\"");
    EXPECT_EQ(judge_text(c, line + "\n" + line + "\n").at(0).message, "line 1: (top level): more than one line: the stream holds one container");
    std::string text = line;
    text.replace(text.find(R"("text":"")"), 9, R"("text":"a")");
    EXPECT_EQ(judge_text(c, text + "\n").at(0).field, "line 1: doc.text");
}

}  // namespace
}  // namespace ond::conformance
