// Strings (R5) and the string table, section 1 (R12-R14).
#include <cstring>
#include <forward_list>
#include <string>
#include <vector>

#include "ascii.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"
#include "ond/unicode.hpp"

namespace ond::detail {

namespace {
// With the UTF-8 check switched off (tests only), bytes that are WTF-8 (encoded surrogates) pass.
[[maybe_unused]] bool lax_utf8_ok(const std::uint8_t* p, std::size_t n) {
    return unicode::wtf8_utf16_length(std::string_view(reinterpret_cast<const char*>(p), n)).has_value();
}
}  // namespace

RawString read_string(Cursor& c, const std::uint8_t* ascii_before) {
    RawString s;
    s.offset = c.offset();
    const std::uint32_t h = c.varint();
    OND_BAIL({});
    const std::uint32_t size = h >> 1;
    s.utf16 = (h & 1) != 0;
    if (OND_CHECK(Errc::string_truncated, size > c.remaining()))
        return fail(Errc::string_truncated, s.offset,
             "a string of " + detail::count_of(size, "byte", "bytes") + ", but its section has " + detail::count_of(c.remaining(), "byte", "bytes") +
                 " left");
    if (OND_CHECK(Errc::string_odd_utf16_length, s.utf16 && (size & 1)))
        return fail(Errc::string_odd_utf16_length, s.offset,
             "a UTF-16 string of " + detail::count_of(size, "byte", "bytes") + " (an odd count)");
    const std::uint64_t data_offset = c.offset();
    s.data = c.bytes(size);
    OND_BAIL({});
    s.size = size;
    if (!s.utf16 && !(ascii_before && s.data + size <= ascii_before)) {  // both in the section when set
        // Most strings are short and ASCII: one 8-byte load from the string's start checks them
        // when its section holds those 8 bytes (those past the string are masked off).
        if (size <= 8 && c.remaining() >= 8 - size) {
            std::uint64_t w;
            std::memcpy(&w, s.data, 8);
            const std::uint64_t in_string = size == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * size)) - 1;
            if ((w & in_string & 0x8080808080808080ull) == 0) return s;
        }
        std::size_t bad = 0;
        if (!unicode::utf8_utf16_length(s.data, size, &bad) &&
            !(OND_CHECK_OFF(Errc::string_invalid_utf8) && lax_utf8_ok(s.data, size)))
            return fail(Errc::string_invalid_utf8, data_offset + bad, "ill-formed UTF-8 in a string");
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
    if (OND_CHECK(Errc::table_index_out_of_range, idx > count())) [[unlikely]]
        return fail(Errc::table_index_out_of_range, offset,
             "string index " + std::to_string(idx) + ", but the table has " + detail::count_of(count(), "string", "strings"));
    return idx > count() ? 0 : idx;
}

void TableView::set_section(const std::uint8_t* first, std::uint64_t first_offset, std::uint32_t count,
                            const StringStore* built, std::vector<std::uint32_t>&& starts) {
    entries.clear();
    from_section_ = true;
    first_ = first;
    first_offset_ = first_offset;
    stored_ = count;
    built_ = built;
    empty_.clear();
    starts_ = std::move(starts);
}

namespace {

// A string already checked by read_string, read again without checks.
RawString reread_string(const std::uint8_t* p, std::uint64_t offset) {
    RawString s;
    s.offset = offset;
    std::uint32_t h = 0;
    int shift = 0;
    std::size_t k = 0;
    for (;; shift += 7) {
        const std::uint8_t b = p[k++];
        h |= static_cast<std::uint32_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) break;
    }
    s.utf16 = (h & 1) != 0;
    s.size = h >> 1;
    s.data = p + k;
    return s;
}

}  // namespace

bool TableView::is_stored_empty(std::uint32_t idx) const {
    if (idx == 0) return false;
    if (!from_section_) return entries[idx - 1].size == 0;
    if (built_) return built_->view(idx).empty();
    if (empty_.empty() && stored_ != 0) {
        empty_.resize(stored_);
        const std::uint8_t* p = first_;
        for (std::uint32_t i = 0; i < stored_; ++i) {
            const RawString s = reread_string(p, 0);
            empty_[i] = s.size == 0;
            p = s.data + s.size;
        }
    }
    return empty_[idx - 1];
}

RawString TableView::entry(std::uint32_t idx) const {
    if (!from_section_) return entries[idx - 1];
    if (starts_.empty() && stored_ != 0) {
        // A section is at most 2^32 - 1 bytes, so an offset within it fits 32 bits.
        starts_.resize(stored_);
        const std::uint8_t* p = first_;
        for (std::uint32_t i = 0; i < stored_; ++i) {
            starts_[i] = static_cast<std::uint32_t>(p - first_);
            const RawString s = reread_string(p, 0);
            p = s.data + s.size;
        }
    }
    return reread_string(first_ + starts_[idx - 1], first_offset_ + starts_[idx - 1]);
}

std::string_view TableView::value(std::uint32_t idx, std::forward_list<std::string>& converted) const {
    if (idx == 0) return {};
    if (from_section_ && built_) return built_->view(idx);
    const RawString s = entry(idx);
    if (!s.utf16) return {reinterpret_cast<const char*>(s.data), s.size};
    std::string& out = converted.emplace_front();
    append_wtf8(out, s);
    return out;
}

template <class M>
void decode_string_table_section(Cursor& sec, TableView& table, StringStore* out, Tracer* tr) {
    const std::uint64_t count_offset = sec.offset();
    const std::uint32_t count = sec.varint();
    OND_BAIL();
    if (OND_CHECK(Errc::table_count_out_of_range, count > sec.remaining()))
        return void(fail(Errc::table_count_out_of_range, count_offset,
             detail::count_of(count, "string", "strings") + " declared, but only " + detail::count_of(sec.remaining(), "byte", "bytes") +
                 " follow"));
    if constexpr (M::trace) tr->field(count_offset, sec.offset() - count_offset, "strings.count", std::to_string(count));
    const std::uint64_t first_offset = sec.offset();
    const std::uint8_t* first = sec.here();
    table.set_section(first, first_offset, 0, nullptr);
    if constexpr (M::build) out->clear();
    std::string scratch;
    std::vector<std::uint32_t> starts;  // DecodeMode: entry()'s lookup, made here at no extra pass
    if constexpr (M::build) {
        // Both bounded by the bytes present: each string takes at least one.
        out->reserve(count, sec.remaining());
        starts.reserve(count);
    }
    // The section's bytes before `ascii_before` are known to be ASCII: one scan covers the run of
    // ASCII strings (and one-byte headers) it finds, instead of a UTF-8 check per string. A scan
    // starts at a string not yet covered and stops at the first byte >= 0x80, so no byte is
    // scanned more than twice.
    const std::uint8_t* ascii_before = first;
    for (std::uint32_t i = 0; i < count; ++i) {
        if constexpr (M::build) starts.push_back(static_cast<std::uint32_t>(sec.offset() - first_offset));
        if (sec.here() >= ascii_before) {
            const std::uint8_t* p = sec.here();
            ascii_before = p + ascii_end(p, sec.remaining(), 0);
        }
        RawString s = read_string(sec, ascii_before);
        OND_BAIL();
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
    const StringStore* built = nullptr;
    if constexpr (M::build) built = out;
    table.set_section(first, first_offset, count, built, std::move(starts));
}

#define OND_INSTANTIATE(M) \
    template void decode_string_table_section<M>(Cursor&, TableView&, StringStore*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
