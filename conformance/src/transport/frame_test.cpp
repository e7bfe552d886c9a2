// The frame codec of both protocol versions (transport/frame.hpp): what the runner, `ond serve`
// and the test adapters write and read.
#include <cstdio>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

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
    const std::string request = "E\x09\0\0\0{}"s;  // the parsed request views these bytes
    auto rq = frame::parse_request(request, 2);
    ASSERT_TRUE(rq);
    EXPECT_EQ(rq->op, 'E');
    EXPECT_EQ(rq->number, 9u);
    EXPECT_EQ(rq->input, "{}");
    EXPECT_FALSE(frame::parse_request(std::string_view("E\x09\0\0", 4), 2));
    EXPECT_EQ(frame::parse_request("E{}", 1)->input, "{}");
    EXPECT_EQ(frame::response_prefix(2, 9, frame::reject), "\x09\0\0\0\x01"s);
    const std::string response = "\x09\0\0\0\x01" "a.b\nx"s;
    auto rs = frame::parse_response(response, 2);
    ASSERT_TRUE(rs);
    EXPECT_EQ(rs->number, 9u);
    EXPECT_EQ(rs->status, 1);
    EXPECT_EQ(rs->body, "a.b\nx");
    EXPECT_FALSE(frame::parse_response(std::string_view("\x09\0\0\0", 4), 2));
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

}  // namespace
}  // namespace ond::conformance
