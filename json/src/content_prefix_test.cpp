// ContentPrefix: refuses at the first byte after which no text is content JSON, and never a
// prefix of text from_json accepts.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ond/content_json.hpp"
#include "ond/error.hpp"

namespace {

using ond::json::ContentPrefix;
using ond::json::from_json;
using ond::json::JsonError;

// The message of the refusal when `text` is fed in pieces of `piece` bytes, "" when none.
std::string refusal_in_pieces(std::string_view text, std::size_t piece) {
    ContentPrefix p;
    try {
        for (std::size_t at = 0; at < text.size(); at += piece) p.feed(text.substr(at, piece));
    } catch (const JsonError& e) {
        return e.what();
    }
    return {};
}

// The refusal byte by byte; the same whole and in pieces of a few bytes (runs of plain string
// bytes and blanks are taken a run at a time, and a run may end with a piece).
std::string refusal(std::string_view text) {
    const std::string bytewise = refusal_in_pieces(text, 1);
    for (std::size_t piece : {std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{64}, text.size() + 1})
        EXPECT_EQ(refusal_in_pieces(text, piece), bytewise) << "pieces of " << piece << ": " << text.substr(0, 80);
    return bytewise;
}

bool from_json_accepts(const std::string& text) {
    try {
        (void)from_json(text);
        return true;
    } catch (const JsonError&) {
        return false;
    } catch (const ond::Error&) {
        return true;  // well-formed content the writer would refuse
    }
}

// Content from_json accepts, the deepest the model nests included: an ONDB record's span label
// as UTF-16 units (9 open values), escapes, exponents, negative zero, blanks everywhere.
const std::vector<std::string> valid = {
    R"({"format":"ONDC","crc":false,"doc":{"text":"hi","tokens":[],"ents":null,"cats":null,"spans":[]}})",
    " \r\n\t{ \"format\" : \"ONDB\" , \"crc\" : true , \"docs\" : [ ] } \n",
    R"({"format":"ONDB","crc":false,"docs":[{"text":"a\u00e9\n\"\\\/","tokens":[{"start":0,"length":1,"norm":{"utf16":[55296]},)"
    R"("lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":1,"conf":-0.0}],"ents":[],"cats":null,)"
    R"("spans":[{"name":"g","spans":[{"start":0,"length":1,"label":{"utf16":[97,55296]},"conf":1e-5}]}]}]})",
    R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":[{"label":"x","score":{"f32bits":2143289344}},)"
    R"({"label":"y","score":12.5E+3}],"spans":[]}})",
};

TEST(ContentPrefix, NeverRefusesContentJsonNorAnyOfItsPrefixes) {
    for (const std::string& text : valid) {
        ASSERT_TRUE(from_json_accepts(text)) << text;
        EXPECT_EQ(refusal(text), "") << text;
        ContentPrefix whole;
        EXPECT_NO_THROW(whole.feed(text)) << text;
        EXPECT_EQ(whole.bytes(), text.size());
    }
}

TEST(ContentPrefix, RefusesAtTheFirstHopelessByte) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"a", "JSON error at byte 0: 'a' cannot start content JSON, which is an object"},
        {std::string("\0\0\0", 3), "JSON error at byte 0: byte 0x00 cannot start content JSON, which is an object"},
        {"  [1]", "JSON error at byte 2: '[' cannot start content JSON, which is an object"},
        {"\xEF\xBB\xBF{}", "JSON error at byte 0: byte 0xEF cannot start content JSON, which is an object"},
        {R"({"a" 1)", "JSON error at byte 5: '1' where ':' must follow an object's key"},
        {R"({"a":01)", "JSON error at byte 6: a number with a leading zero"},
        {R"({"a":-x)", "JSON error at byte 6: 'x' where a digit must follow '-'"},
        {R"({"a":1.e)", "JSON error at byte 7: 'e' where a digit must follow '.'"},
        {R"({"a":1e+})", "JSON error at byte 8: '}' where an exponent's digit must come"},
        {R"({"a":1 2)", "JSON error at byte 7: '2' where ',' or '}' must follow a value"},
        {R"({"a":[1}])", "JSON error at byte 7: '}' where ',' or ']' must follow a value"},
        {R"({"a":tru e)", "JSON error at byte 8: ' ' in a literal (true, false or null)"},
        {R"({"a":"\q")", "JSON error at byte 7: 'q' is not an escape"},
        {R"({"a":"\u12G4")", "JSON error at byte 10: 'G' in a \\u escape"},
        {"{\"a\":\"\x01", "JSON error at byte 6: a control character (byte 0x01) in a string"},
        {R"({,)", "JSON error at byte 1: ',' where an object's key must start"},
        {R"({"a":1,})", "JSON error at byte 7: '}' where an object's key must start"},
        {R"({"a":[,)", "JSON error at byte 6: ',' cannot start a JSON value"},
        {R"({} x)", "JSON error at byte 3: 'x' after the end of the content JSON"},
        {R"({"a":[[[[[[[[[1]]]]]]]]]})", "JSON error at byte 13: nesting deeper than 9, which no content JSON has"},
        // Long runs, each ended by the byte that is refused.
        {"{\"a\":\"" + std::string(1000, 'x') + "\x1F", "JSON error at byte 1006: a control character (byte 0x1F) in a string"},
        {"{\"" + std::string(300, 'k') + "\\u00e9" + std::string(300, 'k') + "\"" + std::string(500, ' ') + "1",
         "JSON error at byte 1109: '1' where ':' must follow an object's key"},
        {"{}" + std::string(1000, ' ') + "\n\t\r" + "x", "JSON error at byte 1005: 'x' after the end of the content JSON"},
        {std::string(777, ' ') + "[", "JSON error at byte 777: '[' cannot start content JSON, which is an object"},
        {"{\"a\":1" + std::string(100, ' ') + "]", "JSON error at byte 106: ']' where ',' or '}' must follow a value"},
    };
    for (const auto& [text, message] : cases) {
        EXPECT_EQ(refusal(text), message) << text;
        EXPECT_FALSE(from_json_accepts(text)) << text;  // and from_json refuses the whole text too
    }
}

