// Runs the built `ond` as a separate process on byte inputs made with the codec's writer and by
// hand, and checks stdout, the first stderr line and the exit status.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ond/content_json.hpp"
#include "ond/listing.hpp"
#include "test_support.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace ond::test;
using Bytes8 = std::vector<std::uint8_t>;

struct Result {
    int status = -1;  // exit code, or 128 + signal
    std::string out;
    std::string err;
    std::string err_first_line() const { return err.substr(0, err.find('\n')); }
};

class Work {
public:
    Work() {
        dir_ = fs::temp_directory_path() / ("ond_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
        fs::create_directories(dir_);
    }
    ~Work() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    fs::path file(const std::string& name, const std::string& content) const {
        fs::path p = dir_ / name;
        std::ofstream(p, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
        return p;
    }
    fs::path file(const std::string& name, const Bytes8& content) const {
        return file(name, std::string(content.begin(), content.end()));
    }
    const fs::path& dir() const { return dir_; }

private:
    static inline int counter_ = 0;
    fs::path dir_;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs ond with the arguments, stdin from `input`, and collects stdout and stderr.
Result run(const std::vector<std::string>& args, const std::string& input = {}) {
    Work w;
    const fs::path in = w.file("stdin", input), out = w.dir() / "stdout", err = w.dir() / "stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<std::string> all = {OND_EXE};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    Result r;
    if (posix_spawn(&pid, OND_EXE, &fa, nullptr, argv.data(), environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        ADD_FAILURE() << "cannot start " << OND_EXE;
        return r;
    }
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0) {
    }
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}
Result run(const std::vector<std::string>& args, const Bytes8& input) {
    return run(args, std::string(input.begin(), input.end()));
}

std::string str(const Bytes8& b) { return std::string(b.begin(), b.end()); }

// "Hello world" with two tokens, entity annotation and a category; crc as asked.
ond::Container hello(bool crc = false) {
    ond::Container c = ondc("Hello world");
    c.crc = crc;
    c.docs.edit(0, [&](ond::Doc& d) {
        add_token(c, d, 0, 5, 0, {"hello", "", "INTJ"}, ond::Sentence::start, 1.0f);
        add_token(c, d, 6, 5, 0, {"world", "", "NOUN"}, ond::Sentence::inside, 0.5f);
        d.has_ents = true;
        d.ents.push_back({1, 1, c.strings.intern("LOC"), 0.75f});
        d.has_cats = true;
        d.cats.push_back({c.strings.intern("greeting"), 0.25f});
    });
    return c;
}

// ---- decode -------------------------------------------------------------------------------

TEST(Decode, PrintsTheContentJson) {
    const ond::Container c = hello(true);
    const Result r = run({"decode"}, Encode(c));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, ond::json::to_json(c) + "\n");
    EXPECT_EQ(r.err, "");
}

TEST(Decode, ReadsAFileGivenAsArgument) {
    Work w;
    const ond::Container c = hello();
    const Result r = run({"decode", w.file("a.ondc", Encode(c)).string()});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, ond::json::to_json(c) + "\n");
    EXPECT_EQ(run({"decode", "--pretty", w.file("b.ondc", Encode(c)).string()}).out, ond::json::to_json(c, true) + "\n");
}

TEST(Decode, BinWithCrc) {
    ond::Container c;
    c.format = ond::Format::ondb;
    c.crc = true;
    ond::Doc d0, d1;
    d0.set_text("x");
    d1.set_text("yz");
    d1.tokens.resize(1);  // entity annotation needs a token (R22)
    d1.tokens.length[0] = 2;
    d1.has_ents = true;
    c.docs.push_back(d0);
    c.docs.push_back(d1);
    const Result r = run({"decode"}, Encode(c));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, R"({"format":"ONDB","crc":true,"docs":[{"text":"x","tokens":[],"ents":null,"cats":null,"spans":[]},)"
                     R"({"text":"yz","tokens":[{"start":0,"length":2,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"",)"
                     R"("head":0,"sent":0,"conf":1}],"ents":[],"cats":null,"spans":[]}]})"
                     "\n");
}

