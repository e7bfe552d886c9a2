// Tests of the content JSON layer: exact output, strict input, float and string rules, and the
// structural comparison the conformance runner relies on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "ond/content_json.hpp"
#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/unicode.hpp"

namespace {

using ond::json::compare_content;
using ond::json::format_float;
using ond::json::from_json;
using ond::json::JsonError;
using ond::json::parse_float;
using ond::json::to_json;

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// "Hi there" with two tokens, entity annotation, categories and one span group.
ond::Container sample_ondc() {
    ond::Container c;
    c.format = ond::Format::ondc;
    c.crc = true;
    ond::Doc d;
    d.set_text("Hi there");
    d.tokens.resize(2);
    d.tokens.start = {0, 3};
    d.tokens.length = {2, 5};
    d.tokens.column(ond::TokenColumn::norm) = {c.strings.intern("hi"), c.strings.intern("there")};
    d.tokens.column(ond::TokenColumn::pos) = {c.strings.intern("INTJ"), c.strings.intern("ADV")};
    d.tokens.head = {0, 0};
    d.tokens.sent = {ond::Sentence::start, ond::Sentence::inside};
    d.tokens.conf = {1.0f, 0.5f};
    d.has_ents = true;
    d.ents.push_back({1, 1, c.strings.intern("LOC"), 0.25f});
    d.has_cats = true;
    d.cats.push_back({c.strings.intern("greeting"), 0.75f});
    ond::SpanGroup g;
    g.name = c.strings.intern("sc");
    g.spans.push_back({0, 2, c.strings.intern("ALL"), -0.0f});
    d.spans.push_back(g);
    c.docs.push_back(std::move(d));
    return c;
}

const char* const sample_json =
    R"({"format":"ONDC","crc":true,"doc":{"text":"Hi there","tokens":[)"
    R"({"start":0,"length":2,"norm":"hi","lemma":"","pos":"INTJ","tag":"","dep":"","morph":"","head":0,"sent":1,"conf":1},)"
    R"({"start":3,"length":5,"norm":"there","lemma":"","pos":"ADV","tag":"","dep":"","morph":"","head":0,"sent":2,"conf":0.5}],)"
    R"("ents":[{"start":1,"length":1,"label":"LOC","conf":0.25}],)"
    R"("cats":[{"label":"greeting","score":0.75}],)"
    R"("spans":[{"name":"sc","spans":[{"start":0,"length":2,"label":"ALL","conf":-0.0}]}]}})";

std::string minimal_doc(const std::string& tokens = "[]", const std::string& text = R"("")") {
    return R"({"format":"ONDC","crc":false,"doc":{"text":)" + text + R"(,"tokens":)" + tokens +
           R"(,"ents":null,"cats":null,"spans":[]}})";
}

std::string one_token(const std::string& field, const std::string& value) {
    std::string t = R"({"start":0,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":1})";
    const std::string key = "\"" + field + "\":";
    auto at = t.find(key);
    auto end = t.find_first_of(",}", at + key.size());
    t.replace(at + key.size(), end - at - key.size(), value);
    return minimal_doc("[" + t + "]", R"("a")");
}

// Expects from_json to throw JsonError whose message contains `fragment`.
void expect_reject(const std::string& json, const std::string& fragment) {
    try {
        (void)from_json(json);
        ADD_FAILURE() << "accepted: " << json;
    } catch (const JsonError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
            << "message: " << e.what() << "\nwanted: " << fragment;
    }
}

// An integer outside its field's type: refused at once with the writer's content code.
void expect_refused(const std::string& json, const std::string& code, const std::string& fragment) {
    try {
        (void)from_json(json);
        ADD_FAILURE() << "accepted: " << json;
    } catch (const ond::Error& e) {
        EXPECT_EQ(e.code(), code) << json;
        const std::string shown = e.path() + ": " + e.detail();
        EXPECT_NE(shown.find(fragment), std::string::npos) << "message: " << shown << "\nwanted: " << fragment;
    }
}

// ---- output --------------------------------------------------------------------------------

TEST(ToJson, ExactCompactOutput) { EXPECT_EQ(to_json(sample_ondc()), sample_json); }

TEST(ToJson, OutputIsStrictJsonForAnIndependentParser) {
    for (bool pretty : {false, true}) {
        auto j = nlohmann::json::parse(to_json(sample_ondc(), pretty));
        EXPECT_EQ(j["doc"]["tokens"][1]["length"], 5);
        EXPECT_EQ(j["doc"]["spans"][0]["spans"][0]["label"], "ALL");
    }
}

TEST(ToJson, PrettyMeansTheSameContent) {
    const std::string pretty = to_json(sample_ondc(), true);
    EXPECT_NE(pretty.find('\n'), std::string::npos);
    EXPECT_EQ(to_json(sample_ondc()).find('\n'), std::string::npos);
    EXPECT_EQ(compare_content(sample_json, pretty), std::nullopt);
    EXPECT_TRUE(ond::same_content(from_json(pretty), sample_ondc()));
}

