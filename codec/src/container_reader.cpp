// Whole containers from a buffer: decode() and validate().
#include "sections.hpp"
#include "trace_format.hpp"

namespace ond::detail {

template <class M>
Summary decode_container(Bytes input, std::uint64_t origin, Container* out, Tracer* tr) {
    Cursor c(input, origin);
    const Header h = decode_header<M>(c, tr);
    const std::uint64_t size = check_container_size(h, input.size(), origin);
    Summary sum;
    sum.format = h.format;
    sum.crc = h.crc;
    if constexpr (M::build) {
        out->format = h.format;
        out->crc = h.crc;
    }
    // Documents already in `out` are reused (their vectors keep their capacity); the count is
    // trimmed at the end. Documents are added as records are read, never up front from a count.
    std::size_t used = 0;
    auto next_doc = [&]() -> Doc* {
        if constexpr (M::build) {
            if (used == out->docs.size()) out->docs.emplace_back();
            return &out->docs[used++];
        }
        return nullptr;
    };
    if constexpr (M::trace) tr->enter(c.offset(), h.body_length, "body", detail::count_of(h.body_length, "byte", "bytes"));
    Cursor body = c.sub(h.body_length);
    TableView table;
    StringStore* strings = nullptr;
    if constexpr (M::build) strings = &out->strings;
    if (h.format == Format::ondc) {
        Doc* doc = next_doc();
        sum.tokens = decode_ondc_body<M>(body, table, strings, doc, tr);
        sum.docs = 1;
    } else {
        BinRecords bin = decode_ondb_prologue<M>(body, table, strings, tr);
        for (std::uint32_t i = 0; i < bin.count; ++i) {
            Doc* doc = next_doc();
            sum.tokens += decode_record<M>(bin.records, i, table, doc, tr);
        }
        check_records_end(bin.records);
        if constexpr (M::trace) tr->leave();  // section 5, entered by decode_ondb_prologue's walker
        sum.docs = bin.count;
    }
    if constexpr (M::build) out->docs.resize(used);
    if constexpr (M::trace) tr->leave();
    sum.strings = table.count();
    if (h.crc) check_trailer<M>(input.first(static_cast<std::size_t>(size)), origin, tr);
    return sum;
}

#define OND_INSTANTIATE(M) template Summary decode_container<M>(Bytes, std::uint64_t, Container*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail

namespace ond {

Container decode(Bytes input) {
    Container c;
    detail::decode_container<detail::DecodeMode>(input, 0, &c, nullptr);
    return c;
}

void decode_into(Bytes input, Container& out) { detail::decode_container<detail::DecodeMode>(input, 0, &out, nullptr); }

std::optional<std::uint64_t> declared_size(Bytes first_12_bytes) {
    if (first_12_bytes.size() < detail::header_size) return std::nullopt;
    try {
        detail::Cursor c(first_12_bytes.first(detail::header_size), 0);
        const detail::Header h = detail::decode_header<detail::ValidateMode>(c, nullptr);
        return detail::header_size + std::uint64_t{h.body_length} + (h.crc ? detail::trailer_size : 0);
    } catch (const Error&) {
        return std::nullopt;
    }
}

Summary validate(Bytes input) { return detail::decode_container<detail::ValidateMode>(input, 0, nullptr, nullptr); }

std::string to_string(const Summary& s) {
    return std::string(to_string(s.format)) + ", " + detail::count_of(s.docs, "document", "documents") + ", " +
           detail::count_of(s.tokens, "token", "tokens") + (s.crc ? ", crc" : ", no crc");
}

}  // namespace ond
