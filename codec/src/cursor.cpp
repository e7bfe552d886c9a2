#include "ond/internal/cursor.hpp"

#include "ond/hex.hpp"

namespace ond::detail {

Bail fail(Errc e, std::uint64_t offset, std::string detail) {
#if OND_EXCEPTIONS
    throw Error(e, offset, std::move(detail));
#else
    return raise(Error(e, offset, std::move(detail)));
#endif
}

std::string count_of(std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::uint32_t Cursor::varint_slow() {
    const std::uint64_t start = offset();
    std::uint32_t value = 0;
    for (int i = 0; i < 5; ++i) {
        if (pos_ == end_)
            return fail(Errc::varint_truncated, start, "a varint starting here runs past the end of its section");
        const std::uint8_t b = base_[pos_++];
        if (i == 4) {
            if (OND_CHECK(Errc::varint_too_long, b & 0x80))
                return fail(Errc::varint_too_long, start, "a varint's 5th byte has its continuation bit set");
            if (OND_CHECK(Errc::varint_overflow, (b & 0x7F) > 0x0F))
                return fail(Errc::varint_overflow, start, "a varint's value exceeds 0xFFFFFFFF (5th byte 0x" + hex::of(b, 2) + ")");
            return value | (static_cast<std::uint32_t>(b) << 28);
        }
        value |= static_cast<std::uint32_t>(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) return value;
    }
    return value;  // not reached
}

}  // namespace ond::detail
