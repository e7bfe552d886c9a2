// Tests of from_json's one-pass reader (content_reader.cpp) against the full reading it stands
// in for (tape + loader): it must take what to_json writes, and whatever it takes it must read
// exactly as the full reading does, strings interned in the same order; whatever the full
// reading refuses it must not take, so every error keeps the full reading's message.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "content_reader.hpp"
#include "ond/content_json.hpp"
#include "ond/error.hpp"
#include "ond/model.hpp"

namespace {

using ond::json::from_json;
using ond::json::JsonError;
using ond::json::to_json;
using ond::json::detail::load_from_tape;
using ond::json::detail::read_content;

// Content with everything the model has: escapes, non-ASCII and astral text, a lone surrogate
// (the {"utf16"} form), a NaN confidence ({"f32bits"}), -0.0, entities, categories, spans.
ond::Container rich_ondc() {
    ond::Container c;
    c.format = ond::Format::ondc;
    c.crc = true;
    ond::Doc d;
    d.set_text("Zoë \"said\" 日本\\ \xF0\x9F\x98\x80\n");
    d.tokens.resize(3);
    d.tokens.start = {0, 4, 11};
    d.tokens.length = {3, 6, 2};
    d.tokens.column(ond::TokenColumn::norm) = {c.strings.intern("zoë"), c.strings.intern("\"said\""), c.strings.intern("日本")};
    d.tokens.column(ond::TokenColumn::lemma) = {c.strings.intern("a\xED\xA0\x80" "b"), c.strings.intern("say"), c.strings.intern("x\ty")};
    d.tokens.column(ond::TokenColumn::pos) = {c.strings.intern("PROPN"), c.strings.intern("VERB"), c.strings.intern("PROPN")};
    d.tokens.head = {1, 1, -5};
    d.tokens.sent = {ond::Sentence::start, ond::Sentence::inside, ond::Sentence::inside};
    d.tokens.conf = {std::numeric_limits<float>::quiet_NaN(), -0.0f, 1.17549435e-38f};
    d.has_ents = true;
    d.ents.push_back({0, 1, c.strings.intern("PER"), 0.25f});
    d.has_cats = true;
    d.cats.push_back({c.strings.intern("Ελληνικά"), std::numeric_limits<float>::infinity()});
    ond::SpanGroup g;
    g.name = c.strings.intern("sc");
    g.spans.push_back({0, 2, c.strings.intern("ALL"), 3.4028235e38f});
    d.spans.push_back(g);
    c.docs.push_back(std::move(d));
    return c;
}

ond::Container small_bin() {
    ond::Container c;
    c.format = ond::Format::ondb;
    for (int i = 0; i < 3; ++i) {
        ond::Doc d;
        d.set_text(i == 1 ? "" : "ab");
        if (i != 1) {
            d.tokens.resize(1);
            d.tokens.length = {2};
            d.tokens.column(ond::TokenColumn::tag) = {c.strings.intern(i ? "NN" : "VB")};
        }
        d.has_ents = i == 2;
        c.docs.push_back(std::move(d));
    }
    return c;
}

std::string string_of(const ond::Container& c, ond::StringId id) { return std::string(c.strings.view(id)); }

// a and b hold the same documents with the same string ids, from stores of the same strings
// in the same order.
void expect_identical(const ond::Container& a, const ond::Container& b, const std::string& text) {
    ASSERT_TRUE(ond::same_content(a, b)) << text;
    ASSERT_EQ(a.strings.size(), b.strings.size()) << text;
    for (ond::StringId id = 0; id < a.strings.size(); ++id) ASSERT_EQ(a.strings.view(id), b.strings.view(id)) << text;
    for (std::size_t i = 0; i < a.docs.size(); ++i)
        for (std::size_t col = 0; col < ond::token_column_count; ++col)
            for (std::size_t k = 0; k < a.docs[i].tokens.size(); ++k)
                ASSERT_EQ(a.docs[i].tokens.attrs[col][k], b.docs[i].tokens.attrs[col][k]) << text;
}

// The outcome of a reading: the content, or the error's message (with its code for ond::Error).
struct Outcome {
    std::optional<ond::Container> content;
    std::string error;
};

template <class F>
Outcome outcome(F&& read) {
    Outcome o;
    try {
        o.content = read();
    } catch (const JsonError& e) {
        o.error = std::string("JsonError ") + e.what();
    } catch (const ond::Error& e) {
        o.error = std::string(e.code()) + " " + e.path() + ": " + e.detail();
    }
    return o;
}

// The one-pass reader either leaves the text to the full reading or reads it as the full
// reading does; from_json's outcome is the full reading's. Returns whether the reader took it.
bool check_against_full_reading(const std::string& text) {
    const Outcome full = outcome([&] { return load_from_tape(text); });
    const Outcome ours = outcome([&] { return from_json(text); });
    ond::Container fast;
    const bool taken = read_content(text, fast);
    EXPECT_FALSE(taken && !full.content) << "took what the full reading refuses (" << full.error << "): " << text;
    if (full.content) {
        if (!ours.content) {
            ADD_FAILURE() << "from_json refused what the full reading takes: " << ours.error << ": " << text;
        } else {
            expect_identical(*ours.content, *full.content, text);
            if (taken) expect_identical(fast, *full.content, text);
        }
    } else {
        EXPECT_EQ(ours.error, full.error) << text;
    }
    return taken;
}

TEST(OnePassReader, TakesWhatToJsonWrites) {
    for (const ond::Container& c : {rich_ondc(), small_bin()}) {
        for (bool pretty : {false, true}) {
            const std::string text = to_json(c, pretty);
            ond::Container read;
            ASSERT_TRUE(read_content(text, read)) << text;
            expect_identical(read, load_from_tape(text), text);
            EXPECT_EQ(to_json(read, pretty), text);
        }
    }
}

TEST(OnePassReader, KeysOfATokenInAnyOrderAreInternedInColumnOrder) {
    const std::string text =
        R"({"crc":false,"doc":{"tokens":[{"conf":1,"sent":0,"head":0,"morph":"m","dep":"d","tag":"t","pos":"p",)"
        R"("lemma":"l","norm":"n","length":1,"start":0}],"ents":null,"cats":null,"spans":[],"text":"a"},"format":"ONDC"})";
    ond::Container read;
    ASSERT_TRUE(read_content(text, read));
    EXPECT_EQ(read.strings.view(1), "n");
    EXPECT_EQ(read.strings.view(6), "m");
    EXPECT_TRUE(check_against_full_reading(text));
}

TEST(OnePassReader, LeavesOtherOrdersOfInterningToTheFullReading) {
    // Span labels before a category's: the full reading interns the category first.
    const std::string doc_order =
        R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[],"ents":null,)"
        R"("spans":[{"name":"g","spans":[{"start":0,"length":1,"label":"S","conf":1}]}],"cats":[{"label":"C","score":1}]}})";
    EXPECT_FALSE(check_against_full_reading(doc_order));
    EXPECT_EQ(string_of(from_json(doc_order), 1), "C");
    const std::string group_order =
        R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[],"ents":null,"cats":null,)"
        R"("spans":[{"spans":[{"start":0,"length":1,"label":"S","conf":1}],"name":"g"}]}})";
    EXPECT_FALSE(check_against_full_reading(group_order));
    EXPECT_EQ(string_of(from_json(group_order), 1), "g");
}

