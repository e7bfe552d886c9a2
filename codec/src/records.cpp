// Section framing (R8-R10), document bodies, and ONDB records, section 5 (R11).
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ond/internal/doc_list_build.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"

namespace ond::detail {

const char* section_name(std::uint8_t id) noexcept {
    switch (id) {
        case sec_strings: return "string table";
        case sec_text: return "text";
        case sec_tokens: return "tokens";
        case sec_entities: return "entities";
        case sec_records: return "records";
        case sec_categories: return "categories";
        case sec_span_groups: return "span groups";
        default: return "unknown";
    }
}

namespace {

// A body's frames, from a Cursor over the whole body or from a StreamedBody.
template <class Body>
SectionFrame read_frame(Body& body, int& last_id) {
    SectionFrame f;
    f.offset = body.offset();
    if (OND_CHECK(Errc::section_truncated, body.remaining() < 5))
        return fail(Errc::section_truncated, f.offset,
             "a section needs 5 bytes for its id and length, but only " + std::to_string(body.remaining()) + " remain");
    f.id = body.u8();
    OND_BAIL({});
    f.length = body.u32();
    OND_BAIL({});
    if (OND_CHECK(Errc::section_out_of_order, static_cast<int>(f.id) <= last_id))
        return fail(Errc::section_out_of_order, f.offset,
             "section " + std::to_string(f.id) + " follows section " + std::to_string(last_id) +
                 (static_cast<int>(f.id) == last_id ? " (repeated)" : " (ids must increase)"));
    if (OND_CHECK(Errc::section_length_out_of_range, f.length > body.remaining()))
        return fail(Errc::section_length_out_of_range, f.offset + 1,
             "section " + std::to_string(f.id) + " declares " + detail::count_of(f.length, "byte", "bytes") + ", but only " +
                 std::to_string(body.remaining()) + " remain");
    if (OND_CHECK_OFF(Errc::section_length_out_of_range) && f.length > body.remaining())
        f.length = static_cast<std::uint32_t>(body.remaining());  // tests only: the section ends with its body
    last_id = f.id;
    return f;
}

}  // namespace

SectionFrame read_section_frame(Cursor& body, int& last_id) { return read_frame(body, last_id); }

namespace {

// A body arriving from a stream: the same reads as a Cursor over the whole body, each one taken
// from the source when it is made. A section's content is read whole into one of two buffers:
// the string table's, kept to the end of the body (the table refers to it), or the one shared
// by the other sections, reused from section to section.
class StreamedBody {
public:
    StreamedBody(ByteSource& src, std::uint64_t offset, std::uint64_t length, std::vector<std::byte>& table_bytes,
                 std::vector<std::byte>& section_bytes)
        : src_(src), off_(offset), left_(length), table_(table_bytes), section_(section_bytes) {}

