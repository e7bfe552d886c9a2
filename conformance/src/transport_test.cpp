// The transport layer: the frame codec, and the runner's processes against hostile adapters
// (each test gives the runner an adapter that breaks one guarantee and asserts the exact verdicts).
#include <cstdio>

#include <gtest/gtest.h>

#include "test_conform_run.hpp"
#include "transport/frame.hpp"

namespace ond::conformance {
namespace {

using namespace std::string_literals;

TEST(Frame, RequestHeadersOfBothVersions) {
    EXPECT_EQ(frame::request_header('D', 1, 7, 3), "\x04\0\0\0D"s);
    EXPECT_EQ(frame::request_header('S', 2, 0x01020304, 0), "\x05\0\0\0S\x04\x03\x02\x01"s);
    // An input that cannot be framed has no header (the runner never sends it).
    EXPECT_EQ(frame::request_header('D', 1, 0, 0xFFFFFFFFu), "");
    EXPECT_EQ(frame::request_header('D', 1, 0, 0xFFFFFFFEu).size(), 5u);
    EXPECT_EQ(frame::request_header('D', 2, 0, 0xFFFFFFFBu), "");
    EXPECT_EQ(frame::request_header('D', 2, 0, 0xFFFFFFFAu).size(), 9u);
}

TEST(Frame, RequestsAndResponsesReadBack) {
    auto rq = frame::parse_request("E\x09\0\0\0{}"s, 2);
    ASSERT_TRUE(rq);
    EXPECT_EQ(rq->op, 'E');
    EXPECT_EQ(rq->number, 9u);
    EXPECT_EQ(rq->input, "{}");
    EXPECT_FALSE(frame::parse_request("E\x09\0\0"s, 2));
    EXPECT_EQ(frame::parse_request("E{}", 1)->input, "{}");
    EXPECT_EQ(frame::response_prefix(2, 9, frame::reject), "\x09\0\0\0\x01"s);
    auto rs = frame::parse_response("\x09\0\0\0\x01" "a.b\nx"s, 2);
    ASSERT_TRUE(rs);
    EXPECT_EQ(rs->number, 9u);
    EXPECT_EQ(rs->status, 1);
    EXPECT_EQ(rs->body, "a.b\nx");
    EXPECT_FALSE(frame::parse_response("\x09\0\0\0"s, 2));
    EXPECT_EQ(frame::reject_body("a.b", ""), "a.b");
    EXPECT_EQ(frame::reject_body("a.b", "{}\n"), "a.b\n{}\n");
}

TEST(Frame, TheHello) {
    EXPECT_EQ(frame::hello_frame(), "\x02\0\0\0V2"s);
    EXPECT_EQ(frame::classify_hello("\0" "2"s), frame::HelloAnswer::version2);
    EXPECT_EQ(frame::classify_hello("\x02"), frame::HelloAnswer::version1);
    EXPECT_EQ(frame::classify_hello("\x01whatever"), frame::HelloAnswer::version1);
    EXPECT_EQ(frame::classify_hello("\0" "3"s), frame::HelloAnswer::invalid);
    EXPECT_EQ(frame::classify_hello(""), frame::HelloAnswer::invalid);
}

TEST(Frame, StreamReadingStopsAtATruncatedFrameWithoutAllocatingItsLength) {
    std::FILE* f = std::tmpfile();
    ASSERT_TRUE(f);
    ASSERT_TRUE(frame::write_frame(f, "D abc"));
    ASSERT_TRUE(frame::write_length(f, 0xFFFFFFF0u));  // a length the rest never fills
    std::fputs("xy", f);
    std::rewind(f);
    std::string p;
    EXPECT_EQ(frame::read_frame(f, p), frame::ReadStatus::frame);
    EXPECT_EQ(p, "D abc");
    EXPECT_EQ(frame::read_frame(f, p), frame::ReadStatus::truncated);
    EXPECT_LE(p.capacity(), (1u << 20) + 64);  // one step, not the declared 4 GiB
    EXPECT_EQ(frame::read_frame(f, p), frame::ReadStatus::end);
    std::fclose(f);
}

using namespace test_run;
const std::string hostile = OND_HOSTILE_ADAPTER;

std::string persistent_mode(const std::string& mode) { return hostile + " " + mode + " serve"; }

std::size_t count_status(const ConformRun& r, const std::string& status) {
    std::size_t n = 0;
    for (const auto& c : r.results["cases"]) n += c["status"] == status;
    return n;
}

// 24.1: the processes an adapter starts and keeps are the adapter. A wrapper's child (the usual
// start of a JVM or .NET adapter) and a helper it asks on every request live as long as it does.
TEST(Transport, AnAdapterBehindAShellWrapperPassesTheCorpusAndTheDerivedCases) {
    ConformRun r = conform({"--persistent", "sh -c '" + persistent_mode("honest") + "; exit $?'"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(count_status(r, "fail"), 0u) << r.out;
    EXPECT_GT(r.results["cases"].size(), 40u);  // the fixture corpus and its derived cases
}

TEST(Transport, AHelperKeptBetweenRequestsLivesAsLongAsTheAdapter) {
    for (const auto& mode : {std::vector<std::string>{"--persistent", persistent_mode("helper")},
                             std::vector<std::string>{"--decoder", hostile + " helper decode", "--stream-decoder", hostile + " helper stream"}}) {
        ConformRun r = conform(mode);
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_EQ(count_status(r, "fail"), 0u) << r.out;
        EXPECT_GT(r.results["cases"].size(), 40u);
    }
}

TEST(Transport, TheMemoryOfAWrappedAdapterIsTheTrees) {
    ConformRun r = conform({"--no-derived", "--filter", "valid/document/basic", "--persistent",
                            "sh -c '" + hostile + " touch 64 serve; exit $?'"});
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_GT(r.results["cases"][0]["rss_kb"].get<long>(), 64 * 1024);
}

}  // namespace
}  // namespace ond::conformance
