// `ond serve`: the reference codec behind the framed protocol (docs/protocol.md), version 2 after
// the hello. A decode or stream request is judged front to back as its bytes arrive: the first
// fault is answered at once, and the rest of the frame is then read and dropped, so a request
// that is wrong early costs what was read up to the fault, never the frame's length. A reply is
// streamed: its size is counted with one pass of the JSON writer, then the frame goes out with a
// second pass, so no answer is ever held whole either.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ond/conformance.hpp"
#include "ond/content_json.hpp"
#include "ond/ond.hpp"
#include "ond/rejection.hpp"
#include "transport/frame.hpp"

namespace ond::conformance {

namespace {

using Sink = std::function<void(std::string_view)>;
using Body = std::function<void(const Sink&)>;

// Stdin ended inside a frame: the runner never does that, so the process ends (status 1).
struct TruncatedFrame {};

// The payload of the request frame being read, as it arrives from stdin.
class FrameIn {
public:
    explicit FrameIn(std::uint64_t size) : left_(size) {}

    // Up to `max` bytes of the payload; 0 at its end. Throws TruncatedFrame when stdin ends first.
    std::size_t read(std::byte* dst, std::size_t max) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(max, left_));
        if (want == 0) return 0;
        const std::size_t n = std::fread(dst, 1, want, stdin);
        if (n == 0) throw TruncatedFrame{};
        left_ -= n;
        return n;
    }
    // Exactly `n` bytes (the op byte, the number); TruncatedFrame when the frame or stdin ends first.
    void read_exact(void* dst, std::size_t n) {
        auto* p = static_cast<std::byte*>(dst);
        for (std::size_t got = 0; got < n;) {
            const std::size_t r = read(p + got, n - got);
            if (r == 0) throw TruncatedFrame{};
            got += r;
        }
    }
    // Reads and drops the rest of the payload (after an early answer), in a fixed buffer.
    void drain() {
        std::byte scratch[1 << 16];
        while (read(scratch, sizeof scratch) > 0) {}
    }
    std::uint64_t left() const noexcept { return left_; }

private:
    std::uint64_t left_;
};

// The request's input as it arrives, kept in `held` (which grows with what came, never ahead of
// it): a reader checks the bytes first, and only input that passed is read again from `held`.
class Teed {
public:
    explicit Teed(FrameIn& in) : in_(in) {}
    std::size_t read(std::byte* dst, std::size_t max) {
        if (pos_ == held_.size()) {
            const std::size_t n = in_.read(dst, max);
            held_.append(reinterpret_cast<const char*>(dst), n);
            pos_ += n;
            return n;
        }
        const std::size_t n = std::min(max, held_.size() - pos_);
        std::memcpy(dst, held_.data() + pos_, n);
        pos_ += n;
        return n;
    }
    ReadFn fn() {
        return [this](std::byte* dst, std::size_t max) { return read(dst, max); };
    }
    // Reads `held` again from its start, then what arrives after it.
    void rewind() noexcept { pos_ = 0; }
    std::string& held() noexcept { return held_; }

private:
    FrameIn& in_;
    std::string held_;
    std::size_t pos_ = 0;
};

