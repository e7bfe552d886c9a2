// Strings (R5) and the string table, section 1 (R12-R14).
#include <string>

#include "sections.hpp"
#include "trace_format.hpp"
#include "ond/unicode.hpp"

namespace ond::detail {

namespace {
// With the UTF-8 check switched off (tests only), bytes that are WTF-8 (encoded surrogates) pass.
[[maybe_unused]] bool lax_utf8_ok(const std::uint8_t* p, std::size_t n) {
    return unicode::wtf8_utf16_length(std::string_view(reinterpret_cast<const char*>(p), n)).has_value();
}
}  // namespace

RawString read_string(Cursor& c) {
    RawString s;
    s.offset = c.offset();
    const std::uint32_t h = c.varint();
    const std::uint32_t size = h >> 1;
    s.utf16 = (h & 1) != 0;
    if (OND_CHECK(Errc::string_truncated, size > c.remaining()))
        fail(Errc::string_truncated, s.offset,
             "a string of " + std::to_string(size) + " bytes, but its section has " + std::to_string(c.remaining()) +
                 " bytes left");
    if (OND_CHECK(Errc::string_odd_utf16_length, s.utf16 && (size & 1)))
        fail(Errc::string_odd_utf16_length, s.offset,
             "a UTF-16 string of " + std::to_string(size) + " bytes (an odd count)");
    const std::uint64_t data_offset = c.offset();
    s.data = c.bytes(size);
    s.size = size;
    if (!s.utf16) {
        std::size_t bad = 0;
        if (!unicode::utf8_utf16_length(s.data, size, &bad) &&
            !(OND_CHECK_OFF(Errc::string_invalid_utf8) && lax_utf8_ok(s.data, size)))
            fail(Errc::string_invalid_utf8, data_offset + bad, "ill-formed UTF-8 in a string");
    }
    return s;
}

void append_wtf8(std::string& out, const RawString& s) {
    if (s.utf16)
        unicode::append_wtf8_from_utf16le(out, s.data, s.size / 2);
    else
        out.append(reinterpret_cast<const char*>(s.data), s.size);
}

bool raw_string_equal(const RawString& a, const RawString& b) {
    if (a.utf16 == b.utf16) return a.size == b.size && std::equal(a.data, a.data + a.size, b.data);
    std::string x, y;
    append_wtf8(x, a);
    append_wtf8(y, b);
    return x == y;
}

std::uint32_t TableView::check_index(std::uint32_t idx, std::uint64_t offset) const {
    if (OND_CHECK(Errc::table_index_out_of_range, idx > entries.size())) [[unlikely]]
        fail(Errc::table_index_out_of_range, offset,
             "string index " + std::to_string(idx) + ", but the table has " + std::to_string(entries.size()) +
                 " strings");
    return idx > entries.size() ? 0 : idx;
}

template <class M>
void decode_string_table_section(Cursor& sec, TableView& table, StringStore* out, Tracer* tr) {
    const std::uint64_t count_offset = sec.offset();
    const std::uint32_t count = sec.varint();
    if (OND_CHECK(Errc::table_count_out_of_range, count > sec.remaining()))
        fail(Errc::table_count_out_of_range, count_offset,
             std::to_string(count) + " strings declared, but only " + std::to_string(sec.remaining()) +
                 " bytes follow");
    if constexpr (M::trace) tr->field(count_offset, sec.offset() - count_offset, "strings.count", std::to_string(count));
    table.entries.clear();
    table.entries.reserve(count);
    if constexpr (M::build) out->clear();
    std::string scratch;
    for (std::uint32_t i = 0; i < count; ++i) {
        RawString s = read_string(sec);
        table.entries.push_back(s);
        if constexpr (M::build) {
            if (s.utf16) {
                scratch.clear();
                append_wtf8(scratch, s);
                out->append(scratch);
            } else {
                out->append(std::string_view(reinterpret_cast<const char*>(s.data), s.size));
            }
        }
        if constexpr (M::trace)
            tr->field(s.offset, sec.offset() - s.offset, "strings[" + std::to_string(i + 1) + "]", describe_string(s));
    }
}

#define OND_INSTANTIATE(M) \
    template void decode_string_table_section<M>(Cursor&, TableView&, StringStore*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