// Mutations of content JSON: whatever from_json accepts, ContentPrefix lets through.
TEST(ContentPrefix, AgreesWithFromJsonOnMutations) {
    std::mt19937 rng(7);
    const std::string alphabet = "{}[]:,\" \\-+.0123456789eEtrufalsn/u\n\x01";
    int accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string text = valid[rng() % valid.size()];
        for (int k = 0, edits = 1 + static_cast<int>(rng() % 3); k < edits; ++k) {
            const std::size_t at = rng() % text.size();
            switch (rng() % 3) {
                case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
                case 1: text.erase(at, 1); break;
                default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            }
        }
        if (!from_json_accepts(text)) continue;
        ++accepted;
        EXPECT_EQ(refusal(text), "") << text;
    }
    EXPECT_GT(accepted, 100);  // the mutations do reach accepted text
}

// ContentJsonText: the pieces written at end() and added are the text, checked as they come.
TEST(ContentJsonText, KeepsThePiecesAndRefusesAtTheFirstHopelessByte) {
    const std::string& json = valid[2];
    ond::json::ContentJsonText text;
    for (std::size_t at = 0; at < json.size(); at += 5) {
        const std::size_t n = std::min<std::size_t>(5, json.size() - at);
        if (text.capacity() - text.size() < n) text.reserve(text.size() + 2 * n);
        std::memcpy(text.end(), json.data() + at, n);
        text.add(n);
    }
    EXPECT_EQ(text.text(), json);
    EXPECT_GE(text.capacity(), json.size());
    EXPECT_NO_THROW((void)from_json(text.text()));
    text.release();
    EXPECT_EQ(text.text(), "");
    EXPECT_EQ(text.capacity(), 0u);

    // grow(): as much again as arrived, at least 64 KiB, never past its bound.
    ond::json::ContentJsonText growing;
    growing.grow(1000);
    EXPECT_EQ(growing.capacity(), 1000u);
    growing.grow(std::size_t{1} << 30);
    EXPECT_EQ(growing.capacity(), std::size_t{64} << 10);  // nothing arrived yet
    std::memset(growing.end(), ' ', growing.capacity());
    growing.add(growing.capacity());
    growing.grow(std::size_t{1} << 30);
    EXPECT_EQ(growing.capacity(), std::size_t{128} << 10);

    ond::json::ContentJsonText bad;
    bad.reserve(64);
    const std::string piece = "{\"a\":\"" + std::string(20, 'x') + "\x02";
    std::memcpy(bad.end(), piece.data(), piece.size());
    try {
        bad.add(piece.size());
        ADD_FAILURE() << "no refusal";
    } catch (const JsonError& e) {
        EXPECT_STREQ(e.what(), "JSON error at byte 26: a control character (byte 0x02) in a string");
    }
    EXPECT_EQ(bad.size(), 0u);  // a refused piece is not kept
}

}  // namespace
