// Unit tests of the runner's parts: command splitting, globs, SHA-256, framing edits, processes.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "suite/cases.hpp"
#include "suite/derive.hpp"
#include "test_fixture.hpp"
#include "ond/internal/framing.hpp"
#include "suite/mutate.hpp"
#include "ond/content_json.hpp"
#include "ond/ond.hpp"
#include "transport/process.hpp"
#include "suite/reference.hpp"

namespace ond::conformance {

using namespace ond::framing;  // Layout and the edit helpers
namespace {

using testing::bytes_of;


TEST(SplitCommand, WordsQuotesAndEscapes) {
    EXPECT_EQ(split_command("ond decode"), (std::vector<std::string>{"ond", "decode"}));
    EXPECT_EQ(split_command("  a\t 'b c'  \"d \\\"e\\\" $x\" f\\ g "),
              (std::vector<std::string>{"a", "b c", "d \"e\" $x", "f g"}));
    EXPECT_EQ(split_command("x'y'\"z\""), (std::vector<std::string>{"xyz"}));
    EXPECT_EQ(split_command("''"), (std::vector<std::string>{""}));
    EXPECT_EQ(split_command("a 'it''s'"), (std::vector<std::string>{"a", "its"}));
    EXPECT_THROW(split_command("a 'b"), std::invalid_argument);
    EXPECT_THROW(split_command("a \"b"), std::invalid_argument);
    EXPECT_THROW(split_command("   "), std::invalid_argument);
}

TEST(Glob, Matches) {
    EXPECT_TRUE(glob_match("invalid/*", "invalid/tokens/head"));
    EXPECT_TRUE(glob_match("*/tokens/*", "invalid/tokens/head"));
    EXPECT_FALSE(glob_match("valid/*", "invalid/tokens/head"));
    EXPECT_TRUE(glob_match("derived/bitflip/*/bit1?", "derived/bitflip/x/bit12"));
    EXPECT_FALSE(glob_match("derived/bitflip/*/bit1?", "derived/bitflip/x/bit123"));
    EXPECT_TRUE(glob_match("[iv]*", "valid/a"));
    EXPECT_FALSE(glob_match("[!iv]*", "valid/a"));
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc"));
    EXPECT_FALSE(glob_match("a*b*c", "aXXbYY"));
}

TEST(Layout, RoundTripAndReframe) {
    std::string bytes = bytes_of(testing::basic_container(true));
    auto l = Layout::parse(bytes);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->serialize(), bytes);
    ASSERT_GE(l->sections.size(), 3u);
    EXPECT_EQ(l->sections[0].id, 1);
    // Appending a string to the table re-frames section 1 and the body and fixes the CRC, so
    // the result is still a valid (non-canonical) container with the same content.
    auto& table = l->sections[0];
    std::uint32_t count = 0;
    std::size_t n = varint_size_at(table.content, 0, &count);
    table.content.replace(0, n, encode_varint(count + 1));
    table.content += encode_varint(3 << 1) + "zzz";
    std::string edited = l->serialize();
    EXPECT_EQ(edited.size(), bytes.size() + 4);
    Container a = decode(as_bytes(bytes.data(), bytes.size()));
    Container b = decode(as_bytes(edited.data(), edited.size()));
    EXPECT_TRUE(same_content(a, b));