TEST(Decode, LoneSurrogateTextIsPrintedAsUtf16Units) {
    Ctr c;
    c.add(1, strings_content({}));
    B text;
    text.u8(1).u16('a').u16(0xD800).u16('b');
    c.add(2, text);
    c.add(3, tokens_content({Tok{1, 1, {}, 0, 0}}));
    const Result r = run({"decode"}, c.build());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(R"("text":{"utf16":[97,55296,98]})"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(R"("start":1,"length":1)"), std::string::npos) << r.out;
}

TEST(Decode, OverlongVarintWithinFiveBytesIsAccepted) {
    // The token count 1 written as 81 80 80 80 00 (valid, non-canonical: R1).
    HelloOndc h;
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content("ab"));
    B tok;
    tok.raw({0x81, 0x80, 0x80, 0x80, 0x00});
    tok.varint(0).varint(2);                           // gap, length
    for (int k = 0; k < 6; ++k) tok.varint(0);         // attributes
    tok.svarint(0).u8(1).u8(0);                        // head, sentence, mode 0
    c.add(3, tok);
    const Result r = run({"decode"}, c.build());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, R"({"format":"ONDC","crc":false,"doc":{"text":"ab","tokens":[{"start":0,"length":2,"norm":"","lemma":"",)"
                     R"("pos":"","tag":"","dep":"","morph":"","head":0,"sent":1,"conf":1}],"ents":null,"cats":null,"spans":[]}})"
                     "\n");
}

TEST(Decode, VarintLongerThanFiveBytesIsRejected) {
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content("ab"));
    B tok;
    tok.raw({0x81, 0x80, 0x80, 0x80, 0x80, 0x00});
    c.add(3, tok);
    const auto bytes = c.build();
    // The varint starts at 12 (header) + 5+1 (table) + 5+3 (text) + 5 (frame) = 31.
    const Result r = run({"decode"}, bytes);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err_first_line(), "error: varint.too-long at byte 31");
    // The human line is the codec's own message.
    try {
        (void)ond::decode(view(bytes));
        FAIL() << "accepted";
    } catch (const ond::Error& e) {
        EXPECT_EQ(r.err, std::string("error: varint.too-long at byte 31\n") + e.what() + "\n");
    }
}

TEST(Decode, UnknownSectionIsSkipped) {
    HelloOndc h;
    h.c.add(9, B{}.raw({1, 2, 3}));
    const Result with = run({"decode"}, h.c.build());
    HelloOndc plain;
    const Result without = run({"decode"}, plain.c.build());
    EXPECT_EQ(with.status, 0) << with.err;
    EXPECT_EQ(with.out, without.out);
}

TEST(Decode, NegativeZeroConfidenceKeepsItsSign) {
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content("a"));
    c.add(3, tokens_content({Tok{0, 1, {}, 0, 1}}, std::vector<float>{-0.0f}));
    const Result r = run({"decode"}, c.build());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(R"("conf":-0.0})"), std::string::npos) << r.out;
}

TEST(Decode, RejectsWithTheCodecsCode) {
    HelloOndc h;
    auto bytes = h.c.build();
    bytes[0] = 'X';
    Result r = run({"decode"}, bytes);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err_first_line(), "error: header.bad-magic at byte 0");
    r = run({"decode"}, std::string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err_first_line(), "error: header.truncated at byte 0");
    auto crc = HelloOndc().c.build(true);
    crc.back() ^= 1;
    r = run({"decode"}, crc);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err_first_line(), "error: crc.mismatch at byte " + std::to_string(crc.size() - 4));
}

// ---- encode -------------------------------------------------------------------------------

TEST(Encode, WritesTheCanonicalBytes) {
    const ond::Container c = hello(true);
    const Result r = run({"encode"}, ond::json::to_json(c));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, str(Encode(c)));
    EXPECT_EQ(r.err, "");
}

