#include "transport/frame.hpp"

#include <algorithm>

namespace ond::conformance::frame {

void put_le32(std::string& s, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

std::uint32_t get_le32(std::string_view s, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
    return v;
}

std::string hello_frame() {
    std::string f;
    put_le32(f, static_cast<std::uint32_t>(hello_payload.size()));
    f += hello_payload;
    return f;
}

HelloAnswer classify_hello(std::string_view p) {
    if (p == hello_accepted) return HelloAnswer::version2;
    if (!p.empty() && (p[0] == reject || p[0] == unsupported)) return HelloAnswer::version1;
    return HelloAnswer::invalid;
}

std::uint64_t request_payload_size(int version, std::uint64_t input_size) {
    return 1 + (version >= 2 ? number_size : 0) + input_size;
}

std::string request_header(char op, int version, std::uint32_t number, std::uint64_t input_size) {
    const std::uint64_t size = request_payload_size(version, input_size);
    if (size > max_payload) return {};
    std::string h;
    put_le32(h, static_cast<std::uint32_t>(size));
    h.push_back(op);
    if (version >= 2) put_le32(h, number);
    return h;
}

std::optional<Request> parse_request(std::string_view payload, int version) {
    const std::size_t head = 1 + (version >= 2 ? number_size : 0);
    if (payload.size() < head) return std::nullopt;
    Request r;
    r.op = payload[0];
    if (version >= 2) r.number = get_le32(payload, 1);
    r.input = payload.substr(head);
    return r;
}

std::string response_prefix(int version, std::uint32_t number, unsigned char status) {
    std::string p;
    if (version >= 2) put_le32(p, number);
    p.push_back(static_cast<char>(status));
    return p;
}

std::string reject_body(std::string_view code, std::string_view lines) {
    std::string b(code);
    if (!lines.empty()) b.append(1, '\n').append(lines);
    return b;
}

std::size_t response_min_size(int version) { return (version >= 2 ? number_size : 0) + 1; }

std::optional<Response> parse_response(std::string_view payload, int version) {
    if (payload.size() < response_min_size(version)) return std::nullopt;
    Response r;
    std::size_t at = 0;
    if (version >= 2) r.number = get_le32(payload, 0), at = number_size;
    r.status = static_cast<unsigned char>(payload[at]);
    r.body = payload.substr(at + 1);
    return r;
}

ReadStatus read_frame(std::FILE* in, std::string& payload) {
    unsigned char len[4];
    std::size_t got = std::fread(len, 1, 4, in);
    if (got == 0 && std::feof(in)) return ReadStatus::end;
    if (got != 4) return ReadStatus::truncated;
    const std::uint32_t n = get_le32(std::string_view(reinterpret_cast<const char*>(len), 4), 0);
    payload.clear();
    while (payload.size() < n) {
        const std::size_t step = std::min<std::size_t>(n - payload.size(), 1u << 20);
        const std::size_t old = payload.size();
        payload.resize(old + step);
        const std::size_t r = std::fread(payload.data() + old, 1, step, in);
        payload.resize(old + r);
        if (r < step) return ReadStatus::truncated;
    }
    return ReadStatus::frame;
}

bool write_length(std::FILE* out, std::uint32_t size) {
    std::string h;
    put_le32(h, size);
    return std::fwrite(h.data(), 1, 4, out) == 4;
}

bool write_frame(std::FILE* out, std::string_view payload) {
    return write_length(out, static_cast<std::uint32_t>(payload.size())) &&
           std::fwrite(payload.data(), 1, payload.size(), out) == payload.size() && std::fflush(out) == 0;
}

}  // namespace ond::conformance::frame
