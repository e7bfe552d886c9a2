#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "ond/conformance.hpp"
#include "testee.hpp"

namespace ond::conformance {

int serve_main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::printf(
                "usage: ond serve\n"
                "Answers framed requests on stdin with the reference codec (the persistent testee protocol of\n"
                "conformance/PROTOCOL.md): each request and each response is a 4-byte little-endian length and\n"
                "a payload; a request is one op byte (D decode, E encode, S stream) and the input; a response is\n"
                "a status byte (0 accept, 1 reject) and the output (accept) or the error code (reject). After the\n"
                "hello request 'V2' it speaks version 2: a request number follows the op byte and leads the response.\n");
            return 0;
        }
        std::fprintf(stderr, "ond serve: unknown argument '%s' (see --help)\n", argv[i]);
        return 2;
    }
    std::string payload;
    int version = 1;
    for (;;) {
        unsigned char len[4];
        std::size_t got = std::fread(len, 1, 4, stdin);
        if (got == 0 && std::feof(stdin)) return 0;
        if (got != 4) {
            std::fprintf(stderr, "ond serve: truncated frame length\n");
            return 1;
        }
        std::uint32_t n = static_cast<std::uint32_t>(len[0]) | (static_cast<std::uint32_t>(len[1]) << 8) |
                          (static_cast<std::uint32_t>(len[2]) << 16) | (static_cast<std::uint32_t>(len[3]) << 24);
        if (n == 0) {
            std::fprintf(stderr, "ond serve: empty request (no op byte)\n");
            return 1;
        }
        // Read in steps so that a false length cannot make us allocate what never arrives.
        payload.clear();
        while (payload.size() < n) {
            std::size_t step = std::min<std::size_t>(n - payload.size(), 1u << 20);
            std::size_t old = payload.size();
            payload.resize(old + step);
            std::size_t r = std::fread(payload.data() + old, 1, step, stdin);
            payload.resize(old + r);
            if (r < step) {
                std::fprintf(stderr, "ond serve: truncated request (%zu of %u bytes)\n", payload.size(), n);
                return 1;
            }
        }
        std::string reply;
        char op = payload[0];
        if (op == 'V') {
            // The hello: version 2 (numbered frames) when the runner asks for it.
            reply = payload == "V2" ? std::string("\0" "2", 2) : std::string(1, '\2');
            version = payload == "V2" ? 2 : 1;
        } else if ((op == 'D' || op == 'E' || op == 'S') && payload.size() >= (version >= 2 ? 5u : 1u)) {
            std::size_t skip = version >= 2 ? 5 : 1;
            reply = payload.substr(1, skip - 1) + frame_reply(reference_answer(static_cast<Op>(op), std::string_view(payload).substr(skip)));
        } else {
            reply = payload.substr(1, version >= 2 ? 4 : 0) + std::string(1, '\2');  // unsupported operation
        }
        auto rn = static_cast<std::uint32_t>(reply.size());
        unsigned char hdr[4] = {static_cast<unsigned char>(rn), static_cast<unsigned char>(rn >> 8),
                                static_cast<unsigned char>(rn >> 16), static_cast<unsigned char>(rn >> 24)};
        if (std::fwrite(hdr, 1, 4, stdout) != 4 || std::fwrite(reply.data(), 1, reply.size(), stdout) != reply.size() ||
            std::fflush(stdout) != 0)
            return 1;
    }
}

}  // namespace ond::conformance
