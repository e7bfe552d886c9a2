// A small low-level writer for the corpus generator: it writes exactly the bytes it is told to,
// including deliberately wrong ones (overlong or too-long varints, forced lengths, forced CRCs).
// It knows nothing of the codec; the generator checks every file it makes against the codec.
#pragma once

#include <zlib.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ond::corpus::raw {

using Buf = std::vector<std::uint8_t>;

inline std::uint32_t zigzag(std::int32_t v) {
    return (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
}

inline std::uint32_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
inline float bits_float(std::uint32_t b) { return std::bit_cast<float>(b); }

// Minimal LEB128 length of v (1..5).
inline int varint_size(std::uint32_t v) {
    int n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

inline std::uint32_t crc32_of(const Buf& b, std::size_t n) {
    return static_cast<std::uint32_t>(::crc32(0L, b.data(), static_cast<uInt>(n)));
}

class Writer {
public:
    Buf out;

    Writer& u8(std::uint8_t v) {
        out.push_back(v);
        return *this;
    }
    Writer& u16(std::uint16_t v) {
        out.push_back(static_cast<std::uint8_t>(v));
        out.push_back(static_cast<std::uint8_t>(v >> 8));
        return *this;
    }
    Writer& u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        return *this;
    }
    Writer& f32(float f) { return u32(float_bits(f)); }
    Writer& bytes(const Buf& b) {
        out.insert(out.end(), b.begin(), b.end());
        return *this;
    }
    Writer& bytes(std::string_view s) {
        out.insert(out.end(), s.begin(), s.end());
        return *this;
    }
    // LEB128 in its minimal form plus `pad` extra bytes (an overlong form when pad > 0; a form
    // longer than 5 bytes when the total passes 5).
    Writer& varint(std::uint32_t v, int pad = 0) {
        const int total = varint_size(v) + pad;
        std::uint64_t rest = v;
        for (int i = 0; i < total; ++i) {
            std::uint8_t b = static_cast<std::uint8_t>(rest & 0x7F);
            rest >>= 7;
            if (i + 1 < total) b |= 0x80;
            out.push_back(b);
        }
        return *this;
    }
    Writer& svarint(std::int32_t v, int pad = 0) { return varint(zigzag(v), pad); }
    // A string: header h = (byte count << 1) | flag, then the bytes. `h` overrides the header.
    Writer& string(std::string_view b, bool utf16 = false, std::optional<std::uint32_t> h = {}) {
        varint(h ? *h : static_cast<std::uint32_t>((b.size() << 1) | (utf16 ? 1u : 0u)));
        return bytes(b);
    }
    // A section: id, u32 length (the body's size unless forced), body.
    Writer& section(std::uint8_t id, const Buf& body, std::optional<std::uint32_t> length = {}) {
        u8(id);
        u32(length ? *length : static_cast<std::uint32_t>(body.size()));
        return bytes(body);
    }
};

// A whole container: 12-byte header, body, optional trailer. Every field can be forced.
struct ContainerSpec {
    std::string magic = "ONDC";
    std::uint16_t version = 1;
    std::optional<std::uint16_t> flags;          // default: 1 when crc, else 0
    std::optional<std::uint32_t> body_length;    // default: body.size()
    bool crc = false;                            // write a trailer
    std::optional<std::uint32_t> crc_value;      // default: the correct CRC-32
    Buf after;                                   // bytes appended after everything (faults)
};

inline Buf container(const ContainerSpec& s, const Buf& body) {
    Writer w;
    w.bytes(s.magic);
    w.u16(s.version);
    w.u16(s.flags ? *s.flags : static_cast<std::uint16_t>(s.crc ? 1 : 0));
    w.u32(s.body_length ? *s.body_length : static_cast<std::uint32_t>(body.size()));
    w.bytes(body);
    if (s.crc) w.u32(s.crc_value ? *s.crc_value : crc32_of(w.out, w.out.size()));
    w.bytes(s.after);
    return std::move(w.out);
}

inline Buf concat(std::initializer_list<Buf> parts) {
    Buf out;
    for (const Buf& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

inline Buf str_bytes(std::string_view s) { return Buf(s.begin(), s.end()); }

}  // namespace ond::corpus::raw