    bool empty() const noexcept { return left_ == 0; }
    std::uint64_t remaining() const noexcept { return left_; }
    std::uint64_t offset() const noexcept { return off_; }
    std::uint8_t u8() {
        std::byte b[1]{};
        take(b, 1);
        OND_BAIL({});
        return static_cast<std::uint8_t>(b[0]);
    }
    std::uint32_t u32() {
        std::byte b[4]{};
        take(b, 4);
        OND_BAIL({});
        return Cursor::load_u32(reinterpret_cast<const std::uint8_t*>(b));
    }
    Cursor section(const SectionFrame& f) {
        std::vector<std::byte>& buf = f.id == sec_strings ? table_ : section_;
        const std::uint64_t at = off_;
        src_.take(buf, f.length);
        OND_BAIL({});  // before `buf` is read: it may hold fewer bytes
        off_ += f.length;
        left_ -= f.length;
        return Cursor(Bytes(buf.data(), f.length), at);
    }

private:
    void take(std::byte* dst, std::size_t n) {
        src_.take(scratch_, n);
        OND_BAIL();  // before `scratch_` is read: it may hold fewer bytes
        std::memcpy(dst, scratch_.data(), n);
        off_ += n;
        left_ -= n;
    }
    ByteSource& src_;
    std::uint64_t off_;
    std::uint64_t left_;
    std::vector<std::byte>& table_;
    std::vector<std::byte>& section_;
    std::vector<std::byte> scratch_;
};

Cursor section_content(Cursor& body, const SectionFrame& f) { return body.sub(f.length); }
Cursor section_content(StreamedBody& body, const SectionFrame& f) { return body.section(f); }

constexpr unsigned bit(unsigned id) { return 1u << id; }

// Which ids are known and which are required, by place (R9, R10).
struct PlaceRules {
    unsigned known;
    unsigned required;
};
constexpr PlaceRules rules_for(Place p) {
    switch (p) {
        case Place::ondc_body:
            return {bit(1) | bit(2) | bit(3) | bit(4) | bit(6) | bit(7), bit(1) | bit(2) | bit(3)};
        case Place::ondb_body: return {bit(1) | bit(5), bit(1) | bit(5)};
        case Place::record: return {bit(2) | bit(3) | bit(4), bit(2) | bit(3)};
    }
    return {0, 0};
}
const char* place_name(Place p) {
    switch (p) {
        case Place::ondc_body: return "an ONDC body";
        case Place::ondb_body: return "an ONDB body";
        case Place::record: return "a record";
    }
    return "";
}

// Walks the sections of one body or record: framing, order, missing and misplaced sections.
template <class M, class Body = Cursor>
class SectionWalker {
public:
    SectionWalker(Place place, Tracer* tr) : place_(place), rules_(rules_for(place)), tr_(tr) {}

    // The next known section's frame and content; false at the end (after the missing check).
    // Unknown sections are skipped here; misplaced ones are refused.
    bool next(Body& body, SectionFrame& f, Cursor& content) {
        for (;;) {
            if (body.empty()) {
                check_missing(256, body.offset());
                return false;  // at the end, or failed
            }
            f = read_frame(body, last_);
            OND_BAIL(false);
            check_missing(f.id, f.offset);
            OND_BAIL(false);
            content = section_content(body, f);
            OND_BAIL(false);
            const bool misplaced = f.id >= 1 && f.id <= 7 && !(rules_.known & bit(f.id));
            // A relaxed reading (check_switch.hpp) may read sections 6 and 7 of a record as the
            // document's categories and span groups, as R9 allows; else a relaxed one is skipped.
            const bool read_extra = misplaced && place_ == Place::record && (f.id == 6 || f.id == 7) &&
                                    RelaxedChecks::reads_record_extras();
            const bool defined = f.id >= 1 && f.id <= 7 && (!misplaced || read_extra);  // misplaced: only when let through
            if (OND_CHECK(Errc::section_misplaced, misplaced))
                return fail(Errc::section_misplaced, f.offset,
                     "section " + std::to_string(f.id) + " (" + section_name(f.id) + ") does not belong in " +
                         place_name(place_));
            if (!defined) {
                if constexpr (M::trace)
                    tr_->field(f.offset, 5ull + f.length, "section " + std::to_string(f.id) + " (unknown)",
                               "skipped, " + detail::count_of(f.length, "byte", "bytes"));
                continue;
            }
            seen_ |= bit(f.id);
            if constexpr (M::trace)
                tr_->enter(f.offset, 5ull + f.length, "section " + std::to_string(f.id) + " (" + section_name(f.id) + ")",
                           detail::count_of(f.length, "byte", "bytes"));
            return true;
        }
    }
    // After a known section's decoder: it must have consumed its content exactly.
    void finish(const SectionFrame& f, const Cursor& content) {
        if (OND_CHECK(Errc::section_trailing_bytes, !content.empty()))
            return void(fail(Errc::section_trailing_bytes, content.offset(),
                 "section " + std::to_string(f.id) + " (" + section_name(f.id) + ") has " +
                     detail::count_of(content.remaining(), "byte", "bytes") + " after its contents"));
        if constexpr (M::trace) tr_->leave();
    }

private:
    void check_missing(unsigned upto, std::uint64_t offset) const {
        for (unsigned id = 1; id <= 7 && id < upto; ++id)
            if (OND_CHECK(Errc::section_missing, (rules_.required & bit(id)) && !(seen_ & bit(id))))
                return void(fail(Errc::section_missing, offset,
                     std::string("the ") + section_name(static_cast<std::uint8_t>(id)) + " section (id " +
                         std::to_string(id) + ") is missing from " + place_name(place_)));
    }

