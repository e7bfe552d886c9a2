// The text, section 2 (R16): encoding byte 0 or 1; UTF-8 well-formed (checked by an independent
// decoder, with the offset of the first bad sequence); UTF-16 of even size; the returned length
// is the text's length in UTF-16 code units and matches the decoded WTF-8.
#include <optional>
#include <string_view>

#include "harness.hpp"
#include "ond/unicode.hpp"

namespace {

// The maps between UTF-16 offsets and WTF-8 byte offsets (ond/unicode.hpp), against a table built
// here from the code units: the byte offset of every unit boundary, none between the halves of a
// pair (one 4-byte sequence in WTF-8) and none past the end.
void check_offset_maps(std::string_view text, const std::u16string& units) {
    using namespace ond;
    std::vector<std::optional<std::size_t>> byte_at(units.size() + 1);
    std::vector<std::optional<std::uint64_t>> unit_at(text.size() + 1);
    std::size_t b = 0;
    for (std::size_t u = 0; u < units.size(); ++u) {
        byte_at[u] = b;
        unit_at[b] = u;
        const char16_t c = units[u];
        const bool pair = c >= 0xD800 && c < 0xDC00 && u + 1 < units.size() && units[u + 1] >= 0xDC00 &&
                          units[u + 1] < 0xE000;
        b += pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        if (pair) ++u;  // byte_at[u] of the low half stays nullopt
    }
    OND_FUZZ_CHECK(b == text.size());
    byte_at[units.size()] = b;
    unit_at[b] = units.size();

    unicode::Utf16Offsets forward(text);
    for (std::size_t u = 0; u <= units.size() + 1; ++u) {
        const std::optional<std::size_t> want = u <= units.size() ? byte_at[u] : std::nullopt;
        OND_FUZZ_CHECK(unicode::utf16_to_wtf8_offset(text, u) == want);
        OND_FUZZ_CHECK(forward.to_bytes(u) == want);
    }
    unicode::Utf16Offsets by_bytes(text);
    for (std::size_t i = 0; i <= text.size() + 1; ++i) {
        const std::optional<std::uint64_t> want = i <= text.size() ? unit_at[i] : std::nullopt;
        OND_FUZZ_CHECK(unicode::wtf8_to_utf16_offset(text, i) == want);
        OND_FUZZ_CHECK(by_bytes.to_units(i) == want);
    }
    // Rounded to a character boundary (only between the halves of a pair does it round at all),
    // and the covering view of a range: the whole characters it touches, clipped to the text.
    unicode::Utf16Offsets rounded(text);
    for (std::size_t u = 0; u <= units.size() + 1; ++u) {
        std::size_t down = u, up = u;
        while (down > 0 && (down > units.size() || !byte_at[down])) --down;
        while (up < units.size() && !byte_at[up]) ++up;
        const std::size_t want_down = *byte_at[down], want_up = up <= units.size() ? *byte_at[up] : text.size();
        OND_FUZZ_CHECK(rounded.to_bytes_rounded(u, false) == want_down);
        OND_FUZZ_CHECK(rounded.to_bytes_rounded(u, true) == want_up);
    }
    unicode::Utf16Offsets covering(text);
    for (std::size_t k = 0; k < 16 && !units.empty(); ++k) {
        const std::uint64_t start = (k * 7919) % (units.size() + 2);
        const std::uint64_t length = (k * 104729) % (units.size() + 2);
        const std::string_view v = covering.covering_view(start, length);
        const std::optional<std::string_view> exact = unicode::Utf16Offsets(text).view(start, length);
        if (exact) {
            OND_FUZZ_CHECK(v == *exact && v.data() == exact->data());
        }
        OND_FUZZ_CHECK(v.data() >= text.data() && v.data() + v.size() <= text.data() + text.size());
    }
    // Going back restarts; a view and its inverse range agree.
    unicode::Utf16Offsets mixed(text);
    for (std::size_t k = 0; k < 16 && !units.empty(); ++k) {
        const std::uint64_t start = (k * 7919) % (units.size() + 1);
        const std::uint64_t length = (k * 104729) % (units.size() + 1 - start + 1);
        const std::optional<std::string_view> v = mixed.view(start, length);
        const bool has = start + length <= units.size() && byte_at[start] && byte_at[start + length];
        OND_FUZZ_CHECK(v.has_value() == has);
        if (!v) continue;
        OND_FUZZ_CHECK(v->data() == text.data() + *byte_at[start] && v->size() == *byte_at[start + length] - *byte_at[start]);
        const auto r = mixed.range(*byte_at[start], v->size());
        OND_FUZZ_CHECK(r && r->start == start && r->length == length);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const std::vector<std::byte> bytes = rest_of(data, p);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(bytes.data());

    DocList list;
    ond::detail::build(list).open_doc();
    std::uint32_t units = 0;
    const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        units = detail::decode_text_section<M>(c, &list, tr);
        OND_FUZZ_CHECK(c.empty());  // the text is the rest of the section
    });
    check_section_against_model(2, bytes, origin, model::SectionContext{}, r, bytes.size(), true);
    const DocSlice doc = list.back();

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
    check_offset_maps(doc.text, expect);
    return 0;
}
