// The header (R6) and the CRC-32 trailer (R7), checked against the rules written here: magic,
// version, flags, exact container size, and a trailer equal to an independent bit-by-bit CRC-32.
// Also: the codec's crc32() equals that CRC, in one call and chained over a split.
#include <cstring>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const std::size_t split = p.ConsumeIntegralInRange<std::size_t>(0, p.remaining_bytes());
    const std::vector<std::byte> bytes = rest_of(data, p);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(bytes.data());
    const std::size_t n = bytes.size();

    const std::uint32_t ref = slow_crc32(raw, n);
    OND_FUZZ_CHECK(detail::crc32(raw, n) == ref);
    const std::size_t cut = split <= n ? split : n;
    OND_FUZZ_CHECK(detail::crc32(raw + cut, n - cut, detail::crc32(raw, cut)) == ref);

    detail::Header h;
    const Outcome r = run_modes(origin, origin + n, [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        h = detail::decode_header<M>(c, tr);
        OND_FUZZ_CHECK(c.offset() == origin + detail::header_size);
    });
    if (n < 12) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::header_truncated);
        return 0;
    }
    const bool ondc = std::memcmp(raw, "ONDC", 4) == 0, ondb = std::memcmp(raw, "ONDB", 4) == 0;
    const unsigned version = raw[4] | (raw[5] << 8), flags = raw[6] | (raw[7] << 8);
    const std::uint32_t body_length = detail::Cursor::load_u32(raw + 8);
    if (!ondc && !ondb) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::header_bad_magic && r.offset == origin);
        return 0;
    }
    if (version != 1) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::header_bad_version && r.offset == origin + 4);
        return 0;
    }
    if (flags > 1) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::header_bad_flags && r.offset == origin + 6);
        return 0;
    }
    OND_FUZZ_CHECK_MSG(r.ok, r.describe());
    OND_FUZZ_CHECK(h.format == (ondc ? Format::ondc : Format::ondb) && h.crc == (flags == 1) && h.body_length == body_length);

    const std::uint64_t expected = 12 + std::uint64_t{body_length} + (h.crc ? 4 : 0);
    const Outcome s = capture([&] { detail::check_container_size(h, n, origin); });
    if (n < expected) {
        OND_FUZZ_CHECK(!s.ok && s.errc == Errc::container_truncated && s.offset == origin + n);
        return 0;
    }
    if (n > expected) {
        OND_FUZZ_CHECK(!s.ok && s.errc == Errc::container_trailing_bytes && s.offset == origin + expected);
        return 0;
    }
    OND_FUZZ_CHECK(s.ok);
    if (!h.crc) return 0;
    const std::uint32_t stored = detail::Cursor::load_u32(raw + n - 4);
    const Outcome t = run_modes(origin, origin + n, [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::check_trailer<M>(bytes_of(bytes), origin, tr);
    });
    if (stored == slow_crc32(raw, n - 4))
        OND_FUZZ_CHECK(t.ok);
    else
        OND_FUZZ_CHECK(!t.ok && t.errc == Errc::crc_mismatch && t.offset == origin + n - 4);
    return 0;
}