TEST(ToJson, BinDocsHaveNullCatsAndEmptySpans) {
    ond::Container c;
    c.format = ond::Format::ondb;
    for (int i = 0; i < 2; ++i) {
        ond::Doc d;
        d.set_text(i ? "b" : "");
        c.docs.push_back(d);
    }
    EXPECT_EQ(to_json(c), R"({"format":"ONDB","crc":false,"docs":[)"
                          R"({"text":"","tokens":[],"ents":null,"cats":null,"spans":[]},)"
                          R"({"text":"b","tokens":[],"ents":null,"cats":null,"spans":[]}]})");
    c.docs.clear();
    EXPECT_EQ(to_json(c), R"({"format":"ONDB","crc":false,"docs":[]})");
}

TEST(ToJson, EntityAnnotationWithoutEntitiesIsAnEmptyArray) {
    ond::Container c;
    ond::Doc d;
    d.has_ents = true;
    d.has_cats = true;
    c.docs.push_back(d);
    EXPECT_EQ(to_json(c), R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":[],"cats":[],"spans":[]}})");
}

TEST(ToJson, ControlCharactersAndQuotesAreEscaped) {
    ond::Container c;
    ond::Doc d;
    d.set_text(std::string("a\"b\\c\n\x01\x7f", 8));
    c.docs.push_back(d);
    EXPECT_NE(to_json(c).find(R"("text":"a\"b\\c\n\u0001\u007f")"), std::string::npos) << to_json(c);
    EXPECT_TRUE(ond::same_content(from_json(to_json(c)), c));
}

TEST(ToJson, NonFiniteFloatsAreWrittenAsTheirBitPattern) {
    auto c = sample_ondc();
    c.docs.edit(0, [](ond::Doc& d) {
        d.cats[0].score = from_bits(0x7FC00000u);   // quiet NaN
        d.tokens.conf[1] = from_bits(0xFF800000u);  // -inf
        d.ents[0].conf = from_bits(0x7FA00001u);    // a signalling NaN with a payload
        d.spans[0].spans[0].conf = from_bits(0x7F800000u);
    });
    const std::string j = to_json(c);
    EXPECT_NE(j.find(R"("score":{"f32bits":2143289344})"), std::string::npos) << j;
    EXPECT_NE(j.find(R"("head":0,"sent":2,"conf":{"f32bits":4286578688})"), std::string::npos) << j;
    EXPECT_NE(j.find(R"("label":"LOC","conf":{"f32bits":2141192193})"), std::string::npos) << j;
    EXPECT_NE(j.find(R"("label":"ALL","conf":{"f32bits":2139095040})"), std::string::npos) << j;
    EXPECT_NE(to_json(c, true).find(R"("score": {"f32bits": 2143289344})"), std::string::npos);
    // Read back bit for bit, NaN payload included.
    const ond::Container back = from_json(j);
    EXPECT_EQ(bits(back.docs[0].cats[0].score), 0x7FC00000u);
    EXPECT_EQ(bits(back.docs[0].tokens.conf[1]), 0xFF800000u);
    EXPECT_EQ(bits(back.docs[0].ents[0].conf), 0x7FA00001u);
    EXPECT_EQ(bits(back.docs[0].spans[0].spans[0].conf), 0x7F800000u);
    EXPECT_EQ(to_json(back), j);
}

TEST(ToJson, UnknownStringIdIsRefused) {
    auto c = sample_ondc();
    // The container refuses such an id where it is given; a store replaced under its documents
    // leaves them with ids it never handed out.
    EXPECT_THROW(c.docs.edit(0, [](ond::Doc& d) { d.ents[0].label = 999; }), ond::Error);
    c.strings = ond::StringStore();
    EXPECT_THROW(to_json(c), JsonError);
}

// ---- floats --------------------------------------------------------------------------------

TEST(Floats, NegativeZeroKeepsItsSign) {
    EXPECT_EQ(format_float(-0.0f), "-0.0");
    EXPECT_EQ(format_float(0.0f), "0.0");
    EXPECT_EQ(bits(parse_float("-0.0")), 0x80000000u);
    EXPECT_EQ(bits(parse_float("-0")), 0x80000000u);
    EXPECT_EQ(bits(parse_float("-0e5")), 0x80000000u);
    EXPECT_EQ(bits(parse_float("0")), 0u);
    auto c = from_json(one_token("conf", "-0"));
    EXPECT_EQ(bits(c.docs[0].tokens.conf[0]), 0x80000000u);
    EXPECT_NE(to_json(c).find(R"("conf":-0.0)"), std::string::npos);
}

TEST(Floats, Subnormals) {
    EXPECT_EQ(format_float(from_bits(1)), "1e-45");
    EXPECT_EQ(bits(parse_float("1e-45")), 1u);
    EXPECT_EQ(bits(parse_float("1.4e-45")), 1u);
    EXPECT_EQ(bits(parse_float("1.17549421e-38")), 0x007FFFFFu);  // largest subnormal
    // Exactly half the smallest subnormal is a tie and goes to even (zero); a hair above rounds up.
    EXPECT_EQ(bits(parse_float("7.006492321624085354618647916449580656401309709382578858785341419448955413429303e-46")), 0u);
    EXPECT_EQ(bits(parse_float("7.006492321624086e-46")), 1u);
    EXPECT_EQ(bits(parse_float("1e-50")), 0u);
    EXPECT_EQ(bits(parse_float("-1e-50")), 0x80000000u);
    EXPECT_EQ(bits(parse_float("1e-99999999999999999999")), 0u);
}

TEST(Floats, PastTheRangeIsInfinity) {
    EXPECT_EQ(parse_float("1e39"), std::numeric_limits<float>::infinity());
    EXPECT_EQ(parse_float("-1e39"), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(parse_float("1e99999999999999999999"), std::numeric_limits<float>::infinity());
    EXPECT_EQ(parse_float("340282356779733661637539395458142568448"), std::numeric_limits<float>::infinity());
    EXPECT_EQ(bits(parse_float("340282356779733661637539395458142568447")), 0x7F7FFFFFu);
    EXPECT_EQ(bits(parse_float("3.4028235e38")), 0x7F7FFFFFu);
    // from_json loads it; the writer is the one to refuse it.
    auto c = from_json(one_token("conf", "1e39"));
    EXPECT_TRUE(std::isinf(c.docs[0].tokens.conf[0]));
}

TEST(Floats, ReadFromTheDecimalTextNotThroughDouble) {
    // 1 + 2^-24 + 2^-130: through double it first rounds to 1 + 2^-24 (a float tie) and then to 1.0.
    // Read directly, it is just above the tie and rounds up to the next float.
    EXPECT_EQ(bits(parse_float("1.00000005960464477539062500000000000001")), 0x3F800001u);
    EXPECT_EQ(bits(parse_float("1.000000059604644775390625")), 0x3F800000u);  // the exact tie: to even
    EXPECT_EQ(bits(parse_float("0.1")), 0x3DCCCCCDu);
    EXPECT_EQ(bits(parse_float("1E0")), 0x3F800000u);
    EXPECT_EQ(bits(parse_float("25e-2")), 0x3E800000u);
}

TEST(Floats, ShortestTextRoundTripsEveryBitPattern) {
    std::mt19937 rng(12345);
    for (int i = 0; i < 200000; ++i) {
        std::uint32_t u = static_cast<std::uint32_t>(rng());
        float f = from_bits(u);
        if (!std::isfinite(f)) continue;
        const std::string t = format_float(f);
        ASSERT_EQ(bits(parse_float(t)), u) << t;
    }
    EXPECT_EQ(format_float(0.1f), "0.1");
    EXPECT_EQ(format_float(1.0f), "1");
    EXPECT_EQ(format_float(1e20f), "1e+20");
}

TEST(Floats, F32bitsIsReadWhereverAFloatStands) {
    auto c = from_json(one_token("conf", R"({"f32bits":2143289344})"));
    EXPECT_EQ(bits(c.docs[0].tokens.conf[0]), 0x7FC00000u);
    c = from_json(one_token("conf", R"({"f32bits":1065353216})"));  // 1.0 spelled as bits
    EXPECT_EQ(bits(c.docs[0].tokens.conf[0]), 0x3F800000u);
    c = from_json(one_token("conf", R"({"f32bits":0})"));
    EXPECT_EQ(bits(c.docs[0].tokens.conf[0]), 0u);
    c = from_json(one_token("conf", R"({"f32bits":4294967295})"));
    EXPECT_EQ(bits(c.docs[0].tokens.conf[0]), 0xFFFFFFFFu);
    const std::string doc = R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[)"
                            R"({"start":0,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":1}],)"
                            R"("ents":[{"start":0,"length":1,"label":"E","conf":{"f32bits":2139095040}}],)"
                            R"("cats":[{"label":"C","score":{"f32bits":4290772992}}],)"
                            R"("spans":[{"name":"g","spans":[{"start":0,"length":1,"label":"S","conf":{"f32bits":8388608}}]}]}})";
    c = from_json(doc);
    EXPECT_EQ(bits(c.docs[0].ents[0].conf), 0x7F800000u);
    EXPECT_EQ(bits(c.docs[0].cats[0].score), 0xFFC00000u);
    EXPECT_EQ(bits(c.docs[0].spans[0].spans[0].conf), 0x00800000u);
}