// The stream operation's lines for bytes already checked.
void stream_lines(std::string_view bytes, const Sink& sink) {
    StreamReader reader(as_bytes(bytes.data(), bytes.size()));
    while (auto c = reader.next()) json::write_json(*c, sink);
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

// The reference's fault, as the answer carries it: the code and the offset (docs/protocol.md).
std::string report(const Error& e) { return rejection_report(e.code(), e.offset()); }

// A decode request: the code and offset decode() of the whole input gives, found in arrival
// order. The frame's length is the input's size, so a size that disagrees with the header is
// decode()'s first fault after the header's (R28), known from the first 12 bytes.
bool answer_decode(FrameIn& in, std::uint64_t size, const std::function<std::string(unsigned char)>& prefix) {
    auto reject_with = [&](const Error& e) { return send(prefix(frame::reject), [r = report(e)](const Sink& s) { s(r); }); };
    Teed teed(in);
    std::byte head[12];
    std::size_t got = 0;
    for (std::size_t n = 1; got < sizeof head && n > 0; got += n) n = teed.read(head + got, sizeof head - got);
    // A container declaring more than the input holds: check_container_size's fault (header.cpp),
    // which the codec does not export. Bytes after the declared end are left to the reader's own
    // (switchable) check, met once the declared container has been read.
    if (const std::optional<std::uint64_t> declared = declared_size(Bytes(head, got)); declared && *declared > size)
        return reject_with(Error(Errc::container_truncated, size,
                                 "the container declares " + std::to_string(*declared) + " bytes, but the input has " + std::to_string(size)));
    teed.rewind();
    Container c;
    try {
        (void)validate_arriving(teed.fn());  // the first fault ends the reading
        decode_into(as_bytes(teed.held().data(), teed.held().size()), c);
    } catch (const Error& e) {
        return reject_with(e);
    }
    std::string().swap(teed.held());
    return send(prefix(frame::accept), [&](const Sink& s) { json::write_json(c, s); });
}

// A stream request: each container is checked as it arrives (skip_next), the first fault ends
// the reading, and the lines are then written from the containers that passed. The code is the
// one StreamReader::next() gives, which holds a whole container before it checks it: for a
// container the stream cuts short that is stream.truncated at the end of the input, even after
// an earlier fault inside it (docs/reading-rules.md, "Other choices").
bool answer_stream(FrameIn& in, std::uint64_t size, const std::function<std::string(unsigned char)>& prefix) {
    Teed teed(in);
    StreamReader reader(teed.fn());
    std::uint64_t passed = 0;  // the bytes of the containers read whole
    std::optional<Error> fault;
    try {
        while (reader.skip_next()) passed = reader.offset();
    } catch (const Error& e) {
        fault = e;
    }
    std::string& held = teed.held();
    if (fault && fault->errc() != Errc::stream_truncated && held.size() >= passed + 12) {
        const std::optional<std::uint64_t> total = declared_size(as_bytes(held.data() + passed, 12));
        if (total && fault->offset() >= passed + 12 && passed + *total > size)
            fault = Error(Errc::stream_truncated, size,
                          "the stream ends " + std::to_string(passed + *total - size) + " bytes before the end of the container");
    }
    held.resize(static_cast<std::size_t>(passed));  // the faulty container's bytes are not needed
    const std::string_view lines(held);
    if (!fault) return send(prefix(frame::accept), [&](const Sink& s) { stream_lines(lines, s); });
    return send(prefix(frame::reject), [&, r = report(*fault)](const Sink& s) {
        s(r);
        if (passed) s("\n"), stream_lines(lines, s);
    });
}

// An encode request: content JSON is read whole (the JSON reader needs all of it), checked as it
// arrives, so that input that cannot become content JSON is refused at its first hopeless byte.
// Its buffer grows with what arrived (up to the frame's size), in place.
bool answer_encode(FrameIn& in, std::uint64_t size, const std::function<std::string(unsigned char)>& prefix) {
    std::vector<std::byte> bytes;
    try {
        json::ContentJsonText input;
        const auto most = static_cast<std::size_t>(size);  // a frame's payload is held whole anyway
        for (std::size_t n = 1; n > 0 && input.size() < most;) {
            if (input.size() == input.capacity()) input.grow(most);
            // At most 1 MiB at a time: each piece is checked before the next is waited for.
            n = in.read(reinterpret_cast<std::byte*>(input.end()), std::min<std::size_t>(input.capacity() - input.size(), std::size_t{1} << 20));
            input.add(n);
        }
        const Container content = json::from_json(input.text());
        input.release();  // the JSON is no longer needed while the bytes are made
        bytes = encode(content);
    } catch (const json::JsonError&) {
        return send(prefix(frame::reject), [](const Sink&) {});
    } catch (const Error& e) {
        return send(prefix(frame::reject), [r = std::string(e.code())](const Sink& s) { s(r); });
    }
    return send(prefix(frame::accept), [&](const Sink& s) { s({reinterpret_cast<const char*>(bytes.data()), bytes.size()}); });
}

// One request frame of `size` payload bytes, after its length. false: stop (said on stderr).
bool answer_frame(FrameIn& in, std::uint64_t size, int& version) {
    char op = 0;
    in.read_exact(&op, 1);
    if (op == 'V') {  // the hello: version 2 when the runner asks for it
        const bool v2 = size == frame::hello_payload.size() && [&] {
            char rest[1];
            in.read_exact(rest, 1);
            return rest[0] == frame::hello_payload[1];
        }();
        in.drain();
        version = v2 ? 2 : 1;
        return frame::write_frame(stdout, v2 ? std::string(frame::hello_accepted) : std::string(1, char(frame::unsupported)));
    }
    std::uint32_t number = 0;
    if (version == 2) {
        if (size < 1 + frame::number_size) {  // a version 2 request too short for its number
            std::fprintf(stderr, "ond serve: a request of %llu bytes has no request number\n", static_cast<unsigned long long>(size));
            return false;
        }
        char le[frame::number_size];
        in.read_exact(le, sizeof le);
        number = frame::get_le32(std::string_view(le, sizeof le), 0);
    }
    auto prefix = [&](unsigned char status) { return frame::response_prefix(version, number, status); };
    const std::uint64_t input_size = in.left();
    bool ok = false;
    switch (op) {
        case 'D': ok = answer_decode(in, input_size, prefix); break;
        case 'S': ok = answer_stream(in, input_size, prefix); break;
        case 'E': ok = answer_encode(in, input_size, prefix); break;
        default: ok = frame::write_frame(stdout, prefix(frame::unsupported)); break;
    }
    in.drain();  // an early answer: the rest of the request is read and dropped
    return ok;
}

}  // namespace

int serve() {
    int version = 1;
    for (;;) {
        unsigned char length[frame::length_size];
        const std::size_t got = std::fread(length, 1, sizeof length, stdin);
        if (got == 0) return 0;
        try {
            if (got < sizeof length) throw TruncatedFrame{};
            const std::uint32_t size = frame::get_le32(std::string_view(reinterpret_cast<const char*>(length), sizeof length), 0);
            if (size == 0) {
                std::fprintf(stderr, "ond serve: empty request (no op byte)\n");
                return 1;
            }
            FrameIn in(size);
            if (!answer_frame(in, size, version)) return 1;
        } catch (const TruncatedFrame&) {
            std::fprintf(stderr, "ond serve: truncated frame\n");
            return 1;
        }
    }
}

}  // namespace ond::conformance
