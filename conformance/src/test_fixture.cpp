#include "test_fixture.hpp"

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "suite/cases.hpp"
#include "ond/internal/framing.hpp"
#include "ond/content_json.hpp"
#include "ond/ond.hpp"
#include "ond/corpus_sha256.hpp"

namespace ond::conformance::testing {

using namespace ond::framing;  // Layout and the edit helpers

namespace {

std::string to_string(const std::vector<std::byte>& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// Replaces the one occurrence of a float's bit pattern and re-computes the CRC.
std::string patch_float(std::string bytes, float from, std::uint32_t to_bits) {
    std::string pat(4, '\0');
    put_u32(pat, 0, bits(from));
    auto at = bytes.find(pat);
    if (at == std::string::npos || bytes.find(pat, at + 1) != std::string::npos)
        throw std::logic_error("fixture: float pattern not found exactly once");
    put_u32(bytes, at, to_bits);
    if (static_cast<unsigned char>(bytes[6]) & 1) put_u32(bytes, bytes.size() - 4, crc32_of(std::string_view(bytes).substr(0, bytes.size() - 4)));
    return bytes;
}

Doc make_doc(StringStore& s, const std::string& text) {
    Doc d;
    d.set_text(text);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ') ++j;
        if (j > i) words.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j - i));
        i = j;
    }
    d.tokens.resize(words.size());
    const char* pos[] = {"DET", "ADJ", "ADJ", "NOUN"};
    for (std::size_t k = 0; k < words.size(); ++k) {
        d.tokens.start[k] = words[k].first;
        d.tokens.length[k] = words[k].second;
        std::string w = text.substr(words[k].first, words[k].second);
        d.tokens.column(TokenColumn::norm)[k] = s.intern(w);
        d.tokens.column(TokenColumn::lemma)[k] = s.intern(w);
        d.tokens.column(TokenColumn::pos)[k] = s.intern(pos[k % 4]);
        d.tokens.column(TokenColumn::dep)[k] = s.intern(k + 1 == words.size() ? "ROOT" : "dep");
        d.tokens.head[k] = static_cast<std::int32_t>(words.size() - 1);
        d.tokens.sent[k] = k == 0 ? Sentence::start : Sentence::inside;
        d.tokens.conf[k] = 1.0f;
    }
    return d;
}

}  // namespace

Container basic_container(bool crc, const std::string& text) {
    Container c;
    c.format = Format::ondc;
    c.crc = crc;
    Doc d = make_doc(c.strings, text);
    const float confs[] = {0.1234567f, 0.7654321f, 1.0f, 0.5f};
    for (std::size_t k = 0; k < d.tokens.size() && k < 4; ++k) d.tokens.conf[k] = confs[k];
    d.has_ents = true;
    if (d.tokens.size() >= 4) d.ents.push_back(Entity{3, 1, c.strings.intern("ANIMAL"), 0.8765432f});
    d.has_cats = true;
    d.cats.push_back(Category{c.strings.intern("POS"), 0.3333333f});
    if (d.tokens.size() >= 3) d.spans.push_back(SpanGroup{c.strings.intern("sg"), {Span{1, 2, c.strings.intern("ADJP"), 0.4567891f}}});
    c.docs.push_back(std::move(d));
    return c;
}

namespace {

// Writes a fixture case's files under `dir` and keeps its manifest entry.
struct FixtureWriter {
    std::string dir;
    nlohmann::json cases = nlohmann::json::array();

