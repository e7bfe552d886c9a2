// Whole containers from a buffer: decode() and validate().
#include "ond/internal/doc_list_build.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"

namespace ond::detail {

namespace {
// After records 2, 4, 8, ...: reserves the columns and the text for the whole section at the
// rate of tokens and text bytes per record byte so far, plus a sixteenth, so a fresh decode
// grows its buffers a few times, not by doubling up to twice the size it needs.
void reserve_for_the_rest(DocList& docs, std::uint64_t read, std::uint64_t total) {
    if (read == 0) return;
    const double scale = static_cast<double>(total) / static_cast<double>(read) * 1.0625;
    build(docs).reserve_more(static_cast<std::size_t>(static_cast<double>(docs.token_columns().size()) * (scale - 1.0)),
                      static_cast<std::size_t>(static_cast<double>(docs.texts().size()) * (scale - 1.0)));
}
}  // namespace

template <class M>
Summary decode_container(Bytes input, std::uint64_t origin, Container* out, Tracer* tr) {
    Cursor c(input, origin);
    const Header h = decode_header<M>(c, tr);
    OND_BAIL({});
    const std::uint64_t size = check_container_size(h, input.size(), origin);
    OND_BAIL({});
    Summary sum;
    sum.format = h.format;
    sum.crc = h.crc;
    if constexpr (M::build) {
        out->format = h.format;
        out->crc = h.crc;
    }
    // The documents' buffers keep their capacity from an earlier read into `out`. Documents are
    // added as records are read, never up front from a count.
    DocList* docs = nullptr;
    if constexpr (M::build) {
        docs = &out->docs;
        docs->clear();
    }
    ClearOnFailure guard{docs};
    // The trailer's CRC-32, on a second thread for a large container, while the body is read.
    // The inspector reports fields in order and reads on one thread.
    CrcJob crc(reinterpret_cast<const std::uint8_t*>(input.data()), h.crc ? static_cast<std::size_t>(size) - trailer_size : 0,
               !M::trace);
    if constexpr (M::trace) tr->enter(c.offset(), h.body_length, "body", detail::count_of(h.body_length, "byte", "bytes"));
    Cursor body = c.sub(h.body_length);
    TableView table;
    StringStore* strings = nullptr;
    if constexpr (M::build) strings = &out->strings;
    if (h.format == Format::ondc) {
        sum.tokens = decode_ondc_body<M>(body, table, strings, docs, tr);
        OND_BAIL({});
        sum.docs = 1;
    } else {
        BinRecords bin = decode_ondb_prologue<M>(body, table, strings, tr);
        OND_BAIL({});
        const std::uint64_t records_bytes = bin.records.remaining();
        for (std::uint32_t i = 0; i < bin.count; ++i) {
            if constexpr (M::build)
                if ((i & (i - 1)) == 0 && i >= 2) reserve_for_the_rest(*docs, records_bytes - bin.records.remaining(), records_bytes);
            sum.tokens += decode_record<M>(bin.records, i, table, docs, tr);
            OND_BAIL({});
        }
        check_records_end(bin.records);
        OND_BAIL({});
        if constexpr (M::trace) tr->leave();  // section 5, entered by decode_ondb_prologue's walker
        sum.docs = bin.count;
    }
    if constexpr (M::trace) tr->leave();
    sum.strings = table.count();
    if (h.crc) check_trailer<M>(input.first(static_cast<std::size_t>(size)), origin, tr, &crc);
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
    detail::Header h;
    if (detail::capture([&] {
            detail::Cursor c(first_12_bytes.first(detail::header_size), 0);
            h = detail::decode_header<detail::ValidateMode>(c, nullptr);
        }))
        return std::nullopt;
    return detail::header_size + std::uint64_t{h.body_length} + (h.crc ? detail::trailer_size : 0);
}

Summary validate(Bytes input) { return detail::decode_container<detail::ValidateMode>(input, 0, nullptr, nullptr); }

std::string to_string(const Summary& s) {
    return std::string(to_string(s.format)) + ", " + detail::count_of(s.docs, "document", "documents") + ", " +
           detail::count_of(s.tokens, "token", "tokens") + (s.crc ? ", crc" : ", no crc");
}

}  // namespace ond
