// The --large encode cases at small caps: the content JSON they send is the reference's own, and
// the answers (the canonical bytes, compared as they arrive) are judged as an ordinary encode
// case's are, against the test adapter's encoder clean, refusing at the cap, or writing other bytes.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ond/content_json.hpp"
#include "ond/internal/framing.hpp"
#include "ond/ond.hpp"
#include "ond/writer_rules.hpp"
#include "suite/large.hpp"
#include "suite/large_encode.hpp"
#include "suite/writer_check.hpp"
#include "suite/writer_rules.hpp"
#include "transport/process.hpp"

namespace ond::conformance {
namespace large_encode_test {  // a name of its own: the test sources are compiled together

const LargeCaps small{3, 4096, 300};  // a body cap of 300 bytes: labels of 198 and 63 bytes

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

// The body cases: two category labels that fill a body of exactly the cap.

TEST(LargeEncodeBody, TheLabelsFillTheBodyExactlyAndTheJsonIsTheReferencesOwn) {
    for (std::uint64_t body : {39u, 40u, 41u, 100u, 166u, 167u, 168u, 300u, 301u, 1000u, 16420u, 70000u, 3000000u}) {
        const CategoryLabels l = labels_filling_body(body);
        std::size_t most = 0;
        const std::string json = all_of(category_content_pieces(l), &most), bytes = all_of(category_document_pieces(l));
        EXPECT_LE(most, std::size_t{1} << 20);
        EXPECT_EQ(json.size(), category_content_bytes(l)) << body;
        ASSERT_EQ(bytes.size(), category_document_bytes(l)) << body;
        EXPECT_EQ(bytes.size(), 12 + body) << body;
        EXPECT_EQ(framing::get_u32(bytes, 8), body);
        const std::vector<std::uint64_t> at = category_document_lengths(l);
        ASSERT_EQ(at.size(), 5u);
        const std::uint32_t ids[] = {1, 2, 3, 6}, lengths[] = {0, 1, 2, 11};
        for (std::size_t k = 1; k < at.size(); ++k) {
            EXPECT_EQ(static_cast<std::uint8_t>(bytes[at[k] - 1]), ids[k - 1]) << body;
            if (k > 1) {
                EXPECT_EQ(framing::get_u32(bytes, at[k]), lengths[k - 1]) << body;
            }
        }
        const Container c = decode(as_bytes(bytes.data(), bytes.size()));
        ASSERT_TRUE(c.docs[0].has_cats);
        EXPECT_EQ(c.strings.view(1), std::string(l.first, 'a'));
        EXPECT_EQ(c.strings.view(2), std::string(l.second, 'b'));
        EXPECT_EQ(json, json::to_json(c)) << body;
        EXPECT_EQ(as_string(encode(json::from_json(json))), bytes) << body;
    }
    // At the format's caps, arithmetic only: the first label is the longest string (2^31 - 1
    // bytes) and the body the largest (2^32 - 1); the content JSON passes a frame's 2^32 - 1.
    const CategoryLabels at_cap = labels_filling_body(0xFFFFFFFFu), plus = labels_filling_body(std::uint64_t{1} << 32);
    EXPECT_EQ(at_cap.first, 2'147'483'647u);
    EXPECT_EQ(at_cap.second, 2'147'483'603u);
    EXPECT_EQ(plus.first, 2'147'483'647u);
    EXPECT_EQ(plus.second, 2'147'483'604u);
    EXPECT_EQ(category_document_bytes(at_cap), 12 + 0xFFFFFFFFull);
    EXPECT_EQ(category_content_bytes(at_cap), 4'294'967'392ull);  // 96 past a frame's 2^32 - 1
    EXPECT_THROW(labels_filling_body(38), std::invalid_argument);
    EXPECT_THROW(labels_filling_body((std::uint64_t{1} << 32) + 1), std::invalid_argument);
    EXPECT_THROW(category_document_pieces(plus), std::invalid_argument);  // no container holds it

    const Case& c = find_case("large/encode-body-at-cap");
    EXPECT_EQ(c.kind, CaseKind::encode);
    EXPECT_TRUE(c.expect_accept);
    EXPECT_EQ(c.generated->size, category_content_bytes(labels_filling_body(300)));
    EXPECT_EQ(c.generated->answer_limit, 12 + 300 + 4u);
    EXPECT_EQ(all_of(c.generated->open()), all_of(category_content_pieces(labels_filling_body(300))));
    const Case& p = find_case("large/encode-body-cap-plus-one");
    EXPECT_FALSE(p.expect_accept);
    EXPECT_EQ(p.error, "content.too-large");
    EXPECT_EQ(all_of(p.generated->open()), all_of(category_content_pieces(labels_filling_body(301))));
}

Judged body_encoded(const std::string& args, std::optional<std::uint64_t> exact_up_to = std::nullopt) {
    const Case& c = find_case("large/encode-body-at-cap");
    auto check = exact_up_to ? expect_category_bytes(labels_filling_body(small.body), c.rules, c.generated->answer_limit, *exact_up_to)
                             : c.generated->answer();
    SpawnLimits limits{static_cast<std::size_t>(c.generated->answer_limit), 0, [check](std::string_view b) { return check->feed(b); }};
    Judged j;
    j.run = run_process({"/bin/sh", "-c", std::string(OND_TEST_ADAPTER) + " " + args}, c.generated->open(), std::chrono::seconds(20), limits);
    j.findings = check->finish();
    return j;
}

TEST(LargeEncodeBody, TheCanonicalBytesPassAndAWriterThatRefusesAtTheCapFails) {
    const Judged j = body_encoded("--max-body 300 encode");
    EXPECT_TRUE(j.run.exited && j.run.exit_code == 0) << j.run.err;
    EXPECT_TRUE(j.run.out.empty());
    EXPECT_TRUE(j.findings.empty()) << j.findings[0].message;
    const Judged low = body_encoded("--max-body 299 encode");
    EXPECT_EQ(low.run.exit_code, 1);
    const Case& c = find_case("large/encode-body-at-cap");
    TesteeResult o;
    o.status = Answer::reject;
    o.code = "content.too-large";
    auto check = c.generated->answer();
    const CaseResult r = judge_streamed(c, o, *check, c.generated->answer_limit, {});
    EXPECT_EQ(r.status, Status::fail);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].level, Level::required);
    EXPECT_EQ(r.findings[0].message, "expected the canonical bytes, the writer refused (error: content.too-large)");
    // One byte more: refused by the adapter at the cap, written by one without it (a failure).
    const Case& p = find_case("large/encode-body-cap-plus-one");
    const ProcessResult refused = run_process({OND_TEST_ADAPTER, "--max-body", "300", "encode"}, p.generated->open(), std::chrono::seconds(20));
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_NE(refused.err.find("content.too-large"), std::string::npos) << refused.err;
    const ProcessResult wrote = run_process({OND_TEST_ADAPTER, "encode"}, p.generated->open(), std::chrono::seconds(20));
    ASSERT_EQ(wrote.exit_code, 0);
    EXPECT_EQ(wrote.out.size(), 12 + 301u);
    TesteeResult w;
    w.status = Answer::accept;
    w.out = wrote.out;
    EXPECT_EQ(classify(p, w, {}).status, Status::fail);
}

// Other bytes for the body content, made from the canonical ones: judged exactly as an ordinary
// encode case (the field walk) and by judge_category_bytes (what the full size uses), with the
// same verdict, check, rule, level and first difference.
TEST(LargeEncodeBody, OtherBytesAreJudgedAsAnOrdinaryEncodeCase) {
    const CategoryLabels l = labels_filling_body(small.body);
    const std::string canonical = all_of(category_document_pieces(l));
    const std::vector<std::string> rules = find_case("large/encode-body-at-cap").rules;
    using Edit = std::function<void(framing::Layout&)>;
    auto section = [](framing::Layout& x, std::uint8_t id) -> framing::Section& {
        for (auto& s : x.sections)
            if (s.id == id) return s;
        throw std::runtime_error("no section");
    };
    const std::string a(l.first, 'a'), b(l.second, 'b');
    auto table = [&](std::vector<std::string> entries) {
        std::string t = framing::encode_varint(static_cast<std::uint32_t>(entries.size()));
        for (const std::string& e : entries) t += e;
        return t;
    };
    auto utf8 = [](const std::string& v) { return framing::encode_varint(static_cast<std::uint32_t>(v.size() << 1)) + v; };
    auto utf16 = [](const std::string& v) {
        std::string u;
        for (char ch : v) u += std::string{ch, '\0'};
        return framing::encode_varint(static_cast<std::uint32_t>(u.size() << 1 | 1)) + u;
    };
    auto cats = [](int first, int second) {
        return std::string{2, static_cast<char>(first)} + std::string("\0\0\0\x3f", 4) + std::string{static_cast<char>(second)} +
               std::string("\0\0\x80\x3e", 4);
    };
    struct Want {
        const char* what;
        Edit edit;
        Level level;
        Check check;
        std::string rule;  // the writer rule's id, "decode", or the content's rule
    };
    auto id = [](WriterRule rule) { return std::string(writer_rule_info(rule).id); };
    const Want wants[] = {
        {"confidence mode 1", [&](auto& x) { section(x, 3).content = std::string("\0\x01", 2); }, Level::recommended, Check::canonical_writer, id(WriterRule::confidence_mode)},
        {"the table in reverse", [&](auto& x) { section(x, 1).content = table({utf8(b), utf8(a)}), section(x, 6).content = cats(2, 1); },
         Level::required, Check::canonical_writer, id(WriterRule::first_use_order)},
        {"an unused entry", [&](auto& x) { section(x, 1).content = table({utf8(a), utf8(b), utf8("x")}); }, Level::required,
         Check::canonical_writer, id(WriterRule::table_only_used)},
        {"a label twice", [&](auto& x) { section(x, 1).content = table({utf8(a), utf8(b), utf8(a)}); }, Level::required,
         Check::canonical_writer, id(WriterRule::table_only_used)},
        {"a label in UTF-16", [&](auto& x) { section(x, 1).content = table({utf8(a), utf16(b)}); }, Level::required, Check::canonical_writer,
         id(WriterRule::utf8_strings)},
        {"an empty text in UTF-16", [&](auto& x) { section(x, 2).content = std::string("\x01", 1); }, Level::required,
         Check::canonical_writer, id(WriterRule::utf8_strings)},
        {"a count in 5 bytes", [&](auto& x) { section(x, 1).content = std::string("\x82\x80\x80\x80\0", 5) + utf8(a) + utf8(b); },
         Level::recommended, Check::canonical_writer, id(WriterRule::minimal_varints)},
        {"no span groups in section 7", [&](auto& x) { framing::Section groups;
                                            groups.id = 7;
                                            groups.content = std::string(1, '\0');
                                            x.sections.push_back(groups); }, Level::required,
         Check::canonical_writer, id(WriterRule::sections_written)},
        {"another label", [&](auto& x) { section(x, 1).content = table({utf8(a), utf8(b.substr(1) + "c")}); }, Level::required, Check::content,
         "R23"},
        {"another score", [&](auto& x) { section(x, 6).content[3] = 1; }, Level::required, Check::content, "R23"},
        {"an empty entities section", [&](auto& x) {
             framing::Section ents;
             ents.id = 4;
             ents.content = std::string(1, '\0');
             x.sections.insert(x.sections.begin() + 3, ents);
         },
         Level::required, Check::canonical_writer, id(WriterRule::sections_written)},
        {"a trailer not asked for", [&](auto& x) { x.flags = 1; }, Level::required, Check::content, "R7"},
        {"no text section", [&](auto& x) { x.sections.erase(x.sections.begin() + 1); }, Level::required, Check::canonical_writer, "decode"},
        {"the last byte dropped", [&](auto& x) { x.body_tail = "\x01"; }, Level::required, Check::canonical_writer, "decode"},
    };
    auto first_difference = [](const std::string& m) {
        const auto at = m.find("; first difference at byte ");
        return at == std::string::npos ? std::string() : m.substr(at, m.find(',', at) - at);
    };
    for (const Want& w : wants) {
        auto x = framing::Layout::parse(canonical);
        ASSERT_TRUE(x);
        w.edit(*x);
        const std::string got = x->serialize();
        CaseResult exact;
        exact.rules = rules;
        add_writer_findings(canonical, got, Check::canonical_writer, exact);
        const std::vector<Finding> bounded = judge_category_bytes(l, got, rules);
        ASSERT_FALSE(exact.findings.empty()) << w.what;
        ASSERT_FALSE(bounded.empty()) << w.what;
        for (const Finding* f : {static_cast<const Finding*>(&exact.findings[0]), &bounded[0]}) {
            const std::string where = std::string(w.what) + (f == &bounded[0] ? " (bounded)" : " (exact)") + ": " + f->message;
            EXPECT_EQ(f->level, w.level) << where;
            EXPECT_EQ(f->check, w.check) << where;
            if (w.check == Check::content) EXPECT_EQ(f->rule, w.rule) << where;
            else EXPECT_NE(f->message.find(writer_rule_tag(w.rule)), std::string::npos) << where;
        }
        EXPECT_EQ(exact.findings[0].rule, bounded[0].rule) << w.what;
        EXPECT_EQ(first_difference(bounded[0].message), first_difference(exact.findings[0].message)) << w.what << ": " << bounded[0].message;
        EXPECT_FALSE(first_difference(bounded[0].message).empty()) << w.what << ": " << bounded[0].message;
        // Through the answer's check: kept in the runner's file, judged the same way.
        for (std::uint64_t exact_up_to : {exact_writer_judge_bytes, std::uint64_t{0}}) {
            auto check = expect_category_bytes(l, rules, got.size() + 4, exact_up_to);
            for (std::size_t at = 0; at < got.size(); at += 7) check->feed(std::string_view(got).substr(at, 7));
            const std::vector<Finding> f = check->finish();
            ASSERT_FALSE(f.empty()) << w.what;
            EXPECT_EQ(f[0].message, (exact_up_to ? exact.findings[0] : bounded[0]).message) << w.what;
        }
    }
}

// The runner keeps a differing answer in a file of its temporary directory: where it cannot, the
// case is not charged for it; the finding says what differs and why it was not judged further.
TEST(LargeEncodeBody, AnAnswerTheRunnerCannotKeepIsNotChargedToTheTestee) {
    const std::string not_a_dir = std::string(OND_TEST_WORK_DIR) + "/tmpdir-is-a-file";
    std::filesystem::create_directories(OND_TEST_WORK_DIR);
    std::ofstream(not_a_dir) << "x";
    const char* before = std::getenv("TMPDIR");
    const std::string saved = before ? before : "";
    ::setenv("TMPDIR", not_a_dir.c_str(), 1);
    auto check = expect_category_bytes(labels_filling_body(small.body), {"R6"}, 1000, 0);
    EXPECT_TRUE(check->feed("ONDX"));
    const std::vector<Finding> f = check->finish();
    if (before) ::setenv("TMPDIR", saved.c_str(), 1);
    else ::unsetenv("TMPDIR");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].level, Level::info);
    EXPECT_EQ(f[0].field, "byte 3");
    EXPECT_EQ(f[0].message.rfind("the bytes differ from the canonical bytes from byte 3; not judged further: no temporary directory: ", 0), 0u)
        << f[0].message;
    // With a directory, the same answer is judged: it does not decode.
    auto judged = expect_category_bytes(labels_filling_body(small.body), {"R6"}, 1000, 0);
    judged->feed("ONDX");
    const std::vector<Finding> g = judged->finish();
    ASSERT_FALSE(g.empty());
    EXPECT_EQ(g[0].level, Level::required);
}

}  // namespace large_encode_test
}  // namespace ond::conformance