TEST(Encode, NegativeZeroBitsSurvive) {
    const std::string j = R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[{"start":0,"length":1,"norm":"",)"
                          R"("lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":-0}],)"
                          R"("ents":null,"cats":null,"spans":[]}})";
    const Result r = run({"encode"}, j);
    ASSERT_EQ(r.status, 0) << r.err;
    // Mode 1 then the float 0x80000000, little-endian, at the very end.
    ASSERT_GE(r.out.size(), 5u);
    EXPECT_EQ(r.out.substr(r.out.size() - 5), std::string("\x01\x00\x00\x00\x80", 5));
    EXPECT_EQ(run({"decode"}, r.out).out, ond::json::to_json(ond::json::from_json(j)) + "\n");
}

TEST(Encode, LoneSurrogateRoundTrips) {
    const std::string j = R"({"format":"ONDC","crc":true,"doc":{"text":{"utf16":[56320,120]},"tokens":[],)"
                          R"("ents":null,"cats":null,"spans":[]}})";
    const Result e = run({"encode"}, j);
    ASSERT_EQ(e.status, 0) << e.err;
    const Result d = run({"decode"}, e.out);
    EXPECT_EQ(d.out, j + "\n");
}

TEST(Encode, MalformedJsonIsJsonInvalid) {
    for (const char* bad : {"", "{", R"({"format":"ONDC"})", "[1,2]", R"({"format":"ONDC","crc":false,"doc":{},"x":1})"}) {
        const Result r = run({"encode"}, std::string(bad));
        EXPECT_EQ(r.status, 1) << bad;
        EXPECT_EQ(r.err_first_line(), "error: json.invalid") << bad;
        EXPECT_EQ(r.out, "");
    }
}

// Input that cannot become content JSON is refused at its first hopeless byte, with where.
TEST(Encode, HopelessInputIsRefusedAtOnce) {
    Result r = run({"encode", "/dev/zero"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "error: json.invalid\nJSON error at byte 0: byte 0x00 cannot start content JSON, which is an object\n");
    r = run({"encode"}, std::string(R"({"format":"ONDC","crc":false,"doc":{"text":"a\q"}})"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "error: json.invalid\nJSON error at byte 46: 'q' is not an escape\n");
    EXPECT_EQ(r.out, "");
}

TEST(Encode, ContentThatCannotBeWrittenGivesTheWritersCode) {
    auto c = hello();
    c.docs.edit(0, [](ond::Doc& d) { d.tokens.head[1] = 2; });
    Result r = run({"encode"}, ond::json::to_json(c));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err_first_line(), "error: content.head-out-of-range");
    EXPECT_EQ(r.out, "");

    const std::string inf = R"({"format":"ONDC","crc":false,"doc":{"text":"a","tokens":[{"start":0,"length":1,"norm":"",)"
                            R"("lemma":"","pos":"","tag":"","dep":"","morph":"","head":0,"sent":0,"conf":1e39}],)"
                            R"("ents":null,"cats":null,"spans":[]}})";
    r = run({"encode"}, inf);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err_first_line(), "error: content.confidence-out-of-range");
}

// ---- stream -------------------------------------------------------------------------------

TEST(Stream, OneLinePerContainerThenTheFault) {
    const ond::Container a = hello(true), b = ondc("second");
    const auto ba = Encode(a), bb = Encode(b);
    std::string input = str(ba) + str(bb);
    Result r = run({"stream"}, input);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, ond::json::to_json(a) + "\n" + ond::json::to_json(b) + "\n");

    // A third container cut short: the two lines, then stream.truncated.
    const std::string cut = str(bb).substr(0, bb.size() - 3);
    r = run({"stream"}, input + cut);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, ond::json::to_json(a) + "\n" + ond::json::to_json(b) + "\n");
    EXPECT_EQ(r.err_first_line(), "error: stream.truncated at byte " + std::to_string(input.size() + cut.size()));

    // Cut inside the header of the third.
    r = run({"stream"}, input + "OND");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err_first_line(), "error: stream.truncated at byte " + std::to_string(input.size() + 3));
}