    void add(const std::string& id, const char* kind, const char* area, const char* verdict, std::vector<std::string> rules,
             const std::string& input, const std::string& ext, const std::optional<std::string>& expected,
             const std::string& exp_ext, const char* error, bool canonical) {
        std::string stem = id;
        for (auto& ch : stem)
            if (ch == '/') ch = '_';
        std::string in_rel = "cases/" + stem + ext;
        write_file(dir + "/" + in_rel, input);
        nlohmann::json c = {{"id", id}, {"kind", kind}, {"area", area}, {"verdict", verdict}, {"rules", rules},
                            {"description", "fixture case " + id}, {"input", in_rel}, {"canonical", canonical}};
        c["sha256"][in_rel] = corpus::sha256_hex(input);
        if (expected) {
            std::string ex_rel = "cases/" + stem + exp_ext;
            write_file(dir + "/" + ex_rel, *expected);
            c["expected"] = ex_rel;
            c["sha256"][ex_rel] = corpus::sha256_hex(*expected);
        } else {
            c["expected"] = nullptr;
        }
        c["error"] = error ? nlohmann::json(error) : nlohmann::json();
        std::string listing_rel = "cases/" + stem + ".txt";  // the real corpus's listings are `ond inspect` output
        write_file(dir + "/" + listing_rel, "listing of " + id + "\n");
        c["listing"] = listing_rel;
        cases.push_back(c);
    }
};

void add_decode_cases(FixtureWriter& w, const std::string& basic_bytes, const std::string& basic_json) {
    w.add("valid/document/basic", "decode", "document", "valid", {"R3", "R6", "R7", "W1"}, basic_bytes, ".ondc", basic_json, ".json",
        nullptr, true);

    Container bin;
    bin.format = Format::ondb;
    bin.crc = true;
    bin.docs.push_back(make_doc(bin.strings, "one two"));
    bin.docs.push_back(make_doc(bin.strings, "three four five"));
    w.add("valid/bin/two-docs", "decode", "bin", "valid", {"R6", "W1"}, to_string(encode(bin)), ".ondb", json::to_json(bin), ".json",
        nullptr, true);

    Container boom = basic_container(false, "boom goes the case");
    w.add("valid/text/boom", "decode", "text", "valid", {"R6"}, to_string(encode(boom)), ".ondc", json::to_json(boom), ".json", nullptr, true);

    Container hang = basic_container(false, "please hang on here");
    w.add("valid/text/hang-marker", "decode", "text", "valid", {"R6"}, to_string(encode(hang)), ".ondc", json::to_json(hang), ".json",
        nullptr, true);

    {
        auto l = Layout::parse(basic_bytes);
        if (!l) throw std::logic_error("fixture: cannot parse the basic container");
        framing::Section unknown;
        unknown.id = 9;
        unknown.content = "xyz";
        l->sections.push_back(unknown);
        w.add("noncanonical/section/unknown-section", "decode", "section", "noncanonical", {"R6", "R7"}, l->serialize(), ".ondc",
            basic_json, ".json", nullptr, false);
    }
    {
        std::string b = basic_bytes;
        b[b.size() - 2] = static_cast<char>(b[b.size() - 2] ^ 0x10);
        w.add("invalid/crc/mismatch", "decode", "crc", "invalid", {"R7"}, b, ".ondc", std::nullopt, "", "crc.mismatch", false);
    }
    w.add("invalid/tokens/nan-confidence", "decode", "tokens", "invalid", {"R3"}, patch_float(basic_bytes, 0.7654321f, 0x7FC00000u), ".ondc",
        std::nullopt, "", "tokens.confidence-out-of-range", false);
    {
        std::string b = basic_bytes;
        b[0] = 'X';
        w.add("invalid/header/bad-magic", "decode", "header", "invalid", {"R6"}, b, ".ondc", std::nullopt, "", "header.bad-magic", false);
    }
    w.add("impl/categories/score-above-one", "decode", "categories", "impl", {"R4"}, patch_float(basic_bytes, 0.3333333f, bits(2.0f)),
        ".ondc", std::nullopt, "", "categories.score-out-of-range", false);
    {
        // What a reader that accepts must give: the score kept as it is.
        Container kept = basic_container(true);
        kept.docs.edit(0, [](ond::Doc& d) { d.cats[0].score = 2.0f; });
        std::string rel = "cases/impl_categories_score-above-one.if-accepted.json";
        std::string text = json::to_json(kept);
        write_file(w.dir + "/" + rel, text);
        w.cases.back()["if_accepted"] = rel;
        w.cases.back()["sha256"][rel] = corpus::sha256_hex(text);
    }
}

void add_stream_and_encode_cases(FixtureWriter& w, const std::string& basic_bytes, const std::string& basic_json) {
    Container plain = basic_container(false, "a second doc");
    std::string plain_bytes = to_string(encode(plain));
    w.add("valid/stream/two-docs", "stream", "stream", "valid", {"R25"}, basic_bytes + plain_bytes, ".stream",
        basic_json + "\n" + json::to_json(plain) + "\n", ".jsonl", nullptr, true);
    w.add("invalid/stream/truncated", "stream", "stream", "invalid", {"R25"}, basic_bytes + plain_bytes.substr(0, 20), ".stream",
        basic_json + "\n", ".jsonl", "stream.truncated", false);

    w.add("valid/encode/basic", "encode", "encode", "valid", {"W1"}, basic_json, ".json", basic_bytes, ".ondc", nullptr, true);
    {
        auto j = nlohmann::json::parse(basic_json);
        j["doc"]["tokens"][0]["head"] = 99;
        w.add("invalid/encode/head-out-of-range", "encode", "encode", "invalid", {"W1"}, j.dump(), ".json", std::nullopt, "",
            "content.head-out-of-range", false);
    }
}

void write_manifest_and_rules(const FixtureWriter& w) {
    nlohmann::json manifest = {{"corpus_version", "0.0.1-test"}, {"format_version", 1}, {"generator", "conformance test fixture"},
                               {"cases", w.cases}};
    write_file(w.dir + "/manifest.json", manifest.dump(1));
    nlohmann::json rules = {{"rules",
                             {{{"id", "R3"}, {"title", "confidences"}, {"doc", "docs/rulings.md#r3"}},
                              {{"id", "R4"}, {"title", "category scores"}},
                              {{"id", "R6"}, {"title", "header"}},
                              {{"id", "R7"}, {"title", "CRC"}},
                              {{"id", "R25"}, {"title", "streams"}},
                              {{"id", "W1"}, {"title", "canonical writer"}},
                              {{"id", "R99"}, {"title", "a rule without a case"}}}}};
    write_file(w.dir + "/rules.json", rules.dump(1));
}

}  // namespace

std::string build_fixture_corpus(const std::string& dir) {
    std::filesystem::create_directories(dir + "/cases");
    FixtureWriter w{dir};
    const Container basic = basic_container(true);
    const std::string basic_bytes = to_string(encode(basic));
    const std::string basic_json = json::to_json(basic);
    add_decode_cases(w, basic_bytes, basic_json);
    add_stream_and_encode_cases(w, basic_bytes, basic_json);
    write_manifest_and_rules(w);
    return dir;
}

std::string bytes_of(const Container& c) {
    auto b = encode(c);
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

}  // namespace ond::conformance::testing
