// The text, section 2 (R16).
#include "ond/internal/doc_list_build.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"
#include "ond/unicode.hpp"

namespace ond::detail {

template <class M>
std::uint32_t decode_text_section(Cursor& sec, DocList* out, Tracer* tr) {
    const std::uint64_t enc_offset = sec.offset();
    const std::uint8_t enc = sec.u8();
    OND_BAIL({});
    if (OND_CHECK(Errc::text_bad_encoding, enc > 1))
        return fail(Errc::text_bad_encoding, enc_offset, "text encoding byte " + std::to_string(enc) + " (must be 0 or 1)");
    if constexpr (M::trace) tr->field(enc_offset, 1, "text.encoding", enc == 0 ? "0 (UTF-8)" : "1 (UTF-16LE)");
    const std::uint64_t text_offset = sec.offset();
    const std::size_t size = sec.remaining();
    const std::uint8_t* p = sec.bytes(size);
    std::uint64_t units = 0;
    if (enc == 0) {
        std::size_t bad = 0;
        auto len = unicode::utf8_utf16_length(p, size, &bad);
        if (!len && OND_CHECK_OFF(Errc::text_invalid_utf8))  // tests only: WTF-8 (encoded surrogates) passes
            len = unicode::wtf8_utf16_length(std::string_view(reinterpret_cast<const char*>(p), size));
        if (!len) return fail(Errc::text_invalid_utf8, text_offset + bad, "ill-formed UTF-8 in the text");
        units = *len;
        if constexpr (M::build) build(out).text_buffer().append(reinterpret_cast<const char*>(p), size);
    } else {
        if (OND_CHECK(Errc::text_odd_utf16_length, size & 1))
            return fail(Errc::text_odd_utf16_length, text_offset + size - 1,
                 "UTF-16 text of " + detail::count_of(size, "byte", "bytes") + " (an odd count)");
        units = size / 2;
        if constexpr (M::build) unicode::append_wtf8_from_utf16le(build(out).text_buffer(), p, units);
    }
    // A section holds at most 2^32 - 1 bytes, so the UTF-16 length always fits in 32 bits.
    if constexpr (M::build) build(out).close_text(static_cast<std::uint32_t>(units));
    if constexpr (M::trace) {
        RawString s{p, static_cast<std::uint32_t>(size), enc == 1, text_offset};
        tr->field(text_offset, size, "text", describe_string(s, false) + " (" + detail::count_of(units, "UTF-16 unit", "UTF-16 units") + ")");
    }
    return static_cast<std::uint32_t>(units);
}

#define OND_INSTANTIATE(M) template std::uint32_t decode_text_section<M>(Cursor&, DocList*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