TEST(Stream, EmptyInputIsAnEmptyStream) {
    const Result r = run({"stream"}, std::string());
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
}

TEST(Stream, BinInAStreamIsRefused) {
    ond::Container bin;
    bin.format = ond::Format::ondb;
    const Result r = run({"stream"}, str(Encode(hello())) + str(Encode(bin)));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, ond::json::to_json(hello()) + "\n");
    EXPECT_EQ(r.err_first_line(), "error: stream.bin-in-stream at byte " + std::to_string(Encode(hello()).size()));
}

// ---- validate -----------------------------------------------------------------------------

// A file a strict reader must reject (head one past the end) and one only the reference rejects
// (sentence padding bits set).
struct Files {
    Work w;
    fs::path good, bin, bad, impl;
    std::uint64_t bad_offset = 0, impl_offset = 0;
    Files() {
        good = w.file("good.ondc", Encode(hello(true)));
        ond::Container b;
        b.format = ond::Format::ondb;
        ond::Doc docs[3];
        for (auto& d : docs) d.set_text("ab");
        add_token(b, docs[0], 0, 1, 0);
        add_token(b, docs[0], 1, 1, 0);
        add_token(b, docs[2], 0, 2, 0);
        for (const auto& d : docs) b.docs.push_back(d);
        bin = w.file("bin.ondb", Encode(b));

        HelloOndc h;
        h.c.body()[h.tokens_at - 12 + h.tok.head[1]] = 0x02;  // delta +1 from the last token
        bad_offset = h.tokens_at + h.tok.head[1];
        bad = w.file("bad.ondc", h.c.build());

        HelloOndc p;
        p.c.body()[p.tokens_at - 12 + p.tok.sent] |= 0x10;  // token 2's bits: padding
        impl_offset = p.tokens_at + p.tok.sent;
        impl = w.file("impl.ondc", p.c.build());
    }
};

TEST(Validate, OneLinePerFile) {
    Files f;
    Result r = run({"validate", f.good.string(), f.bin.string()});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, f.good.string() + ": ok (ONDC, 1 document, 2 tokens, crc)\n" + f.bin.string() +
                         ": ok (ONDB, 3 documents, 3 tokens, no crc)\n");

    r = run({"validate", f.good.string(), f.bad.string(), f.impl.string()});
    EXPECT_EQ(r.status, 1);
    const std::string lines = r.out;
    EXPECT_EQ(lines.substr(0, lines.find('\n')), f.good.string() + ": ok (ONDC, 1 document, 2 tokens, crc)");
    EXPECT_NE(lines.find(f.bad.string() + ": invalid at byte " + std::to_string(f.bad_offset) +
                         ": tokens.head-out-of-range (R19): "),
              std::string::npos)
        << lines;
    EXPECT_NE(lines.find(f.impl.string() + ": rejected (implementation-defined) at byte " +
                         std::to_string(f.impl_offset) + ": tokens.sentence-padding (R20): "),
              std::string::npos)
        << lines;
}

TEST(Validate, StdinAndMissingFiles) {
    Files f;
    Result r = run({"validate", "-"}, slurp(f.good));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "<stdin>: ok (ONDC, 1 document, 2 tokens, crc)\n");
    r = run({"validate", f.bad.string(), (f.w.dir() / "missing.ondc").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("missing.ondc"), std::string::npos);
    EXPECT_NE(r.out.find("tokens.head-out-of-range"), std::string::npos);
}

TEST(Validate, JsonReport) {
    Files f;
    const Result r = run({"validate", "--json", f.good.string(), f.impl.string()});
    EXPECT_EQ(r.status, 1);
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.size(), 2u);
    EXPECT_EQ(j[0]["file"], f.good.string());
    EXPECT_EQ(j[0]["ok"], true);
    EXPECT_EQ(j[0]["format"], "ONDC");
    EXPECT_EQ(j[0]["docs"], 1);
    EXPECT_EQ(j[0]["tokens"], 2);
    EXPECT_EQ(j[0]["crc"], true);
    EXPECT_TRUE(j[0]["error"].is_null());
    EXPECT_EQ(j[1]["ok"], false);
    EXPECT_EQ(j[1]["error"]["code"], "tokens.sentence-padding");
    EXPECT_EQ(j[1]["error"]["rule"], "R20");
    EXPECT_EQ(j[1]["error"]["offset"], f.impl_offset);
    EXPECT_EQ(j[1]["error"]["verdict"], "implementation-defined");
}