    // A bin's records parse into sections too.
    Container bin;
    bin.format = Format::ondb;
    const ond::Container basic = testing::basic_container(false);
    ond::Doc bin_doc = basic.docs[0].to_doc();
    bin.strings = basic.strings;
    bin_doc.has_cats = false;
    bin_doc.cats.clear();
    bin_doc.spans.clear();
    bin.docs.push_back(bin_doc);
    std::string bb = bytes_of(bin);
    auto lb = Layout::parse(bb);
    ASSERT_TRUE(lb);
    ASSERT_EQ(lb->sections.size(), 2u);
    EXPECT_TRUE(lb->sections[1].has_records);
    ASSERT_EQ(lb->sections[1].records.size(), 1u);
    EXPECT_EQ(lb->sections[1].records[0].sections.front().id, 2);
    EXPECT_EQ(lb->serialize(), bb);
    EXPECT_FALSE(Layout::parse(bb.substr(0, bb.size() - 1)));
}

TEST(Mutator, SeededAndDeterministic) {
    std::string bytes = bytes_of(testing::basic_container(true));
    Mutator a(42), b(42), c(43);
    int changed = 0, same_as_c = 0;
    for (int i = 0; i < 200; ++i) {
        std::string x = a.mutate(bytes), y = b.mutate(bytes), z = c.mutate(bytes);
        EXPECT_EQ(x, y);
        changed += x != bytes;
        same_as_c += x == z;
    }
    EXPECT_GT(changed, 150);
    EXPECT_LT(same_as_c, 100);
}

TEST(Derive, CasesFollowTheRules) {
    std::string dir = std::string(OND_TEST_WORK_DIR) + "/derive-" + std::to_string(::getpid());
    testing::build_fixture_corpus(dir);
    Corpus corpus = load_corpus(dir);
    ASSERT_TRUE(corpus.problems.empty());
    DeriveOptions opt;
    opt.max_per_kind = 40;
    opt.seed = 7;
    auto cases = derive_cases(corpus.cases, opt);
    int bitflips = 0, prefixes = 0, mutations = 0, memory = 0;
    for (const auto& c : cases) {
        RefAnswer ref = reference_answer(c.kind == CaseKind::stream ? Op::stream : Op::decode, c.input);
        if (c.origin == Origin::bitflip) {
            ++bitflips;
            EXPECT_FALSE(c.expect_accept);
            EXPECT_FALSE(ref.accept) << c.id;
            // Sources are CRC-protected only.
            EXPECT_TRUE(c.source == "valid/document/basic" || c.source == "valid/bin/two-docs" ||
                        c.source == "noncanonical/section/unknown-section") << c.id;
        } else if (c.origin == Origin::prefix) {
            ++prefixes;
            EXPECT_FALSE(ref.accept) << c.id;
        } else if (c.origin == Origin::mutation) {
            ++mutations;
            EXPECT_EQ(ref.accept, c.expect_accept) << c.id;
        } else if (c.origin == Origin::memory) {
            ++memory;
            EXPECT_FALSE(ref.accept) << c.id;
            EXPECT_TRUE(c.check_memory);
        }
    }
    EXPECT_EQ(bitflips, 40);
    EXPECT_EQ(prefixes, 40);
    EXPECT_EQ(mutations, 40);
    EXPECT_GE(memory, 8);
    // The same seed gives the same mutations; another seed others.
    auto again = derive_cases(corpus.cases, opt);
    ASSERT_EQ(again.size(), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(again[i].input, cases[i].input);
    opt.seed = 8;
    auto other = derive_cases(corpus.cases, opt);
    int differ = 0;
    for (std::size_t i = 0; i < cases.size() && i < other.size(); ++i) differ += other[i].input != cases[i].input;
    EXPECT_GT(differ, 10);
    std::filesystem::remove_all(dir);
}

TEST(Process, ExitCodesOutputAndSignals) {
    auto r = run_process({"/bin/sh", "-c", "cat; echo oops >&2; exit 3"}, "hello", std::chrono::seconds(5));
    ASSERT_TRUE(r.started);
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.out, "hello");
    EXPECT_EQ(r.err, "oops\n");
    EXPECT_GT(r.peak_kb, 0);

    r = run_process({"/bin/sh", "-c", "kill -SEGV $$"}, "", std::chrono::seconds(5));
    EXPECT_FALSE(r.exited);
    EXPECT_EQ(r.signal, SIGSEGV);

    r = run_process({"no-such-program-here"}, "", std::chrono::seconds(5));
    EXPECT_FALSE(r.started);
    EXPECT_NE(r.error.find("cannot find"), std::string::npos);
}

TEST(Process, LargeInputAndOutputDoNotDeadlock) {
    std::string big(8u << 20, 'x');
    for (std::size_t i = 0; i < big.size(); i += 4099) big[i] = static_cast<char>('a' + i % 26);
    auto r = run_process({"/bin/cat"}, big, std::chrono::seconds(20));
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, big);
    // A child that does not read its input at all must not block or kill the runner (SIGPIPE).
    r = run_process({"/bin/sh", "-c", "exit 0"}, big, std::chrono::seconds(20));
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 0);
}