TEST(Floats, F32bitsOutOfRangeOrMalformedIsAnErrorWithItsPath) {
    expect_refused(one_token("conf", R"({"f32bits":4294967296})"), "content.too-large",
                  "doc.tokens[0].conf.f32bits: expected an integer in [0, 4294967295], got 4294967296");
    expect_refused(one_token("conf", R"({"f32bits":-1})"), "content.too-large", "doc.tokens[0].conf.f32bits: expected an integer in [0, 4294967295]");
    expect_reject(one_token("conf", R"({"f32bits":1.5})"), "doc.tokens[0].conf.f32bits: expected an integer");
    expect_reject(one_token("conf", R"({"f32bits":"0"})"), "doc.tokens[0].conf.f32bits: expected an integer");
    expect_reject(one_token("conf", R"({"f32bits":1e3})"), "doc.tokens[0].conf.f32bits: expected an integer");
    expect_reject(one_token("conf", R"({"f32bits":1,"x":2})"), "doc.tokens[0].conf: unknown key \"x\"");
    expect_reject(one_token("conf", R"({})"), "doc.tokens[0].conf: missing key \"f32bits\"");
    expect_reject(one_token("conf", R"({"bits":1})"), "doc.tokens[0].conf: unknown key \"bits\"");
    expect_reject(one_token("conf", R"("0.5")"), "doc.tokens[0].conf: expected a number or {\"f32bits\": N}, got a string");
    expect_reject(minimal_doc("[]").replace(minimal_doc("[]").find(R"("cats":null)"), 11,
                                            R"("cats":[{"label":"c","score":{"f32bits":null}}])"),
                  "doc.cats[0].score.f32bits: expected an integer");
}

