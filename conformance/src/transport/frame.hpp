// The framed protocol of persistent mode (docs/protocol.md), in one place: the length-prefixed
// frame, the hello, and the request and response payloads of versions 1 and 2. The runner, `ond
// serve` and the test adapters all read and write frames through this; it knows bytes, not cases.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <string_view>

namespace ond::conformance::frame {

constexpr std::size_t length_size = 4;  // the frame's length field
constexpr std::size_t number_size = 4;  // version 2: the request number
constexpr std::uint64_t max_payload = 0xFFFFFFFFu;

void put_le32(std::string& s, std::uint32_t v);
std::uint32_t get_le32(std::string_view s, std::size_t at);

// The hello: a version-1 request whose payload is "V2". A version-2 process answers "\0" "2".
inline constexpr std::string_view hello_payload = "V2";
inline constexpr std::string_view hello_accepted{"\0" "2", 2};
std::string hello_frame();
enum class HelloAnswer { version2, version1, invalid };
HelloAnswer classify_hello(std::string_view response_payload);

// Status bytes of a response.
enum Status : unsigned char { accept = 0, reject = 1, unsupported = 2 };

// A request frame's bytes up to its input: the length (op byte, number, input), the op byte and,
// in version 2, the number. Empty when the input does not fit the 4-byte length.
std::string request_header(char op, int version, std::uint32_t number, std::uint64_t input_size);
// The payload size of a request whose input has `input_size` bytes.
std::uint64_t request_payload_size(int version, std::uint64_t input_size);

struct Request {
    char op = 0;
    std::uint32_t number = 0;  // version 2 only
    std::string_view input;
};
// Reads a request payload (the frame without its length). Empty when it is too short.
std::optional<Request> parse_request(std::string_view payload, int version);
// The parsed frames view the payload: a temporary string would leave them dangling.
template <class S>
    requires std::is_same_v<S, std::string>
std::optional<Request> parse_request(S&& payload, int version) = delete;

// A response payload's bytes up to its body: the number (version 2) and the status byte.
std::string response_prefix(int version, std::uint32_t number, unsigned char status);
// The body of a reject: the code, then '\n' and the lines of a stream read before the fault.
std::string reject_body(std::string_view code, std::string_view lines);

struct Response {
    std::uint32_t number = 0;  // version 2 only
    unsigned char status = 0;
    std::string_view body;     // after the status byte
};
// The size a response payload needs at least (number and status byte).
std::size_t response_min_size(int version);
std::optional<Response> parse_response(std::string_view payload, int version);
template <class S>
    requires std::is_same_v<S, std::string>
std::optional<Response> parse_response(S&& payload, int version) = delete;

// Blocking reading and writing on a stdio stream, for adapters (`ond serve`, the test adapters).
enum class ReadStatus { frame, end, truncated };
// Reads one frame's payload into `payload`, in steps so that a false length cannot make it
// allocate what never arrives. `end`: end of input before a frame began.
ReadStatus read_frame(std::FILE* in, std::string& payload);
// Writes the length of a frame whose payload is `size` bytes (the payload follows).
bool write_length(std::FILE* out, std::uint32_t size);
bool write_frame(std::FILE* out, std::string_view payload);

}  // namespace ond::conformance::frame