bool process_gone(pid_t pid) {
    for (int i = 0; i < 200; ++i) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        if (!stat) return true;
        std::string s((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        auto close = s.rfind(')');
        if (close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z') return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TEST(Process, TimeoutKillsTheWholeGroup) {
    auto t0 = std::chrono::steady_clock::now();
    auto r = run_process({"/bin/sh", "-c", "sleep 100 & echo $!; wait"}, "", std::chrono::milliseconds(500));
    auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_TRUE(r.timed_out);
    EXPECT_FALSE(r.exited);
    EXPECT_LT(took, std::chrono::seconds(5));
    pid_t grandchild = static_cast<pid_t>(std::stol(r.out));
    EXPECT_TRUE(process_gone(grandchild));
}

TEST(Process, PersistentFramingRestartsAfterACrash) {
    PersistentProcess p({OND_TEST_ADAPTER, "--fault", "crash-on-marker", "serve"});
    std::string good = bytes_of(testing::basic_container(true));
    auto rep = p.request('D', good, std::chrono::seconds(10));
    ASSERT_EQ(static_cast<int>(rep.kind), static_cast<int>(PersistentProcess::Reply::Kind::answer));
    EXPECT_EQ(rep.payload[0], '\0');
    EXPECT_FALSE(json::compare_content(json::to_json(testing::basic_container(true)), rep.payload.substr(1)));
    long first_pid = p.pid();
    rep = p.request('D', bytes_of(testing::basic_container(false, "boom now")), std::chrono::seconds(10));
    EXPECT_EQ(static_cast<int>(rep.kind), static_cast<int>(PersistentProcess::Reply::Kind::crash));
    EXPECT_EQ(rep.signal, SIGSEGV);
    rep = p.request('D', "xx", std::chrono::seconds(10));
    ASSERT_EQ(static_cast<int>(rep.kind), static_cast<int>(PersistentProcess::Reply::Kind::answer));
    EXPECT_EQ(rep.payload, std::string("\1header.truncated"));
    EXPECT_NE(p.pid(), first_pid);
}

TEST(Testee, ParsesTheErrorLine) {
    EXPECT_EQ(parse_error_line("error: tokens.empty\nmore").code, "tokens.empty");
    EXPECT_EQ(parse_error_line("error: tokens.empty\nmore").offset, std::nullopt);
    EXPECT_EQ(parse_error_line("error: crc.mismatch at byte 3").code, "crc.mismatch");
    EXPECT_EQ(parse_error_line("error: crc.mismatch at byte 3").offset, std::optional<std::uint64_t>(3));
    EXPECT_EQ(parse_error_line("error: crc.mismatch at byte 3\r\nat byte 4").offset, std::optional<std::uint64_t>(3));
    EXPECT_EQ(parse_error_line("warning: x\nerror: crc.mismatch").code, "");
    EXPECT_EQ(parse_error_line("").code, "");
}

// The optional offset after the code (docs/protocol.md, "Rejections"): only exactly " at byte N".
TEST(Testee, ParsesTheOffsetOfARejection) {
    EXPECT_EQ(rejection_report("varint.too-long", 702), "varint.too-long at byte 702");
    EXPECT_EQ(rejection_report("content.empty-label", ~std::uint64_t{0}), "content.empty-label");
    const Rejection r = parse_rejection(rejection_report("stream.truncated", 9223372036854775807u));
    EXPECT_EQ(r.code, "stream.truncated");
    EXPECT_EQ(r.offset, std::optional<std::uint64_t>(9223372036854775807u));
    for (const char* no_offset : {"crc.mismatch", "crc.mismatch at byte", "crc.mismatch at byte -3", "crc.mismatch at byte 3x",
                                  "crc.mismatch at byte +3", "crc.mismatch  at byte 3", "crc.mismatch\tat byte 3", "crc.mismatch at 3",
                                  "crc.mismatch at byte 99999999999999999999"}) {
        const Rejection n = parse_rejection(no_offset);
        EXPECT_EQ(n.code, "crc.mismatch") << no_offset;
        EXPECT_EQ(n.offset, std::nullopt) << no_offset;
    }
    EXPECT_EQ(parse_rejection(" at byte 3").code, "");
    EXPECT_EQ(parse_rejection(" at byte 3").offset, std::nullopt);
}

}  // namespace
}  // namespace ond::conformance
