// Strings (R5) through read_string, checked against the rules: the length fits, UTF-16 byte
// counts are even, UTF-8 is well-formed (checked here by an independent decoder), and the value
// appended as WTF-8 holds exactly the stored code units.
#include "harness.hpp"
#include "ond/unicode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const std::vector<std::byte> bytes = rest_of(data, p);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(bytes.data());

    detail::Cursor c(bytes_of(bytes), origin);
    std::vector<detail::RawString> seen;
    while (!c.empty()) {
        const std::uint64_t at = c.offset();
        detail::RawString s;
        const Outcome got = capture([&] { s = detail::read_string(c); });
        if (!got.ok) {
            OND_FUZZ_CHECK(got.offset >= at && got.offset <= c.end_offset());
            // Work out what the rules say about these bytes.
            detail::Cursor v(bytes_of(bytes), origin);
            v.skip(static_cast<std::size_t>(at - origin));
            const Outcome hv = capture([&] { (void)v.varint(); });
            if (!hv.ok) {
                OND_FUZZ_CHECK(got.errc == hv.errc && got.offset == hv.offset);
                break;
            }
            detail::Cursor h(bytes_of(bytes), origin);
            h.skip(static_cast<std::size_t>(at - origin));
            const std::uint32_t head = h.varint();
            const std::uint32_t n = head >> 1;
            if (n > h.remaining()) {
                OND_FUZZ_CHECK(got.errc == Errc::string_truncated && got.offset == at);
            } else if ((head & 1) && (n & 1)) {
                OND_FUZZ_CHECK(got.errc == Errc::string_odd_utf16_length && got.offset == at);
            } else {
                OND_FUZZ_CHECK(!(head & 1));
                std::size_t bad = 0;
                OND_FUZZ_CHECK(!utf8_well_formed(std::string_view(reinterpret_cast<const char*>(h.here()), n), &bad));
                OND_FUZZ_CHECK(got.errc == Errc::string_invalid_utf8);
                OND_FUZZ_CHECK_MSG(got.offset == h.offset() + bad, got.what);
            }
            break;
        }
        OND_FUZZ_CHECK(s.offset == at);
        OND_FUZZ_CHECK(s.data >= raw && s.data + s.size <= raw + bytes.size());
        OND_FUZZ_CHECK(c.here() == s.data + s.size);
        std::string w;
        detail::append_wtf8(w, s);
        std::u16string units;
        const auto kind = decode_wtf8(w, &units, nullptr);
        OND_FUZZ_CHECK(kind != Wtf8Kind::invalid);
        if (s.utf16) {
            OND_FUZZ_CHECK(s.size % 2 == 0 && units.size() == s.size / 2);
            for (std::size_t i = 0; i < units.size(); ++i)
                OND_FUZZ_CHECK(units[i] == static_cast<char16_t>(s.data[2 * i] | (s.data[2 * i + 1] << 8)));
        } else {
            OND_FUZZ_CHECK(kind == Wtf8Kind::utf8);
            OND_FUZZ_CHECK(w.size() == s.size && std::memcmp(w.data(), s.data, s.size) == 0);
        }
        OND_FUZZ_CHECK(unicode::wtf8_utf16_length(w) == units.size());
        OND_FUZZ_CHECK(unicode::utf16_from_wtf8(w) == units);
        // Equality by code units, whatever the encodings.
        for (const auto& o : seen) {
            std::string ow;
            detail::append_wtf8(ow, o);
            OND_FUZZ_CHECK(detail::raw_string_equal(s, o) == (ow == w));
            OND_FUZZ_CHECK(detail::raw_string_equal(o, s) == (ow == w));
        }
        OND_FUZZ_CHECK(detail::raw_string_equal(s, s));
        if (seen.size() < 8) seen.push_back(s);
    }
    return 0;
}
