// Varints and signed varints (R1, R2) through the codec's cursor, checked against a decoder
// written here from the rules: value, bytes consumed, and error code and offset.
#include "harness.hpp"

namespace {

using ond::Errc;

struct Ref {
    bool ok;
    Errc errc;
    std::uint32_t value;
    std::size_t used;
};

Ref ref_varint(const std::uint8_t* p, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 5; ++i) {
        if (i == n) return {false, Errc::varint_truncated, 0, 0};
        const std::uint8_t b = p[i];
        v |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
        if (i == 4 && (b & 0x80)) return {false, Errc::varint_too_long, 0, 0};
        if (!(b & 0x80)) {
            if (v > 0xFFFFFFFFull) return {false, Errc::varint_overflow, 0, 0};
            return {true, Errc{}, static_cast<std::uint32_t>(v), i + 1};
        }
    }
    return {false, Errc::varint_too_long, 0, 0};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const bool is_signed = p.ConsumeBool();
    const std::uint64_t origin = pick_origin(p);
    const std::vector<std::byte> bytes = rest_of(data, p);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(bytes.data());

    detail::Cursor c(bytes_of(bytes), origin);
    std::size_t pos = 0;
    while (!c.empty()) {
        const Ref r = ref_varint(raw + pos, bytes.size() - pos);
        std::uint32_t u = 0;
        std::int32_t s = 0;
        const Outcome got = capture([&] {
            if (is_signed)
                s = c.svarint();
            else
                u = c.varint();
        });
        OND_FUZZ_CHECK(got.ok == r.ok);
        if (!r.ok) {
            OND_FUZZ_CHECK(got.errc == r.errc);
            OND_FUZZ_CHECK(got.offset == origin + pos);
            break;
        }
        pos += r.used;
        OND_FUZZ_CHECK(c.offset() == origin + pos);
        if (is_signed) {
            // Zig-zag: even values are non-negative, odd ones negative; the mapping is a bijection.
            const std::int64_t expect = (r.value & 1) ? -static_cast<std::int64_t>(r.value >> 1) - 1
                                                      : static_cast<std::int64_t>(r.value >> 1);
            OND_FUZZ_CHECK(s == expect);
            std::vector<std::byte> re;
            put_svarint(re, s);
            detail::Cursor c2(bytes_of(re));
            OND_FUZZ_CHECK(c2.svarint() == s && c2.empty());
        } else {
            OND_FUZZ_CHECK(u == r.value);
            // The minimal form decodes to the same value and is never longer than what was read.
            std::vector<std::byte> re;
            put_varint(re, u);
            OND_FUZZ_CHECK(re.size() <= r.used);
            detail::Cursor c2(bytes_of(re));
            OND_FUZZ_CHECK(c2.varint() == u && c2.empty());
        }
    }
    return 0;
}