TEST(Floats, OnlyJsonNumberTextIsRead) {
    for (const char* bad : {"", "+1", ".5", "1.", "01", "inf", "nan", "0x1p3", "1e", "- 1", "1 "})
        EXPECT_THROW(parse_float(bad), JsonError) << bad;
    EXPECT_THROW(format_float(std::numeric_limits<float>::quiet_NaN()), JsonError);
    EXPECT_THROW(format_float(-std::numeric_limits<float>::infinity()), JsonError);
}

// ---- strings -------------------------------------------------------------------------------

TEST(Strings, LoneSurrogatesUseTheUtf16Form) {
    ond::Container c;
    ond::Doc d;
    d.set_text(ond::unicode::wtf8_from_utf16(u"a\xD800z"));
    d.tokens.resize(1);
    d.tokens.start = {1};
    d.tokens.length = {1};
    d.tokens.column(ond::TokenColumn::lemma)[0] = c.strings.intern(ond::unicode::wtf8_from_utf16(u"\xDC00"));
    c.docs.push_back(d);
    const std::string j = to_json(c);
    EXPECT_NE(j.find(R"("text":{"utf16":[97,55296,122]})"), std::string::npos) << j;
    EXPECT_NE(j.find(R"("lemma":{"utf16":[56320]})"), std::string::npos) << j;
    auto back = from_json(j);
    EXPECT_TRUE(ond::same_content(back, c));
    EXPECT_EQ(back.docs[0].text_utf16_length, 3u);
    EXPECT_NE(to_json(c, true).find(R"("text": {"utf16": [97, 55296, 122]})"), std::string::npos);
}

TEST(Strings, SurrogatePairInUtf16FormBecomesOneCodePoint) {
    auto c = from_json(minimal_doc("[]", R"({"utf16":[55357,56832]})"));
    EXPECT_EQ(c.docs[0].text, "\xF0\x9F\x98\x80");
    EXPECT_EQ(c.docs[0].text_utf16_length, 2u);
    // Well-formed content is written as a plain string.
    EXPECT_NE(to_json(c).find("\"text\":\"\xF0\x9F\x98\x80\""), std::string::npos);
}

TEST(Strings, NonBmpOffsetsCountUtf16Units) {
    // U+1F600 then "x": the token "x" starts at unit 2.
    auto c = from_json(one_token("start", "2").replace(one_token("start", "2").find(R"("text":"a")"), 10,
                                                       "\"text\":\"\xF0\x9F\x98\x80x\""));
    EXPECT_EQ(c.docs[0].text_utf16_length, 3u);
    EXPECT_EQ(c.docs[0].tokens.start[0], 2u);
}

TEST(Strings, EscapesAreResolved) {
    auto c = from_json(minimal_doc("[]", R"("\u00e9\ud83d\ude00\/\t")"));
    EXPECT_EQ(c.docs[0].text, "\xC3\xA9\xF0\x9F\x98\x80/\t");
}

TEST(Strings, EscapedLoneSurrogatesAreRejected) {
    expect_reject(minimal_doc("[]", R"("\ud800")"), "lone high surrogate");
    expect_reject(minimal_doc("[]", R"("\ud800\u0041")"), "lone high surrogate");
    expect_reject(minimal_doc("[]", R"("\udc00")"), "lone low surrogate");
}

