// Tests of what the corpus gives a consumer of its files alone: canonical bytes of non-canonical
// cases, the string table's orders of encode cases, former ids, confidence-mode cases that a
// lenient mode reader accepts, and NaN scores whose bits must survive. They read the checked-in
// corpus through the manifest reader (corpus.up-to-date keeps it equal to the generator's).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "generator.hpp"
#include "ond/content_json.hpp"
#include "ond/corpus_manifest.hpp"
#include "ond/reader.hpp"
#include "ond/writer.hpp"
#include "table_order.hpp"

namespace fs = std::filesystem;
using namespace ond::corpus;
using gen::Buf;

// A namespace of its own: the unity build may put this file beside corpus_test.cpp.
namespace consumer_files_test {
namespace {

const fs::path source = OND_CORPUS_SOURCE_DIR;

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

Buf buf(const std::string& s) { return Buf(s.begin(), s.end()); }

ond::Container decode(const Buf& b) { return ond::decode(ond::as_bytes(b.data(), b.size())); }

const Manifest& manifest() {
    static const Manifest m = Manifest::read(source.string());
    return m;
}

const ManifestCase& by_id(const std::string& id) {
    for (const ManifestCase& c : manifest().cases)
        if (c.id == id) return c;
    throw std::out_of_range("no case " + id);
}

// Every non-canonical decode case names its canonical bytes: the reference's encoding of the
// case's content, which decode to that content; no other case has them.
TEST(ConsumerFiles, NonCanonicalCasesCarryCanonicalBytes) {
    ASSERT_TRUE(manifest().problems.empty());
    int n = 0;
    for (const ManifestCase& c : manifest().cases) {
        const bool wanted = c.kind == CaseKind::decode && c.verdict == CaseVerdict::noncanonical;
        ASSERT_EQ(!c.canonical_bytes.empty(), wanted) << c.id;
        if (!wanted) continue;
        ++n;
        const std::string ext = c.input.substr(c.input.rfind('.'));
        EXPECT_EQ(c.canonical_bytes, "cases/" + c.id + ".canonical" + ext);
        std::vector<std::string> problems;
        const Buf canon = buf(manifest().read_checked(c, c.canonical_bytes, problems));
        EXPECT_TRUE(problems.empty()) << c.id;
        const ond::Container content = decode(buf(manifest().read_checked(c, c.input, problems)));
        EXPECT_EQ(gen::to_buf(ond::encode(content)), canon) << c.id;
        EXPECT_NE(buf(slurp(source / c.input)), canon) << c.id;
        EXPECT_TRUE(ond::same_content(decode(canon), ond::json::from_json(slurp(source / c.expected)))) << c.id;
    }
    EXPECT_EQ(n, 48);
}

// The two orders differ where the columns and the tokens meet strings in another order.
TEST(ConsumerFiles, FirstUseOrders) {
    ond::Container c = gen::ondc();
    ond::Doc d = gen::new_doc("a b");
    gen::add_token(c, d, 0, 1, gen::Attrs{"x", "y"}, -1, ond::Sentence::start);
    gen::add_token(c, d, 2, 1, gen::Attrs{"z", "x"}, 0, ond::Sentence::inside);
    gen::add_ent(c, d, 0, 1, "E");
    c.docs.push_back(d);
    EXPECT_EQ(gen::first_use_order(c, false), (std::vector<std::string>{"x", "z", "y", "E"}));
    EXPECT_EQ(gen::first_use_order(c, true), (std::vector<std::string>{"x", "y", "z", "E"}));
    EXPECT_EQ(gen::stored_table(gen::canonical(c)), gen::first_use_order(c, false));
    EXPECT_EQ(gen::table_json(c), "{\n \"canonical\": [\n  \"x\",\n  \"z\",\n  \"y\",\n  \"E\"\n ],\n"
                                  " \"token_by_token\": [\n  \"x\",\n  \"y\",\n  \"z\",\n  \"E\"\n ]\n}\n");
    EXPECT_FALSE(gen::stored_table(Buf{'O', 'N', 'D', 'C'}));
}

// Every encode case whose content has strings (and only those) names its table orders; the
// canonical one is the table of its expected bytes.
TEST(ConsumerFiles, EncodeCasesCarryStringTableOrders) {
    int with = 0, differing = 0;
    for (const ManifestCase& c : manifest().cases) {
        if (c.kind != CaseKind::encode || c.verdict == CaseVerdict::invalid) {
            EXPECT_TRUE(c.string_table.empty()) << c.id;
            continue;
        }
        const ond::Container content = ond::json::from_json(slurp(source / c.input));
        const Buf bytes = buf(slurp(source / (c.verdict == CaseVerdict::valid ? c.expected : c.if_accepted)));
        const auto table = gen::stored_table(bytes);
        ASSERT_TRUE(table) << c.id;
        ASSERT_EQ(c.string_table.empty(), table->empty()) << c.id;
        if (table->empty()) continue;
        ++with;
        EXPECT_EQ(c.string_table, "cases/" + c.id + ".table.json");
        std::vector<std::string> problems;
        const auto j = nlohmann::json::parse(manifest().read_checked(c, c.string_table, problems));
        EXPECT_TRUE(problems.empty()) << c.id;
        ASSERT_EQ(j.size(), 2u);
        EXPECT_EQ(j.at("canonical").size(), table->size()) << c.id;
        EXPECT_EQ(j.at("token_by_token").size(), table->size()) << c.id;
        EXPECT_EQ(gen::first_use_order(content, false), *table) << c.id;
        if (j.at("canonical") != j.at("token_by_token")) ++differing;
    }
    EXPECT_EQ(with, 35);
    EXPECT_EQ(differing, 29);
    // A string with an unpaired surrogate is spelled as the content model spells it.
    const std::string lone = slurp(source / "cases/encode/encode/utf16-lone-surrogate-string.table.json");
    EXPECT_NE(lone.find("\"utf16\""), std::string::npos) << lone;
}

// A bad confidence mode followed by a mode-1 payload reads, with the mode byte set to 1, as
// sensible content (so a reader that reads every non-zero mode as 1 fails the verdict); the
// same mode with nothing after it reads as mode 0 instead. Both kinds are there for each mode.
TEST(ConsumerFiles, ConfidenceModeCasesCatchBothLenientReaders) {
    for (const char* mode : {"2", "128", "255"}) {
        const std::string base = std::string("invalid/tokens/confidence-mode-") + mode;
        const ManifestCase& with_floats = by_id(base);
        EXPECT_EQ(with_floats.error, "tokens.bad-confidence-mode");
        const Buf in = buf(slurp(source / with_floats.input));
        const std::size_t at = in.size() - 9;  // the mode, then two floats (no trailer)
        ASSERT_EQ(std::to_string(in[at]), mode);
        const ond::Container as_one = decode(gen::with_byte(in, at, 1));
        const auto& conf = as_one.docs[0].tokens.conf;
        ASSERT_EQ(conf.size(), 2u);
        EXPECT_EQ(conf[0], 0.25f);
        EXPECT_EQ(conf[1], 0.75f);
        EXPECT_THROW(decode(gen::with_byte(in, at, 0)), ond::Error);

        const ManifestCase& bare = by_id(base + "-no-floats");
        const Buf none = buf(slurp(source / bare.input));
        ASSERT_EQ(std::to_string(none.back()), mode);
        EXPECT_TRUE(ond::same_content(decode(gen::with_byte(none, none.size() - 1, 0)), gen::tiny()));
        EXPECT_THROW(decode(gen::with_byte(none, none.size() - 1, 1)), ond::Error);
    }
    const auto m = nlohmann::json::parse(slurp(source / "manifest.json"));
    std::set<std::string> isolating;
    for (const auto& c : m.at("cases"))
        if (c.value("isolates", "") == "tokens.bad-confidence-mode") isolating.insert(c.at("id").get<std::string>());
    EXPECT_EQ(isolating, (std::set<std::string>{"invalid/tokens/confidence-mode-128", "invalid/tokens/confidence-mode-2",
                                                "invalid/tokens/confidence-mode-255"}));
}

// NaN scores other than 0x7FC00000, quiet and signalling, both signs: the if-accepted content
// keeps each pattern, and an encode-impl case's bytes carry it exactly.
TEST(ConsumerFiles, NanScoresKeepTheirBits) {
    const std::pair<const char*, std::uint32_t> nans[] = {
        {"nan", 0x7FC00000u}, {"nan-payload", 0x7FC00001u}, {"negative-nan", 0xFFC00000u},
        {"signalling-nan", 0x7F800001u}, {"negative-signalling-nan", 0xFF812345u}};
    for (const auto& [name, bits] : nans) {
        const std::string spelled = "{\"f32bits\": " + std::to_string(bits) + "}";
        const ManifestCase& read = by_id(std::string("impl/categories/score-") + name);
        EXPECT_NE(slurp(source / read.if_accepted).find("\"score\": " + spelled), std::string::npos) << name;
        const Buf in = buf(slurp(source / read.input));
        const Buf le = {static_cast<std::uint8_t>(bits), static_cast<std::uint8_t>(bits >> 8),
                        static_cast<std::uint8_t>(bits >> 16), static_cast<std::uint8_t>(bits >> 24)};
        EXPECT_NE(std::search(in.begin(), in.end(), le.begin(), le.end()), in.end()) << name;

        const ManifestCase& write = by_id(std::string("encode-impl/encode/category-score-") + name);
        EXPECT_NE(slurp(source / write.input).find(R"("f32bits":)"), std::string::npos) << name;
        const Buf out = buf(slurp(source / write.if_accepted));
        EXPECT_NE(std::search(out.begin(), out.end(), le.begin(), le.end()), out.end()) << name;
        const ond::Container content = ond::json::from_json(slurp(source / write.input));
        EXPECT_EQ(std::bit_cast<std::uint32_t>(content.docs[0].cats[1].score), bits) << name;
    }
}

// Former ids: the manifest carries them, and the generator refuses one that is a current id.
TEST(ConsumerFiles, FormerIds) {
    const auto m = nlohmann::json::parse(slurp(source / "manifest.json"));
    const auto former = nlohmann::json::parse(slurp(source / "former-ids.json"));
    std::size_t listed = 0;
    for (const auto& c : m.at("cases")) {
        const std::string id = c.at("id");
        if (!c.contains("former_ids")) {
            EXPECT_FALSE(former.contains(id)) << id;
            continue;
        }
        ++listed;
        EXPECT_EQ(c.at("former_ids"), former.at(id));
    }
    EXPECT_EQ(listed, former.size());

    const fs::path src = fs::temp_directory_path() / ("ond-former-ids-" + std::to_string(::getpid()));
    fs::create_directories(src);
    std::ofstream(src / "rules.json") << slurp(source / "rules.json");
    std::ofstream(src / "former-ids.json")
        << R"({"valid/tokens/adjacent": ["invalid/tokens/gap-max"], "valid/tokens/gone": ["x/y"]})";
    gen::Registry r;
    r.area("tokens");
    r.valid("adjacent", {"R18"}, "a valid case", gen::tiny());
    r.invalid("gap-max", {"R18"}, "an invalid case", gen::edit(gen::tiny(), [](gen::raw::Canon& k) {
                  k.docs[0].tokens->gap[1] = gen::V(0xFFFFFFFFu);
              }),
              "tokens.out-of-text");
    try {
        gen::generate(r.cases(), src);
        ADD_FAILURE() << "a former id that is a current id was accepted";
    } catch (const gen::GenError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("valid/tokens/adjacent: former id invalid/tokens/gap-max is also a current id"), std::string::npos)
            << msg;
        EXPECT_NE(msg.find("former-ids.json: valid/tokens/gone is not a current case id"), std::string::npos) << msg;
    }
    fs::remove_all(src);
}

}  // namespace
}  // namespace consumer_files_test
