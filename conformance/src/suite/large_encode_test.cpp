// The --large encode cases at small caps: the content JSON they send is the reference's own, and
// the answers (the canonical bytes, compared as they arrive) are judged as an ordinary encode
// case's are, against the test adapter's encoder clean, refusing at the cap, or writing other bytes.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ond/content_json.hpp"
#include "ond/ond.hpp"
#include "ond/writer_rules.hpp"
#include "suite/large.hpp"
#include "suite/large_encode.hpp"
#include "suite/writer_rules.hpp"
#include "transport/process.hpp"

namespace ond::conformance {
namespace large_encode_test {  // a name of its own: the test sources are compiled together

const LargeCaps small{3, 4096};

const Case& find_case(const std::string& id) {
    static const std::vector<Case> cases = large_cases(small);
    for (const Case& c : cases)
        if (c.id == id) return c;
    throw std::runtime_error("no case " + id);
}

std::string all_of(PieceReader pieces, std::size_t* most = nullptr) {
    std::string out;
    for (std::string_view p = pieces(); !p.empty(); p = pieces()) {
        if (most) *most = std::max(*most, p.size());
        out += p;
    }
    return out;
}

std::string as_string(const std::vector<std::byte>& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

// What the test adapter's encoder (with `args`) answers for the case's content, through the
// case's own check (or, with exact_up_to given, through the judgement without the field walk).
struct Judged {
    ProcessResult run;
    std::vector<Finding> findings;
};
Judged encoded(const Case& c, const std::string& args, std::optional<std::uint64_t> exact_up_to = std::nullopt) {
    auto check = exact_up_to ? expect_token_bytes(small.tokens, c.rules, c.generated->answer_limit, *exact_up_to) : c.generated->answer();
    SpawnLimits limits{static_cast<std::size_t>(c.generated->answer_limit), 0, [check](std::string_view b) { return check->feed(b); }};
    Judged j;
    j.run = run_process({"/bin/sh", "-c", std::string(OND_TEST_ADAPTER) + " " + args}, c.generated->open(), std::chrono::seconds(20), limits);
    j.findings = check->finish();
    return j;
}

TEST(LargeEncode, TheContentJsonIsTheReferencesOwnAndItsSizeIsExact) {
    for (std::uint32_t n : {0u, 1u, 3u, 9u, 10u, 11u, 100u, 1000u, 12345u}) {
        std::size_t most = 0;
        const std::string json = all_of(token_content_pieces(n), &most), bytes = all_of(token_document_pieces(n));
        EXPECT_EQ(json.size(), token_content_bytes(n)) << n;
        EXPECT_EQ(bytes.size(), token_document_bytes(n)) << n;
        EXPECT_LE(most, std::size_t{1} << 20);
        const Container c = decode(as_bytes(bytes.data(), bytes.size()));
        EXPECT_EQ(json, json::to_json(c)) << n;
        EXPECT_EQ(as_string(encode(json::from_json(json))), bytes) << n;
    }
    const Case& c = find_case("large/encode-tokens-at-cap");
    EXPECT_EQ(c.kind, CaseKind::encode);
    EXPECT_TRUE(c.expect_accept);
    EXPECT_EQ(c.generated->size, token_content_bytes(3));
    EXPECT_EQ(c.generated->answer_limit, 2 * token_document_bytes(3) + (1u << 20));
    EXPECT_EQ(all_of(c.generated->open()), all_of(token_content_pieces(3)));
    const Case& plus = find_case("large/encode-tokens-cap-plus-one");
    EXPECT_FALSE(plus.expect_accept);
    EXPECT_EQ(plus.error, "content.too-large");
    EXPECT_EQ(all_of(plus.generated->open()), all_of(token_content_pieces(4)));
    // At the format's cap: 4.1 GB of JSON, 344 MB of bytes (arithmetic only).
    EXPECT_EQ(token_content_bytes(1u << 25), 4'138'527'441u);  // under a frame's 2^32 - 1
    EXPECT_EQ(token_document_bytes(1u << 25), 343'932'962u);
}

TEST(LargeEncode, TheCanonicalBytesPassAndAreNotHeld) {
    const Case& c = find_case("large/encode-tokens-at-cap");
    const Judged j = encoded(c, "encode");
    EXPECT_TRUE(j.run.exited && j.run.exit_code == 0) << j.run.err;
    EXPECT_TRUE(j.run.out.empty());  // they went to the check
    EXPECT_TRUE(j.findings.empty()) << j.findings[0].message;
    // Persistent mode: the payload goes the same way.
    PersistentProcess serve({OND_TEST_ADAPTER, "serve"});
    auto check = c.generated->answer();
    const std::function<bool(std::string_view)> sink = [check](std::string_view b) { return check->feed(b); };
    const auto rep = serve.request('E', Input{{}, c.generated->size, c.generated->open()}, std::chrono::seconds(20), 1u << 20, &sink);
    ASSERT_EQ(rep.kind, PersistentProcess::Reply::Kind::answer) << rep.detail;
    EXPECT_TRUE(check->finish().empty());
    serve.finish();
}

TEST(LargeEncode, AWriterThatRefusesAtTheCapFails) {
    const Case& c = find_case("large/encode-tokens-at-cap");
    const Judged j = encoded(c, "--max-tokens 2 encode");
    EXPECT_EQ(j.run.exit_code, 1);
    TesteeResult o;
    o.status = Answer::reject;
    o.code = "content.too-large";
    auto check = c.generated->answer();
    const CaseResult r = judge_streamed(c, o, *check, c.generated->answer_limit, {});
    EXPECT_EQ(r.status, Status::fail);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].level, Level::required);
    EXPECT_EQ(r.findings[0].check, Check::verdict);
    EXPECT_EQ(r.findings[0].message, "expected the canonical bytes, the writer refused (error: content.too-large)");
}

TEST(LargeEncode, OnePastTheCapMustBeRefused) {
    const Case& c = find_case("large/encode-tokens-cap-plus-one");
    TesteeResult refused;
    refused.status = Answer::reject;
    refused.code = "content.too-large";
    EXPECT_EQ(classify(c, refused, {}).status, Status::pass);
    refused.code = "json.invalid";  // the right verdict, another code: recommended
    const CaseResult other = classify(c, refused, {});
    EXPECT_EQ(other.status, Status::pass);
    ASSERT_FALSE(other.findings.empty());
    for (const Finding& f : other.findings) EXPECT_EQ(f.level, Level::recommended) << f.message;
    TesteeResult wrote;
    wrote.status = Answer::accept;
    wrote.out = std::string(50, 'x');
    const CaseResult r = classify(c, wrote, {});
    EXPECT_EQ(r.status, Status::fail);
    EXPECT_EQ(r.findings.at(0).message, "expected the writer to refuse this content (content.too-large), it wrote 50 bytes");
}

// Other bytes: judged exactly as an ordinary encode case (the field walk), and by the judgement
// the full size uses (exact_up_to 0): the same verdict, rule and level.
TEST(LargeEncode, OtherBytesAreJudgedByTheWriterRules) {
    const Case& c = find_case("large/encode-tokens-at-cap");
    struct Want {
        const char* fault;
        Level level;
        Check check;
        const char* rule;
        std::string text;  // in the message
    };
    // "writer rule ID (level)", the ID read from the table.
    auto tag = [](WriterRule rule) { return writer_rule_tag(writer_rule_info(rule).id); };
    const Want wants[] = {
        {"conf-mode-1", Level::recommended, Check::canonical_writer, "W4", tag(WriterRule::confidence_mode) + ": W4: document 0 writes confidence mode 1"},
        {"write-impl-varint5", Level::recommended, Check::canonical_writer, "W1", tag(WriterRule::minimal_varints) + ": W1: strings.count (0) takes 5 bytes"},
        {"noncanonical-table", Level::required, Check::canonical_writer, "W3", tag(WriterRule::table_only_used) + ": W3: string table entry 1"},
        {"wrong-first-head", Level::required, Check::content, "R19", "the bytes written decode to other content: doc.tokens[0].head: expected 0, got 1"},
        {"drop-last-byte", Level::required, Check::canonical_writer, "", "writer rule decode (required): the bytes do not decode: "},
    };
    auto first_difference = [](const std::string& m) {
        const auto at = m.find("; first difference at byte ");
        return at == std::string::npos ? std::string() : m.substr(at, m.find(',', at) - at);
    };
    for (const Want& w : wants) {
        std::string exact_at;
        for (std::uint64_t exact_up_to : {exact_writer_judge_bytes, std::uint64_t{0}}) {
            const Judged j = encoded(c, std::string("--fault ") + w.fault + " encode", exact_up_to);
            const std::string where = std::string(w.fault) + (exact_up_to ? " (exact)" : " (bounded)");
            ASSERT_FALSE(j.findings.empty()) << where;
            const Finding& f = j.findings[0];
            EXPECT_EQ(f.level, w.level) << where << ": " << f.message;
            EXPECT_EQ(f.check, w.check) << where << ": " << f.message;
            if (*w.rule) {
                EXPECT_EQ(f.rule, w.rule) << where << ": " << f.message;
            }
            EXPECT_NE(f.message.find(w.text), std::string::npos) << where << ": " << f.message;
            for (const Finding& g : j.findings)
                EXPECT_TRUE(w.level == Level::required || g.level == Level::recommended) << where << ": " << g.message;
            // Both name the same first difference (length fields not counted).
            if (exact_up_to) exact_at = first_difference(f.message);
            else EXPECT_EQ(first_difference(f.message), exact_at) << where << ": " << f.message;
            EXPECT_FALSE(exact_at.empty()) << where << ": " << f.message;
        }
    }
}

// An answer that never ends is kept only up to the answer's limit (the transport cuts it there)
// and then judged: output past its limit, a required failure.
TEST(LargeEncode, AnEndlessAnswerIsCutOffAtItsLimit) {
    const Case& c = find_case("large/encode-tokens-at-cap");
    const Judged j = encoded(c, "--fault huge-output encode");
    EXPECT_TRUE(j.run.output_exceeded);
    EXPECT_TRUE(j.run.out.empty());
    ASSERT_FALSE(j.findings.empty());
    TesteeResult o;
    o.status = Answer::output;
    auto check = c.generated->answer();
    check->feed(std::string(10, '0'));
    const CaseResult r = judge_streamed(c, o, *check, c.generated->answer_limit, {});
    EXPECT_EQ(r.status, Status::fail);
    EXPECT_EQ(r.findings.at(0).level, Level::required);
    EXPECT_EQ(r.output_limit, c.generated->answer_limit);
    // What is kept stops at the limit, however much arrives.
    for (std::uint64_t exact_up_to : {exact_writer_judge_bytes, std::uint64_t{0}}) {
        auto kept = expect_token_bytes(small.tokens, c.rules, 1000, exact_up_to);
        for (int i = 0; i < 50; ++i) EXPECT_TRUE(kept->feed(std::string(100, '0')));
        const auto f = kept->finish();
        ASSERT_FALSE(f.empty());
        EXPECT_NE(f[0].message.find("first difference at byte 0, got 1000 bytes, canonical 62"), std::string::npos) << f[0].message;
    }
}

}  // namespace large_encode_test
}  // namespace ond::conformance