TEST(Strings, InvalidUtf8IsRejected) {
    expect_reject(minimal_doc("[]", "\"\xC0\xAF\""), "not valid UTF-8");
    expect_reject(minimal_doc("[]", "\"\xED\xA0\x80\""), "not valid UTF-8");  // a surrogate in UTF-8
    expect_reject(minimal_doc("[]", "\"\xFF\""), "not valid UTF-8");
}

TEST(Strings, Utf16FormIsChecked) {
    expect_refused(minimal_doc("[]", R"({"utf16":[65536]})"), "content.invalid-string", "text.utf16[0]: expected an integer in [0, 65535]");
    expect_refused(minimal_doc("[]", R"({"utf16":[-1]})"), "content.invalid-string", "text.utf16[0]");
    expect_reject(minimal_doc("[]", R"({"utf16":[1.5]})"), "text.utf16[0]");
    expect_reject(minimal_doc("[]", R"({"utf16":"a"})"), "text.utf16: expected an array");
    expect_reject(minimal_doc("[]", R"({"utf16":[],"x":1})"), "text: unknown key \"x\"");
    expect_reject(minimal_doc("[]", R"({})"), "text: missing key \"utf16\"");
    expect_reject(minimal_doc("[]", "5"), "text: expected a string or {\"utf16\": [...]}, got a number");
}

// ---- reading -------------------------------------------------------------------------------

TEST(FromJson, SampleRoundTrips) {
    auto c = from_json(sample_json);
    EXPECT_TRUE(ond::same_content(c, sample_ondc()));
    EXPECT_EQ(to_json(c), sample_json);
    EXPECT_EQ(bits(c.docs[0].spans[0].spans[0].conf), 0x80000000u);
}

TEST(FromJson, KeysInAnyOrderAndFreeWhitespace) {
    const std::string j =
        " {\r\n\t\"doc\" : {\"spans\":[],\"cats\":null,\"ents\":null,\"tokens\":[{\"conf\":1,\"sent\":0,\"head\":0,"
        "\"morph\":\"\",\"dep\":\"\",\"tag\":\"\",\"pos\":\"X\",\"lemma\":\"\",\"norm\":\"\",\"length\":1,\"start\":0}],"
        "\"text\":\"a\"}, \"crc\":false, \"format\":\"ONDC\"}\n";
    auto c = from_json(j);
    ASSERT_EQ(c.docs.size(), 1u);
    EXPECT_EQ(c.strings.view(c.docs[0].tokens.column(ond::TokenColumn::pos)[0]), "X");
    EXPECT_EQ(compare_content(minimal_doc(R"([{"start":0,"length":1,"norm":"","lemma":"","pos":"X","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":1.0}])", R"("a")"), j),
              std::nullopt);
}