    Place place_;
    PlaceRules rules_;
    Tracer* tr_;
    int last_ = -1;
    unsigned seen_ = 0;
};

// Sections 2, 3, 4 (and in ONDC 6, 7) once the table is known.
template <class M>
struct DocSections {
    const TableView& table;
    DocList* out;
    Tracer* tr;
    std::uint32_t text_length = 0;
    std::uint32_t n = 0;

    void decode(const SectionFrame& f, Cursor& c) {
        switch (f.id) {
            case sec_text: text_length = decode_text_section<M>(c, out, tr); break;
            case sec_tokens: n = decode_tokens_section<M>(c, table, text_length, out, tr); break;
            case sec_entities: decode_entities_section<M>(c, table, n, out, tr); break;
            case sec_categories: decode_categories_section<M>(c, table, out, tr); break;
            case sec_span_groups: decode_span_groups_section<M>(c, table, n, out, tr); break;
            default: break;
        }
    }  // the caller bails after a failed section
};

// Each body is read into a document appended to `out`.
template <class M>
void open_doc(DocList* out) {
    if constexpr (M::build) build(out).open_doc();
}

}  // namespace

namespace {

// The section loop of a document's body or record: each known section decoded, then checked for
// trailing bytes. `Table` is TableView for an ONDC body, whose string table is read into it and
// then read by the document's sections, and const TableView for a record, which has none (the
// walker refuses section 1 there).
template <class M, class Body, class Table>
std::uint32_t decode_doc_sections(Body& body, Place place, Table& table, StringStore* strings, DocList* out, Tracer* tr) {
    SectionWalker<M, Body> walker(place, tr);
    DocSections<M> doc{table, out, tr};
    SectionFrame f;
    Cursor content(Bytes{});
    while (walker.next(body, f, content)) {
        if constexpr (std::is_const_v<Table>)
            doc.decode(f, content);
        else if (f.id == sec_strings)
            decode_string_table_section<M>(content, table, strings, tr);
        else
            doc.decode(f, content);
        OND_BAIL({});
        walker.finish(f, content);
        OND_BAIL({});
    }
    OND_BAIL({});  // walker.next() failed
    return doc.n;
}

}  // namespace

template <class M>
std::uint32_t decode_record_body(Cursor& record, const TableView& table, DocList* out, Tracer* tr) {
    open_doc<M>(out);
    return decode_doc_sections<M>(record, Place::record, table, nullptr, out, tr);
}

template <class M>
std::uint32_t decode_ondc_body(Cursor& body, TableView& table, StringStore* strings, DocList* out, Tracer* tr) {
    open_doc<M>(out);
    return decode_doc_sections<M>(body, Place::ondc_body, table, strings, out, tr);
}

std::uint32_t validate_ondc_body_streamed(ByteSource& src, std::uint64_t offset, std::uint32_t length, TableView& table,
                                          std::vector<std::byte>& table_bytes, std::vector<std::byte>& section_bytes) {
    StreamedBody body(src, offset, length, table_bytes, section_bytes);
    return decode_doc_sections<ValidateMode>(body, Place::ondc_body, table, nullptr, nullptr, nullptr);
}

template <class M>
BinRecords decode_ondb_prologue(Cursor& body, TableView& table, StringStore* strings, Tracer* tr) {
    SectionWalker<M> walker(Place::ondb_body, tr);
    SectionFrame f;
    Cursor content(Bytes{});
    while (walker.next(body, f, content)) {
        if (f.id == sec_strings) {
            decode_string_table_section<M>(content, table, strings, tr);
            OND_BAIL({});
            walker.finish(f, content);
            OND_BAIL({});
            continue;
        }
        // Section 5 must end the body (R11): nothing, not even an unknown section, follows it.
        if (OND_CHECK(Errc::bin_section_after_records, !body.empty()))
            return fail(Errc::bin_section_after_records, body.offset(),
                 detail::count_of(body.remaining(), "byte", "bytes") + " follow section 5 in the ONDB body");
        const std::uint64_t count_offset = content.offset();
        const std::uint32_t count = content.u32();
        OND_BAIL({});
        if (OND_CHECK(Errc::bin_count_exceeds_bytes, count > content.remaining() / 4))
            return fail(Errc::bin_count_exceeds_bytes, count_offset,
                 detail::count_of(count, "record", "records") + " need at least " + detail::count_of(4ull * count, "byte", "bytes") +
                     ", but section 5 has " + std::to_string(content.remaining()) + " left");
        if constexpr (M::trace) tr->field(count_offset, 4, "records.count", std::to_string(count));
        return BinRecords{content, count};
    }
    OND_BAIL({});  // walker.next() failed
    // Not reached: the walker's end-of-body check raises section.missing for section 5.
    return fail(Errc::section_missing, body.offset(), "the records section (id 5) is missing from an ONDB body");
}

OpenedBin open_bin(Bytes input, TableView& table, StringStore& strings, const char* refusal) {
    Cursor c(input);
    const Header h = decode_header<DecodeMode>(c, nullptr);
    OND_BAIL({});
    if (h.format != Format::ondb) return raise(Error(Errc::header_bad_magic, 0, refusal));
    check_container_size(h, input.size(), 0);
    OND_BAIL({});
    Cursor body = c.sub(h.body_length);
    return OpenedBin{decode_ondb_prologue<DecodeMode>(body, table, &strings, nullptr), h.crc};
}

void check_records_end(const Cursor& records) {
    if (OND_CHECK(Errc::bin_trailing_bytes, !records.empty()))
        return void(fail(Errc::bin_trailing_bytes, records.offset(),
             detail::count_of(records.remaining(), "byte", "bytes") + " of section 5 follow the last record"));
}

namespace {
// A record's u32 length, checked against what section 5 has left.
std::uint32_t read_record_length(Cursor& sec, std::uint32_t index, std::uint64_t rec_offset) {
    std::uint32_t length = sec.u32();
    OND_BAIL({});
    if (OND_CHECK(Errc::bin_record_length_out_of_range, length > sec.remaining()))
        return fail(Errc::bin_record_length_out_of_range, rec_offset,
             "record " + std::to_string(index) + " declares " + detail::count_of(length, "byte", "bytes") + ", but section 5 has " +
                 std::to_string(sec.remaining()) + " left");
    if (OND_CHECK_OFF(Errc::bin_record_length_out_of_range) && length > sec.remaining())
        length = static_cast<std::uint32_t>(sec.remaining());  // tests only: the record ends with its section
    return length;
}
}  // namespace

RecordFrame skip_record(Cursor& sec, std::uint32_t index) {
    const std::uint64_t rec_offset = sec.offset();
    const std::uint32_t length = read_record_length(sec, index, rec_offset);
    OND_BAIL({});
    sec.skip(length);
    return RecordFrame{rec_offset, length};
}

template <class M>
std::uint32_t decode_record(Cursor& sec, std::uint32_t index, const TableView& table, DocList* out, Tracer* tr) {
    const std::uint64_t rec_offset = sec.offset();
    const std::uint32_t length = read_record_length(sec, index, rec_offset);
    OND_BAIL({});
    if constexpr (M::trace)
        tr->enter(rec_offset, 4ull + length, "record " + std::to_string(index), detail::count_of(length, "byte", "bytes"));
    Cursor body = sec.sub(length);
    const std::uint32_t n = decode_record_body<M>(body, table, out, tr);
    if constexpr (M::trace) tr->leave();
    return n;
}

#define OND_INSTANTIATE(M)                                                                               \
    template std::uint32_t decode_record_body<M>(Cursor&, const TableView&, DocList*, Tracer*);              \
    template std::uint32_t decode_ondc_body<M>(Cursor&, TableView&, StringStore*, DocList*, Tracer*);        \
    template BinRecords decode_ondb_prologue<M>(Cursor&, TableView&, StringStore*, Tracer*);             \
    template std::uint32_t decode_record<M>(Cursor&, std::uint32_t, const TableView&, DocList*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
