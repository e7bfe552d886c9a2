// The text, section 2 (R16): encoding byte 0 or 1; UTF-8 well-formed (checked by an independent
// decoder, with the offset of the first bad sequence); UTF-16 of even size; the returned length
// is the text's length in UTF-16 code units and matches the decoded WTF-8.
#include "harness.hpp"
#include "ond/unicode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const std::vector<std::byte> bytes = rest_of(data, p);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(bytes.data());

    Doc doc;
    std::uint32_t units = 0;
    const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        units = detail::decode_text_section<M>(c, &doc, tr);
        OND_FUZZ_CHECK(c.empty());  // the text is the rest of the section
    });

    // The verdict the rules give.
    if (bytes.empty()) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::field_truncated && r.offset == origin);
        return 0;
    }
    const std::size_t n = bytes.size() - 1;
    const std::string_view body(reinterpret_cast<const char*>(raw + 1), n);
    if (raw[0] > 1) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::text_bad_encoding && r.offset == origin);
        return 0;
    }
    if (raw[0] == 1 && (n & 1)) {
        OND_FUZZ_CHECK(!r.ok && r.errc == Errc::text_odd_utf16_length);
        OND_FUZZ_CHECK(r.offset >= origin + 1 && r.offset <= origin + bytes.size());
        return 0;
    }
    std::u16string expect;
    if (raw[0] == 0) {
        std::size_t bad = 0;
        if (!utf8_well_formed(body, &bad)) {
            OND_FUZZ_CHECK_MSG(!r.ok && r.errc == Errc::text_invalid_utf8 && r.offset == origin + 1 + bad, r.describe());
            return 0;
        }
        decode_wtf8(body, &expect, nullptr);
    } else {
        for (std::size_t i = 0; i < n; i += 2)
            expect.push_back(static_cast<char16_t>(raw[1 + i] | (raw[2 + i] << 8)));
    }
    OND_FUZZ_CHECK_MSG(r.ok, r.describe());
    OND_FUZZ_CHECK(units == expect.size());
    OND_FUZZ_CHECK(doc.text_utf16_length == units);
    OND_FUZZ_CHECK(unicode::utf16_from_wtf8(doc.text) == expect);
    OND_FUZZ_CHECK(unicode::wtf8_utf16_length(doc.text) == units);
    if (raw[0] == 0) OND_FUZZ_CHECK(doc.text == body);
    return 0;
}