TEST(FromJson, RangesOfIntegers) {
    EXPECT_EQ(from_json(one_token("start", "4294967295")).docs.to_doc(0).tokens.start[0], 4294967295u);
    expect_refused(one_token("start", "4294967296"), "content.too-large", "doc.tokens[0].start: expected an integer in [0, 4294967295]");
    expect_refused(one_token("length", "-1"), "content.too-large", "doc.tokens[0].length: expected an integer");
    expect_reject(one_token("start", "1.0"), "doc.tokens[0].start: expected an integer");
    expect_reject(one_token("start", "1e2"), "doc.tokens[0].start");
    expect_refused(one_token("start", "99999999999999999999999"), "content.too-large", "doc.tokens[0].start");
    EXPECT_EQ(from_json(one_token("head", "-2147483648")).docs.to_doc(0).tokens.head[0], std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(from_json(one_token("head", "2147483647")).docs.to_doc(0).tokens.head[0], 2147483647);
    expect_refused(one_token("head", "2147483648"), "content.head-out-of-range", "doc.tokens[0].head");
    expect_refused(one_token("head", "-99999999999999999999"), "content.head-out-of-range", "doc.tokens[0].head");
    expect_reject(one_token("head", "\"0\""), "doc.tokens[0].head");
    expect_refused(one_token("sent", "256"), "content.bad-sentence-value", "doc.tokens[0].sent");
    // Out-of-model but representable values are left for the writer to refuse.
    EXPECT_EQ(static_cast<int>(from_json(one_token("sent", "3")).docs.to_doc(0).tokens.sent[0]), 3);
    EXPECT_EQ(from_json(one_token("head", "7")).docs.to_doc(0).tokens.head[0], 7);
}

TEST(FromJson, StructureIsStrict) {
    expect_reject(one_token("conf", "\"1\""), "doc.tokens[0].conf: expected a number or {\"f32bits\": N}, got a string");
    expect_reject(one_token("conf", "null"), "doc.tokens[0].conf: expected a number or {\"f32bits\": N}, got null");
    expect_reject(R"({"format":"ONDC","crc":false})", "(top level): missing key \"doc\"");
    expect_reject(R"({"format":"ONDX","crc":false,"doc":{}})", "format: expected \"ONDC\" or \"ONDB\"");
    expect_reject(R"({"format":"ONDC","crc":0,"doc":{}})", "crc: expected true or false");
    expect_reject(R"({"format":"ONDC","crc":false,"docs":[]})", "an ONDC container has \"doc\"");
    expect_reject(R"({"format":"ONDB","crc":false,"doc":{}})", "an ONDB container has \"docs\"");
    expect_reject(R"({"format":"ONDB","crc":false,"docs":{}})", "docs: expected an array");
    expect_reject(R"({"format":"ONDC","crc":false,"doc":{},"extra":1})", "(top level): unknown key \"extra\"");
    expect_reject(R"([])", "(top level): expected an object");
    std::string no_head = one_token("head", "0");
    no_head.replace(no_head.find("\"head\":0,"), 9, "");
    expect_reject(no_head, "doc.tokens[0]: missing key \"head\"");
    std::string extra = one_token("head", "0,\"whitespace\":true");
    expect_reject(extra, "doc.tokens[0]: unknown key \"whitespace\"");
    std::string no_ents = minimal_doc();
    no_ents.replace(no_ents.find("\"ents\":null,"), 12, "");
    expect_reject(no_ents, "doc: missing key \"ents\"");
    expect_reject(minimal_doc().replace(minimal_doc().find("\"cats\":null"), 11, "\"cats\":{}"), "doc.cats: expected null or an array");
    expect_reject(minimal_doc().replace(minimal_doc().find("\"spans\":[]"), 10, "\"spans\":null"), "doc.spans: expected an array");
    expect_reject(R"({"format":"ONDB","crc":false,"docs":[{"text":"","tokens":[],"ents":[{"start":0}],"cats":null,"spans":[]}]})",
                  "docs[0].ents[0]: missing key \"length\"");
    expect_reject(R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":null,"spans":[{"name":"g","spans":[{"start":0,"length":1,"label":"x"}]}]}})",
                  "doc.spans[0].spans[0]: missing key \"conf\"");
}

TEST(FromJson, BinExtrasAreLoadedForTheWriterToRefuse) {
    auto c = from_json(R"({"format":"ONDB","crc":true,"docs":[{"text":"","tokens":[],"ents":null,"cats":[{"label":"x","score":0.5}],"spans":[]}]})");
    EXPECT_EQ(c.format, ond::Format::ondb);
    EXPECT_TRUE(c.crc);
    EXPECT_TRUE(c.docs[0].has_cats);
    ASSERT_EQ(c.docs[0].cats.size(), 1u);
    EXPECT_EQ(c.strings.view(c.docs[0].cats[0].label), "x");
}

TEST(FromJson, EmptyLabelsAreLoadedAsId0) {
    auto c = from_json(R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[],"ents":[],"cats":[{"label":"","score":1}],"spans":[]}})");
    EXPECT_EQ(c.docs[0].cats[0].label, 0u);
    EXPECT_TRUE(c.docs[0].has_ents);
    EXPECT_TRUE(c.docs[0].ents.empty());
}

TEST(FromJson, MalformedJson) {
    expect_reject("", "empty input");
    expect_reject("   ", "empty input");
    expect_reject("\xEF\xBB\xBF{}", "byte-order mark");
    expect_reject(minimal_doc() + "x", "after the JSON value");
    expect_reject(minimal_doc() + "{}", "after the JSON value");
    expect_reject(R"({"format":"ONDC",})", "expected a string key");
    expect_reject(R"({"format":"ONDC","format":"ONDC"})", "duplicate key \"format\"");
    expect_reject(R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[,],"ents":null,"cats":null,"spans":[]}})", "unexpected character ','");
    expect_reject(R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":null,"spans":[]})", "unexpected end of input");
    expect_reject(R"({"format":'ONDC'})", "unexpected character");
    expect_reject(R"({"format":"ON)" "\n" R"(DC"})", "control character");
    expect_reject(R"({"a":tru})", "invalid literal");
    expect_reject(R"({"a":01})", "leading zero");
    expect_reject(R"({"a":1.})", "digit must follow the decimal point");
    expect_reject(R"({"a":-})", "needs a digit");
    expect_reject(R"({"a":"\x"})", "invalid escape");
    expect_reject(R"({"a":"\u12"})", "4 hex digits");
    expect_reject("{\"a\":\"abc", "unterminated string");
    expect_reject(std::string(300, '[') + std::string(300, ']'), "nesting is deeper");
    expect_reject("{\"a\":\x01}", "unexpected byte 0x01");
}

