// `ond serve`: the reference codec behind the framed protocol (docs/protocol.md), version 2 after
// the hello. A reply is streamed: its size is counted with one pass of the JSON writer, then the
// frame goes out with a second pass, so no answer is ever held whole (a decode of a small input
// whose JSON is huge costs what `ond decode` costs).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "ond/conformance.hpp"
#include "ond/content_json.hpp"
#include "ond/ond.hpp"
#include "transport/frame.hpp"

namespace ond::conformance {

namespace {

using Sink = std::function<void(std::string_view)>;
using Body = std::function<void(const Sink&)>;

// The stream operation's lines; returns the code of the fault that ended it ("" at a clean end).
std::string stream_lines(std::string_view bytes, const Sink& sink) {
    StreamReader reader(as_bytes(bytes.data(), bytes.size()));
    try {
        while (auto c = reader.next()) json::write_json(*c, sink);
    } catch (const ond::Error& e) {
        return std::string(e.code());
    }
    return {};
}

// Sends one response frame: the prefix (number, status), then the body, which is produced twice:
// once to count its bytes for the length field, once onto stdout.
bool send(const std::string& prefix, const Body& body) {
    std::uint64_t size = prefix.size();
    body([&](std::string_view piece) { size += piece.size(); });
    if (size > frame::max_payload) {
        // The answer cannot be framed: say so as an unsupported operation rather than lie.
        std::fprintf(stderr, "ond serve: an answer of %llu bytes does not fit one frame\n", static_cast<unsigned long long>(size));
        std::string p = prefix;
        p.back() = static_cast<char>(frame::unsupported);
        return frame::write_frame(stdout, p);
    }
    bool ok = frame::write_length(stdout, static_cast<std::uint32_t>(size)) && std::fwrite(prefix.data(), 1, prefix.size(), stdout) == prefix.size();
    body([&](std::string_view piece) { ok = ok && std::fwrite(piece.data(), 1, piece.size(), stdout) == piece.size(); });
    return ok && std::fflush(stdout) == 0;
}

bool answer(const frame::Request& rq, int version) {
    auto prefix = [&](unsigned char status) { return frame::response_prefix(version, rq.number, status); };
    auto reject_with = [&](std::string code) {
        return send(prefix(frame::reject), [code](const Sink& s) { s(code); });
    };
    switch (rq.op) {
        case 'D': {
            Container c;
            try {
                decode_into(as_bytes(rq.input.data(), rq.input.size()), c);
            } catch (const ond::Error& e) {
                return reject_with(std::string(e.code()));
            }
            return send(prefix(frame::accept), [&](const Sink& s) { json::write_json(c, s); });
        }
        case 'E': {
            std::vector<std::byte> bytes;
            try {
                bytes = encode(json::from_json(rq.input));
            } catch (const json::JsonError&) {
                return reject_with("");
            } catch (const ond::Error& e) {
                return reject_with(std::string(e.code()));
            }
            return send(prefix(frame::accept), [&](const Sink& s) { s({reinterpret_cast<const char*>(bytes.data()), bytes.size()}); });
        }
        case 'S': {
            std::uint64_t lines = 0;
            const std::string code = stream_lines(rq.input, [&](std::string_view p) { lines += p.size(); });
            if (code.empty()) return send(prefix(frame::accept), [&](const Sink& s) { stream_lines(rq.input, s); });
            return send(prefix(frame::reject), [&](const Sink& s) {
                s(code);
                if (lines) s("\n"), stream_lines(rq.input, s);
            });
        }
        default: return frame::write_frame(stdout, prefix(frame::unsupported));
    }
}

}  // namespace

int serve() {
    std::string payload;
    int version = 1;
    for (;;) {
        switch (frame::read_frame(stdin, payload)) {
            case frame::ReadStatus::end: return 0;
            case frame::ReadStatus::truncated: std::fprintf(stderr, "ond serve: truncated frame\n"); return 1;
            case frame::ReadStatus::frame: break;
        }
        if (payload.empty()) {
            std::fprintf(stderr, "ond serve: empty request (no op byte)\n");
            return 1;
        }
        if (payload[0] == 'V') {  // the hello: version 2 when the runner asks for it
            const bool v2 = payload == frame::hello_payload;
            if (!frame::write_frame(stdout, v2 ? std::string(frame::hello_accepted) : std::string(1, char(frame::unsupported)))) return 1;
            version = v2 ? 2 : 1;
            continue;
        }
        auto rq = frame::parse_request(payload, version);
        if (!rq) {  // a version 2 request too short for its number
            std::fprintf(stderr, "ond serve: a request of %zu bytes has no request number\n", payload.size());
            return 1;
        }
        if (!answer(*rq, version)) return 1;
    }
}

}  // namespace ond::conformance
