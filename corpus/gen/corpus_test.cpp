// Tests of the generator's pieces: the raw writer, SHA-256, regressions, check and export.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "case.hpp"
#include "common.hpp"
#include "generator.hpp"
#include "corpus_cli.hpp"
#include "ond/writer.hpp"
#include "ond/corpus_sha256.hpp"

namespace fs = std::filesystem;
using namespace ond::corpus;
using gen::Buf;

namespace {

// The regression inputs listed in the source tree's corpus/regressions/index.json.
std::size_t regression_count() {
    std::ifstream f(fs::path(OND_CORPUS_SOURCE_DIR) / "regressions" / "index.json");
    return nlohmann::json::parse(f).at("regressions").size();
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void spit(const fs::path& p, std::string_view bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

fs::path temp_dir(const std::string& name) {
    fs::path p = fs::temp_directory_path() / ("ond-corpus-test-" + name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

int run_corpus(std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return corpus_main(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST(RawWriter, VarintMinimalAndPadded) {
    raw::Writer w;
    w.varint(0).varint(127).varint(128).varint(300).varint(0xFFFFFFFFu);
    EXPECT_EQ(w.out, (Buf{0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F}));
    raw::Writer p;
    p.varint(0, 1).varint(1, 4).varint(5, 5);
    EXPECT_EQ(p.out, (Buf{0x80, 0x00, 0x81, 0x80, 0x80, 0x80, 0x00, 0x85, 0x80, 0x80, 0x80, 0x80, 0x00}));
}

TEST(RawWriter, ZigZag) {
    EXPECT_EQ(raw::zigzag(0), 0u);
    EXPECT_EQ(raw::zigzag(-1), 1u);
    EXPECT_EQ(raw::zigzag(1), 2u);
    EXPECT_EQ(raw::zigzag(-2), 3u);
    EXPECT_EQ(raw::zigzag(2147483647), 0xFFFFFFFEu);
    EXPECT_EQ(raw::zigzag(-2147483647 - 1), 0xFFFFFFFFu);
}

TEST(RawWriter, StringsSectionsContainer) {
    raw::Writer w;
    w.string("ab").string(std::string_view("a\0", 2), true).string("x", false, 9u);
    EXPECT_EQ(w.out, (Buf{0x04, 'a', 'b', 0x05, 'a', 0x00, 0x09, 'x'}));
    raw::Writer s;
    s.section(2, Buf{0, 'h'}).section(3, Buf{}, 7u);
    EXPECT_EQ(s.out, (Buf{2, 2, 0, 0, 0, 0, 'h', 3, 7, 0, 0, 0}));
    raw::ContainerSpec spec;
    spec.crc = true;
    const Buf c = raw::container(spec, Buf{1, 2, 3});
    ASSERT_EQ(c.size(), 12u + 3u + 4u);
    EXPECT_EQ(Buf(c.begin(), c.begin() + 12), (Buf{'O', 'N', 'D', 'C', 1, 0, 1, 0, 3, 0, 0, 0}));
    const std::uint32_t crc = raw::crc32_of(c, 15);
    EXPECT_EQ(Buf(c.begin() + 15, c.end()),
              (Buf{static_cast<std::uint8_t>(crc), static_cast<std::uint8_t>(crc >> 8), static_cast<std::uint8_t>(crc >> 16),
                   static_cast<std::uint8_t>(crc >> 24)}));
    spec.body_length = 99;
    spec.crc_value = 0xAABBCCDDu;
    spec.flags = 3;
    const Buf f = raw::container(spec, Buf{});
    EXPECT_EQ(f, (Buf{'O', 'N', 'D', 'C', 1, 0, 3, 0, 99, 0, 0, 0, 0xDD, 0xCC, 0xBB, 0xAA}));
}

// The raw writer's canonical picture and the codec's writer agree on every kind of content.
TEST(RawWriter, CanonicalPictureMatchesEncoder) {
    for (const ond::Container& c : {gen::sample(), gen::sample(true), gen::tiny(), gen::empty_doc(), gen::counted(300)}) {
        const auto enc = ond::encode(c);
        const Buf b = gen::canonical(c);
        ASSERT_EQ(b.size(), enc.size());
        EXPECT_TRUE(std::equal(b.begin(), b.end(), enc.begin(), [](std::uint8_t x, std::byte y) { return x == static_cast<std::uint8_t>(y); }));
    }
}

TEST(Sha256, KnownVectors) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000, 'a')), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    // 55, 56 and 64 bytes: the padding boundaries.
    EXPECT_EQ(sha256_hex(std::string(55, 'x')), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
    EXPECT_EQ(sha256_hex(std::string(64, 'x')), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
}

// A generator run on a small source folder: the regression path, write, check and stale files.
TEST(Generator, RegressionsWriteAndCheck) {
    const fs::path src = temp_dir("src");
    spit(src / "rules.json", slurp(fs::path(OND_CORPUS_SOURCE_DIR) / "rules.json"));
    const Buf bad = gen::edit(gen::tiny(), [](raw::Canon& k) { k.docs[0].tokens->head[1] = gen::SV(7); });
    spit(src / "regressions" / "head-crash.ondc", std::string(bad.begin(), bad.end()));
    spit(src / "regressions" / "index.json",
         R"({"regressions": [{"file": "head-crash.ondc", "harness": "decode_fuzzer", "date": "2024-05-01",)"
         R"( "area": "tokens", "rules": ["R19"], "description": "a head far past the end"}]})");
    gen::Tree t;
    try {
        t = gen::generate(gen::all_cases(), src);
    } catch (const gen::GenError& e) {
        FAIL() << e.what();
    }
    ASSERT_TRUE(t.count("regressions/head-crash.txt"));
    ASSERT_TRUE(t.count("regressions/head-crash.ondc"));
    const auto manifest = t.at("manifest.json");
    EXPECT_NE(manifest.find("\"regressions/head-crash\""), std::string::npos);
    EXPECT_NE(manifest.find("\"harness\": \"decode_fuzzer\""), std::string::npos);
    EXPECT_NE(manifest.find("\"error\": \"tokens.head-out-of-range\""), std::string::npos);

    const fs::path out = temp_dir("out");
    fs::copy(src, out, fs::copy_options::recursive);
    gen::write_tree(t, out);
    EXPECT_TRUE(gen::check_tree(t, out).empty());
    // One changed byte and one stray file are both reported.
    spit(out / "cases" / "valid" / "header" / "empty-document.ondc", "x");
    spit(out / "cases" / "valid" / "header" / "stray.ondc", "y");
    const auto diffs = gen::check_tree(t, out);
    ASSERT_EQ(diffs.size(), 2u);
    EXPECT_EQ(diffs[0].rfind("differs: cases/valid/header/empty-document.ondc", 0), 0u);
    EXPECT_EQ(diffs[1], "not generated (stale or hand-made): cases/valid/header/stray.ondc");
    gen::write_tree(t, out);
    EXPECT_TRUE(gen::check_tree(t, out).empty());

    // ond corpus export copies everything and writes VERSION with a digest per file.
    const fs::path exp = temp_dir("export");
    EXPECT_EQ(run_corpus({"corpus", "--corpus", out.string(), "export", exp.string()}), 0);
    const std::string version = slurp(exp / "VERSION");
    EXPECT_EQ(version.rfind("format_version 1\ncorpus_version " + std::string(gen::corpus_version) + "\n", 0), 0u);
    EXPECT_NE(version.find(sha256_hex(slurp(out / "manifest.json")) + "  manifest.json\n"), std::string::npos);
    EXPECT_EQ(slurp(exp / "regressions" / "head-crash.ondc"), std::string(bad.begin(), bad.end()));
    EXPECT_EQ(run_corpus({"corpus", "--corpus", out.string(), "list", "--verdict", "impl"}), 0);
    EXPECT_EQ(run_corpus({"corpus", "--corpus", out.string(), "frobnicate"}), 2);
    // A corpus whose file does not match the manifest is not exported.
    spit(out / "regressions" / "head-crash.ondc", "tampered");
    EXPECT_EQ(run_corpus({"corpus", "--corpus", out.string(), "export", (exp / "again").string()}), 1);
    fs::remove_all(src);
    fs::remove_all(out);
    fs::remove_all(exp);
}

// A case that claims the wrong verdict is caught, never written.
TEST(Generator, WrongCaseFailsLoudly) {
    gen::Registry r;
    r.area("tokens");
    r.invalid("not-really-invalid", {"R19"}, "a valid document declared invalid", gen::canonical(gen::tiny()),
              "tokens.head-out-of-range");
    r.noncanonical("not-really-noncanonical", {"R1"}, "canonical bytes declared non-canonical", gen::canonical(gen::tiny()),
                   gen::tiny());
    try {
        gen::generate(r.cases(), OND_CORPUS_SOURCE_DIR);
        FAIL() << "generate accepted wrong cases";
    } catch (const gen::GenError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("invalid/tokens/not-really-invalid: expected rejection with tokens.head-out-of-range, the reference accepted"),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find("noncanonical/tokens/not-really-noncanonical: a non-canonical case re-encodes to the same bytes"),
                  std::string::npos)
            << msg;
        // Only the regression inputs of the source tree (corpus/regressions) count besides the two.
        EXPECT_NE(msg.find("coverage: only " + std::to_string(regression_count()) + " cases (at least 400 wanted)"),
                  std::string::npos)
            << msg;
    }
}

// If-accepted content is checked against the case's own bytes, and encode-impl content must be
// refused by the reference only by choice.
TEST(Generator, WrongIfAcceptedContentFailsLoudly) {
    gen::Registry r;
    r.area("section");
    const ond::Container t = gen::tiny();
    const Buf misplaced = gen::edit_sections(t, [](raw::Sections& x) { x.push_back(raw::RSection{5, Buf{0, 0, 0, 0}, {}}); });
    r.impl("skipped-section-other-content", {"R9"}, "if-accepted content that is not the input read without section 5",
           misplaced, "section.misplaced", gen::sample(), gen::canonical(t));
    r.area("categories");
    const ond::Container s = gen::sample();
    const Buf nan_score = gen::edit(s, [](raw::Canon& k) { k.docs[0].cats->cats[0].score = 0x7FC00000u; });
    r.impl("kept-score-other-value", {"R4"}, "if-accepted content whose score is not the input's",
           nan_score, "categories.score-out-of-range", gen::with(s, [](ond::Doc& d) { d.cats[0].score = 2.0f; }));
    auto last_label = [&](const char* stored) {
        return gen::edit(s, [stored](raw::Canon& k) {
            k.table.entries.push_back(raw::utf8(stored));
            k.docs[0].cats->cats[1].label = gen::V(static_cast<std::uint32_t>(k.table.entries.size()));
        });
    };
    r.impl("marker-means-other-label", {"R15"}, "a marker that stands for 'x', not for the empty label",
           last_label(""), "categories.label-empty", gen::with(s, [](ond::Doc& d) { d.cats[1].label = 0; }),
           gen::ReadAlike{last_label("~m~"), "~m~", "x"});
    r.area("encode");
    r.encode_impl("writable-content", {"R4"}, "content the reference writes is not implementation-defined", t,
                  "content.score-out-of-range");
    r.area("stream");
    r.stream("if-accepted-short", gen::CaseVerdict::impl, {"R25"}, "if-accepted containers that miss the bin",
             raw::concat({gen::canonical(t), gen::canonical(gen::ondb())}), {t}, "stream.bin-in-stream", {t});
    try {
        gen::generate(r.cases(), OND_CORPUS_SOURCE_DIR);
        FAIL() << "generate accepted wrong if-accepted content";
    } catch (const gen::GenError& e) {
        const std::string msg = e.what();
        for (const char* want : {
                 "impl/section/skipped-section-other-content: the if-accepted content differs from the reference's "
                 "reading of the bytes read alike: doc.text: expected \"Ada Lovelace met",
                 "impl/categories/kept-score-other-value: the input is not the picture of its if-accepted content, and "
                 "no bytes read alike check it",
                 "impl/categories/marker-means-other-label: the if-accepted content differs from the reference's "
                 "reading of the bytes read alike: doc.cats[1].label: expected \"\", got \"x\"",
                 "encode-impl/encode/writable-content: expected refusal content.score-out-of-range, the reference gave ''",
                 "encode-impl/encode/writable-content: the if-accepted bytes should meet an implementation-defined "
                 "fault in the reference reader, it accepted",
                 "impl/stream/if-accepted-short: the if-accepted containers are not the whole input",
             })
            EXPECT_NE(msg.find(want), std::string::npos) << want << "\n" << msg;
    }
}

// The manifest names every impl case's if-accepted file, hashed like its other files.
TEST(Generator, ImplCasesCarryIfAcceptedFiles) {
    gen::Tree t;
    try {
        t = gen::generate(gen::all_cases(), OND_CORPUS_SOURCE_DIR);
    } catch (const gen::GenError& e) {
        FAIL() << e.what();
    }
    const auto m = nlohmann::json::parse(t.at("manifest.json"));
    int impl = 0;
    for (const auto& c : m.at("cases")) {
        const bool is_impl = c.at("verdict") == "impl";
        ASSERT_EQ(c.contains("if_accepted"), is_impl) << c.at("id");
        if (!is_impl) continue;
        ++impl;
        const std::string path = c.at("if_accepted");
        ASSERT_TRUE(t.count(path)) << path;
        EXPECT_EQ(c.at("sha256").at(path), sha256_hex(t.at(path))) << path;
        const std::string kind = c.at("kind");
        const std::string ext = kind == "decode" ? ".if-accepted.json" : kind == "stream" ? ".if-accepted.jsonl" : ".if-accepted.ondc";
        EXPECT_EQ(path, "cases/" + c.at("id").get<std::string>() + ext);
    }
    EXPECT_EQ(impl, 45);
    // A NaN score survives as its bit pattern; the skipped section leaves the document as it was.
    EXPECT_NE(t.at("cases/impl/categories/score-nan.if-accepted.json").find(R"("score": {"f32bits": 2143289344})"),
              std::string::npos);
    EXPECT_EQ(t.at("cases/impl/section/records-in-ondc.if-accepted.json"), t.at("cases/valid/section/all-sections.json"));
    // Revision 2: a section 4 without tokens and a section 7 without groups are implementation-
    // defined (R22, R24), and the writer leaves both out.
    EXPECT_TRUE(t.count("cases/impl/entities/annotated-none-no-tokens.ondc"));
    EXPECT_FALSE(t.count("cases/noncanonical/entities/annotated-none-no-tokens.ondc"));
    EXPECT_TRUE(t.count("cases/impl/spans/zero-groups.if-accepted.json"));
    EXPECT_FALSE(t.count("cases/noncanonical/spans/zero-groups.ondc"));
    const std::string none = t.at("cases/encode/encode/no-section-4-without-tokens.ondc");
    EXPECT_EQ(none.size(), 12u + 6 + 6 + 7u);  // header, table (count 0), text (encoding only), tokens (n 0, mode 0)
}

namespace ond::corpus {
namespace {

// R9: sections 6 and 7 of a record may be skipped or read as the record's own; the manifest lists
// the second content in `if_accepted_also`, and the manifest reader gives both.
TEST(Generator, RecordExtrasListBothContents) {
    gen::Tree t;
    try {
        t = gen::generate(gen::all_cases(), OND_CORPUS_SOURCE_DIR);
    } catch (const gen::GenError& e) {
        FAIL() << e.what();
    }
    const auto m = nlohmann::json::parse(t.at("manifest.json"));
    int with_also = 0;
    for (const auto& c : m.at("cases")) {
        if (!c.contains("if_accepted_also")) continue;
        ++with_also;
        const std::string id = c.at("id");
        EXPECT_TRUE(id == "impl/bin/section-6-in-record" || id == "impl/bin/section-7-in-record") << id;
        ASSERT_EQ(c.at("if_accepted_also").size(), 1u);
        const std::string also = c.at("if_accepted_also")[0];
        EXPECT_EQ(also, "cases/" + id + ".if-accepted-2.json");
        EXPECT_EQ(c.at("sha256").at(also), sha256_hex(t.at(also)));
        EXPECT_NE(t.at(also), t.at(c.at("if_accepted").get<std::string>()));
        EXPECT_NE(t.at(also).find(R"("extra")"), std::string::npos) << also;
    }
    EXPECT_EQ(with_also, 2);
}

}  // namespace
}  // namespace ond::corpus

namespace ond::corpus {
namespace {

// The manifest reader takes more than one acceptable content either as `if_accepted_also` or as
// an `if_accepted` array (its first entry the if-accepted file), and still a plain string.
TEST(Manifest, ReadsEveryAcceptableContent) {
    const fs::path dir = fs::temp_directory_path() / ("ond-manifest-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "manifest.json") << R"({"corpus_version": "3.0.0", "format_version": 1, "cases": [
        {"id": "impl/a", "kind": "decode", "verdict": "impl", "input": "a.ondc", "if_accepted": "a.json",
         "if_accepted_also": ["a-2.json", "a-3.json"]},
        {"id": "impl/b", "kind": "decode", "verdict": "impl", "input": "b.ondc", "if_accepted": ["b.json", "b-2.json"]},
        {"id": "impl/c", "kind": "decode", "verdict": "impl", "input": "c.ondc", "if_accepted": "c.json"}]})";
    const Manifest m = Manifest::read(dir.string());
    fs::remove_all(dir);
    ASSERT_TRUE(m.problems.empty());
    ASSERT_EQ(m.cases.size(), 3u);
    EXPECT_EQ(m.cases[0].if_accepted, "a.json");
    EXPECT_EQ(m.cases[0].if_accepted_also, (std::vector<std::string>{"a-2.json", "a-3.json"}));
    EXPECT_EQ(m.cases[1].if_accepted, "b.json");
    EXPECT_EQ(m.cases[1].if_accepted_also, (std::vector<std::string>{"b-2.json"}));
    EXPECT_EQ(m.cases[2].if_accepted, "c.json");
    EXPECT_TRUE(m.cases[2].if_accepted_also.empty());
}

}  // namespace
}  // namespace ond::corpus