// ---- comparing -----------------------------------------------------------------------------

std::string bin_with_heads(int h0, int h1) {
    auto tok = [](int start, int head) {
        return R"({"start":)" + std::to_string(start) +
               R"(,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":)" +
               std::to_string(head) + R"(,"sent":0,"conf":1})";
    };
    return R"({"format":"ONDB","crc":false,"docs":[{"text":"ab","tokens":[)" + tok(0, 0) + "," + tok(1, 0) +
           R"(],"ents":null,"cats":null,"spans":[]},{"text":"ab","tokens":[)" + tok(0, h0) + "," + tok(1, h1) +
           R"(],"ents":null,"cats":null,"spans":[]}]})";
}

TEST(Compare, EqualWhenOnlySpellingDiffers) {
    EXPECT_EQ(compare_content(sample_json, to_json(from_json(sample_json), true)), std::nullopt);
    EXPECT_EQ(compare_content(R"({"t":"a","conf":0.1})", R"({"conf":0.100000001,"t":{"utf16":[97]}})"), std::nullopt);
    EXPECT_EQ(compare_content(R"({"conf":1})", R"({"conf":1.0e0})"), std::nullopt);
    EXPECT_EQ(compare_content(R"({"head":-0})", R"({"head":0})"), std::nullopt);
    EXPECT_EQ(compare_content("\"\xF0\x9F\x98\x80\"", R"({"utf16":[55357,56832]})"), std::nullopt);
}

TEST(Compare, ReportsThePathOfTheFirstDifference) {
    EXPECT_EQ(compare_content(bin_with_heads(1, 0), bin_with_heads(1, 0)), std::nullopt);
    EXPECT_EQ(compare_content(bin_with_heads(1, 3), bin_with_heads(1, 4)), "docs[1].tokens[1].head: expected 3, got 4");
    EXPECT_EQ(compare_content(bin_with_heads(0, 3), bin_with_heads(1, 4)), "docs[1].tokens[0].head: expected 0, got 1");
    EXPECT_EQ(compare_content(R"({"a":[1,2]})", R"({"a":[1]})"), "a: expected 2 elements, got 1");
    EXPECT_EQ(compare_content(R"({"a":1,"b":2})", R"({"a":1})"), "(top level): missing key \"b\"");
    EXPECT_EQ(compare_content(R"({"a":1})", R"({"a":1,"z":null})"), "(top level): unexpected key \"z\"");
    EXPECT_EQ(compare_content(R"({"a":{"b":null}})", R"({"a":{"b":[]}})"), "a.b: expected null, got []");
    EXPECT_EQ(compare_content(R"({"s":"a"})", R"({"s":{"utf16":[98]}})"), "s: expected \"a\", got {\"utf16\":[98]}");
    EXPECT_EQ(compare_content(R"({"crc":true})", R"({"crc":false})"), "crc: expected true, got false");
    EXPECT_EQ(compare_content(R"({"start":1})", R"({"start":1.0})"), "start: expected 1, got 1.0");
}

TEST(Compare, FloatsCompareByBinary32Bits) {
    EXPECT_EQ(compare_content(R"({"conf":0.0})", R"({"conf":-0.0})"),
              "conf: expected 0.0 (0x00000000), got -0.0 = -0.0 (0x80000000)");
    EXPECT_EQ(compare_content(R"({"x":[{"score":0.5}]})", R"({"x":[{"score":0.50000006}]})"),
              "x[0].score: expected 0.5 (0x3f000000), got 0.50000006 = 0.50000006 (0x3f000001)");
    EXPECT_EQ(compare_content(R"({"conf":1e-46})", R"({"conf":0})"), std::nullopt);
    EXPECT_EQ(compare_content(R"({"conf":1e39})", R"({"conf":1e40})"), std::nullopt);  // both +inf
    EXPECT_NE(compare_content(R"({"conf":0.5})", R"({"conf":"0.5"})"), std::nullopt);
}

TEST(Compare, F32bitsAndANumberCompareByBits) {
    EXPECT_EQ(compare_content(R"({"conf":1})", R"({"conf":{"f32bits":1065353216}})"), std::nullopt);
    EXPECT_EQ(compare_content(R"({"score":{"f32bits":2143289344}})", R"({"score":{"f32bits":2143289344}})"), std::nullopt);
    EXPECT_EQ(compare_content(R"({"conf":{"f32bits":2139095040}})", R"({"conf":1e39})"), std::nullopt);  // +inf
    EXPECT_EQ(compare_content(R"({"conf":{"f32bits":2147483648}})", R"({"conf":-0.0})"), std::nullopt);
    // NaNs compare by their bits: another payload is another value.
    EXPECT_EQ(compare_content(R"({"score":{"f32bits":2143289344}})", R"({"score":{"f32bits":2143289345}})"),
              "score: expected nan (0x7fc00000), got {\"f32bits\":2143289345} = nan (0x7fc00001)");
    EXPECT_EQ(compare_content(R"({"score":{"f32bits":2143289344}})", R"({"score":0.5})"),
              "score: expected nan (0x7fc00000), got 0.5 = 0.5 (0x3f000000)");
    EXPECT_EQ(compare_content(R"({"conf":0.5})", R"({"conf":{"f32bits":4294967296}})"),
              "conf: expected 0.5, got {\"f32bits\":4294967296}");
    EXPECT_NE(compare_content(R"({"conf":0.5})", R"({"conf":{"bits":1056964608}})"), std::nullopt);
}