// A document whose one token's `field` is `value`.
std::string token_with(const std::string& field, const std::string& value) {
    std::string t = R"({"start":0,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":1})";
    const std::string key = "\"" + field + "\":";
    const auto at = t.find(key) + key.size();
    t.replace(at, t.find_first_of(",}", at) - at, value);
    return R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[)" + t + R"(],"ents":null,"cats":null,"spans":[]}})";
}

// from_json's message for `text`, which it must refuse with JsonError.
std::string json_error(const std::string& text) {
    try {
        (void)from_json(text);
    } catch (const JsonError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted: " << text;
    return {};
}

TEST(OnePassReader, ErrorsAtItsEdgesKeepTheFullReadingsMessages) {
    // Nesting: a label that nests past the tape's 256 levels, and one that nests 3 levels.
    const std::string deep = token_with("norm", std::string(300, '[') + std::string(300, ']'));
    EXPECT_EQ(json_error(deep), "JSON error at byte 338: nesting is deeper than 256");
    EXPECT_EQ(json_error(token_with("norm", "[[[]]]")),
              "doc.tokens[0].norm: expected a string or {\"utf16\": [...]}, got an array (at byte 86)");
    // Numbers past every type: integers are refused with the field's code, floats round.
    const std::string huge(400, '9');
    try {
        (void)from_json(token_with("start", huge));
        ADD_FAILURE();
    } catch (const ond::Error& e) {
        EXPECT_EQ(e.code(), "content.too-large");
        EXPECT_EQ(e.path(), "doc.tokens[0].start");
    }
    EXPECT_EQ(from_json(token_with("conf", huge)).docs.to_doc(0).tokens.conf[0], std::numeric_limits<float>::infinity());
    EXPECT_EQ(from_json(token_with("conf", "1e-400")).docs.to_doc(0).tokens.conf[0], 0.0f);
    EXPECT_EQ(json_error(token_with("conf", "1e")), "JSON error at byte 165: a digit must follow the exponent mark");
    EXPECT_EQ(json_error(token_with("start", "-")), "JSON error at byte 67: a number needs a digit");
    // Escapes and surrogate pairs in labels.
    EXPECT_EQ(string_of(from_json(token_with("norm", R"("\ud83d\ude00\"\\\/\b\f\n\r\t\u00e9")")), 1),
              "\xF0\x9F\x98\x80\"\\/\b\f\n\r\t\xC3\xA9");
    EXPECT_EQ(json_error(token_with("norm", R"("\ud83d\u0041")")),
              "JSON error at byte 87: escape of a lone high surrogate; write such strings as {\"utf16\": [...]}");
    EXPECT_EQ(json_error(token_with("norm", R"("a\ude00")")),
              "JSON error at byte 88: escape of a lone low surrogate; write such strings as {\"utf16\": [...]}");
    EXPECT_EQ(json_error(token_with("norm", R"("\q")")), "JSON error at byte 87: invalid escape");
    EXPECT_EQ(json_error(token_with("norm", R"("\u00G0")")), "JSON error at byte 89: a \\u escape needs 4 hex digits");
    // Invalid UTF-8 in a label, raw and behind an escape; a raw control character.
    EXPECT_EQ(json_error(token_with("norm", "\"ab\xC3\"")), "JSON error at byte 89: a string is not valid UTF-8");
    EXPECT_EQ(json_error(token_with("norm", "\"\\n\xED\xA0\x80\"")), "JSON error at byte 87: a string is not valid UTF-8");
    EXPECT_EQ(json_error(token_with("norm", "\"a\x1F\"")), "JSON error at byte 88: a control character must be escaped in a string");
    // A key with an escape is the key it spells.
    const std::string escaped_key = R"({"format":"ONDC","crc":false,"d\u006fc":{"text":"a","tokens":[],"ents":null,"cats":null,"spans":[]}})";
    EXPECT_FALSE(check_against_full_reading(escaped_key));
    EXPECT_EQ(from_json(escaped_key).docs.size(), 1u);
}

TEST(OnePassReader, EveryCutOfAValidTextIsRefusedAsTheFullReadingRefusesIt) {
    const std::string text = to_json(rich_ondc(), true);
    for (std::size_t n = 0; n < text.size(); ++n) {
        const std::string cut = text.substr(0, n);
        EXPECT_FALSE(check_against_full_reading(cut));
        EXPECT_NE(json_error(cut), "");
    }
    EXPECT_EQ(json_error(text.substr(0, 100)), "JSON error at byte 97: unterminated string");
}

TEST(OnePassReader, MutatedTextsAreReadAsTheFullReadingReadsThem) {
    // Byte flips, insertions and cuts of rich content, compact and pretty: whatever the one-pass
    // reader takes must be what the full reading makes of it, and it must take none it refuses.
    static constexpr char inserted[] = "{}[]\\\":,-0e.9u \xC3\xED";
    std::mt19937 rng(37);
    int taken = 0;
    for (bool pretty : {false, true}) {
        const std::string base = to_json(rich_ondc(), pretty);
        for (int i = 0; i < 4000; ++i) {
            std::string t = base;
            const int edits = 1 + static_cast<int>(rng() % 2);
            for (int k = 0; k < edits; ++k) {
                const std::size_t at = rng() % t.size();
                switch (rng() % 4) {
                case 0: t[at] = static_cast<char>(rng() & 0xFF); break;
                case 1: t.insert(at, 1, inserted[rng() % (sizeof inserted - 1)]); break;
                case 2: t[at] = inserted[rng() % (sizeof inserted - 1)]; break;
                default: t.erase(at, 1 + rng() % 3); break;
                }
                if (t.empty()) t = " ";
            }
            if (check_against_full_reading(t)) ++taken;
        }
    }
    EXPECT_GT(taken, 100);  // edits inside strings and digits keep many texts valid
}

}  // namespace