TEST(Validate, StreamMode) {
    Work w;
    const auto a = Encode(hello(true)), b = Encode(ondc("x"));
    const fs::path s = w.file("s.onds", str(a) + str(b));
    Result r = run({"validate", "--stream", s.string()});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, s.string() + ": ok (stream, 2 containers, 2 tokens, mixed crc)\n");
    const fs::path t = w.file("t.onds", str(a) + str(b).substr(0, 13));
    r = run({"validate", "--stream", t.string()});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out.substr(0, r.out.find(" at byte")), t.string() + ": invalid");
    EXPECT_NE(r.out.find("stream.truncated (R25)"), std::string::npos) << r.out;
}

// ---- inspect ------------------------------------------------------------------------------

TEST(Inspect, ListsEveryFieldWithOffsetAndBytes) {
    const auto bytes = Encode(hello());
    const Result r = run({"inspect"}, bytes);
    EXPECT_EQ(r.status, 0) << r.err;
    bool ok = false;
    EXPECT_EQ(r.out, ond::format_listing(view(bytes), ok));
    EXPECT_TRUE(ok);
    // The magic's line: offset, its four bytes, then its name and value.
    EXPECT_NE(r.out.find("00000000  4f 4e 44 43 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("header.magic: ONDC"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("!!"), std::string::npos);
}

TEST(Inspect, EndsWithTheFault) {
    Files f;
    const Result r = run({"inspect", f.bad.string()});
    EXPECT_EQ(r.status, 1);
    char want[64];
    std::snprintf(want, sizeof want, "!! %08llx tokens.head-out-of-range (R19): ", static_cast<unsigned long long>(f.bad_offset));
    const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
    EXPECT_EQ(last.substr(0, std::strlen(want)), want) << r.out;
}

TEST(Inspect, StreamListsEachContainer) {
    const auto a = Encode(hello()), b = Encode(ondc("x"));
    Result r = run({"inspect", "--stream"}, str(a) + str(b));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("# container 0\n00000000  4f 4e 44 43"), std::string::npos) << r.out;
    char second[64];
    std::snprintf(second, sizeof second, "# container 1\n%08zx  4f 4e 44 43", a.size());
    EXPECT_NE(r.out.find(second), std::string::npos) << r.out;
    r = run({"inspect", "--stream"}, str(a) + str(b).substr(0, 20));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("stream.truncated (R25)"), std::string::npos) << r.out;
}

// ---- usage --------------------------------------------------------------------------------

TEST(Usage, ErrorsExitWithTwo) {
    EXPECT_EQ(run({}).status, 2);
    EXPECT_EQ(run({"frobnicate"}).status, 2);
    EXPECT_EQ(run({"decode", "--bogus"}).status, 2);
    EXPECT_EQ(run({"validate"}).status, 2);
    const Result r = run({"decode", "/nonexistent/dir/file.ondc"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("cannot open /nonexistent/dir/file.ondc"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("error: "), std::string::npos) << r.err;
}

TEST(Usage, HelpForEverySubcommand) {
    for (const char* sub : {"decode", "encode", "stream", "validate", "inspect"}) {
        const Result r = run({sub, "--help"});
        EXPECT_EQ(r.status, 0) << sub;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub << ": " << r.out;
    }
    const Result r = run({"--help"});
    EXPECT_EQ(r.status, 0);
    for (const char* sub : {"decode", "encode", "stream", "validate", "inspect", "conform", "corpus"})
        EXPECT_NE(r.out.find(sub), std::string::npos) << sub;
}

}  // namespace