TEST(Compare, EntsNullAndEmptyAreEqualOnlyWithoutTokens) {
    const std::string none = minimal_doc("[]");
    std::string empty = none;
    empty.replace(empty.find(R"("ents":null)"), 11, R"("ents":[])");
    EXPECT_EQ(compare_content(none, empty), std::nullopt);
    EXPECT_EQ(compare_content(empty, none), std::nullopt);
    // With a token, entity annotation (even with no entities) is content.
    const std::string tok = one_token("sent", "1");
    std::string tok_empty = tok;
    tok_empty.replace(tok_empty.find(R"("ents":null)"), 11, R"("ents":[])");
    EXPECT_EQ(compare_content(tok, tok_empty), "doc.ents: expected null, got []");
    // And only [] (not a list of entities) stands for null.
    std::string one_ent = none;
    one_ent.replace(one_ent.find(R"("ents":null)"), 11, R"("ents":[{"start":0,"length":1,"label":"X","conf":1}])");
    EXPECT_EQ(compare_content(none, one_ent), R"(doc.ents: expected null, got [{"start":0,"length":1,"label":"X","conf":1}])");
    // In a bin, per document.
    const std::string bin_none = R"({"format":"ONDB","crc":false,"docs":[{"text":"","tokens":[],"ents":null,"cats":null,"spans":[]}]})";
    const std::string bin_empty = R"({"format":"ONDB","crc":false,"docs":[{"text":"","tokens":[],"ents":[],"cats":null,"spans":[]}]})";
    EXPECT_EQ(compare_content(bin_none, bin_empty), std::nullopt);
    // cats keeps null and [] apart.
    std::string cats_empty = none;
    cats_empty.replace(cats_empty.find(R"("cats":null)"), 11, R"("cats":[])");
    EXPECT_EQ(compare_content(none, cats_empty), "doc.cats: expected null, got []");
}

TEST(Robustness, MutatedInputIsRefusedCleanlyOrRoundTrips) {
    // Byte flips, insertions and cuts of a valid text: from_json either loads content that
    // writes back to JSON meaning the same, or throws one of its two documented errors.
    const std::string base = to_json(sample_ondc(), true);
    static constexpr char kInserted[] = "{}[]\\\":,-0e.9u";  // structural and number characters
    std::mt19937 rng(7);
    int loaded = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string t = base;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < edits; ++k) {
            const std::size_t at = rng() % t.size();
            switch (rng() % 3) {
            case 0: t[at] = static_cast<char>(rng() & 0xFF); break;
            case 1: t.insert(at, 1, kInserted[rng() % (sizeof kInserted - 1)]); break;
            default: t.resize(at); break;
            }
            if (t.empty()) t = " ";
        }
        try {
            const ond::Container c = from_json(t);
            ++loaded;
            const std::string again = to_json(c);  // non-finite floats too, as {"f32bits": N}
            ASSERT_EQ(compare_content(t, again), std::nullopt) << t;
        } catch (const JsonError&) {
        } catch (const ond::Error& e) {  // an integer outside its field's type, or a text too long
            if (!std::string_view(e.code()).starts_with("content.")) ADD_FAILURE() << "unexpected codec error " << e.what() << " for " << t;
        }
    }
    EXPECT_GT(loaded, 0);  // some edits (inside strings, digits) keep the text valid
}

TEST(Compare, InvalidJsonThrows) {
    EXPECT_THROW(compare_content("{", "{}"), JsonError);
    EXPECT_THROW(compare_content("{}", "{} x"), JsonError);
}

// A string that had escapes is reported at its own first byte (the reader keeps where each such
// string began, as a full offset: past 4 GiB too).
TEST(FromJson, AStringWithEscapesIsReportedAtItsFirstByte) {
    auto message = [](const std::string& text) {
        try {
            (void)from_json(text);
        } catch (const JsonError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message(R"({"format":"ONDC","\u0066ormat":"ONDC"})"), "JSON error at byte 17: duplicate key \"format\"");
    EXPECT_EQ(message(R"({"format":"ON\u0044X","crc":false,"doc":{}})"), "format: expected \"ONDC\" or \"ONDB\" (at byte 10)");
}

}  // namespace
