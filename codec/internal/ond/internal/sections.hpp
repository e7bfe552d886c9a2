// Section entry points: every part of the format decodable on its own, for the container
// readers, the fuzz harnesses and the unit tests. Internal header (not installed).
//
// Each decoder is a template over a Mode: ValidateMode checks and builds nothing, DecodeMode
// also fills the model, InspectMode also reports every field to a Tracer. All three run the
// same code, so the checks cannot drift apart.
#pragma once

#include <pthread.h>

#include <cstdint>
#include <exception>
#include <forward_list>
#include <string>
#include <string_view>
#include <vector>

#include "ond/internal/cursor.hpp"
#include "ond/internal/limits.hpp"
#include "ond/inspect.hpp"
#include "ond/model.hpp"

namespace ond::detail {

struct ValidateMode { static constexpr bool build = false, trace = false; };
struct DecodeMode { static constexpr bool build = true, trace = false; };
struct InspectMode { static constexpr bool build = false, trace = true; };

// Instantiates X(Mode) for each of the three modes (the explicit instantiations of each section).
#define OND_FOR_EACH_MODE(X) X(::ond::detail::ValidateMode) X(::ond::detail::DecodeMode) X(::ond::detail::InspectMode)

// Reports fields to an InspectFn (InspectMode only).
class Tracer {
public:
    explicit Tracer(const InspectFn& fn) : fn_(fn) {}
    void enter(std::uint64_t offset, std::uint64_t length, std::string name, std::string value = {});
    void leave();
    void field(std::uint64_t offset, std::uint64_t length, std::string name, std::string value);
    int depth() const noexcept { return depth_; }

private:
    const InspectFn& fn_;
    int depth_ = 0;
};

// Section ids.
enum SectionId : std::uint8_t {
    sec_strings = 1, sec_text = 2, sec_tokens = 3, sec_entities = 4, sec_records = 5,
    sec_categories = 6, sec_span_groups = 7,
};
const char* section_name(std::uint8_t id) noexcept;  // "string table", ..., "unknown"

// ---- primitives -------------------------------------------------------------------------

// One stored string, checked (R5) but not converted.
struct RawString {
    const std::uint8_t* data = nullptr;
    std::uint32_t size = 0;      // bytes
    bool utf16 = false;          // flag 1
    std::uint64_t offset = 0;    // absolute offset of its length varint
};

// Reads and checks a string (R5): length within the cursor, UTF-8 well-formed or UTF-16 even.
// Bytes before `ascii_before` are known to be ASCII (a UTF-8 string that ends there needs no
// check).
RawString read_string(Cursor& c, const std::uint8_t* ascii_before = nullptr);
// Appends the string's value as WTF-8.
void append_wtf8(std::string& out, const RawString& s);
bool raw_string_equal(const RawString& a, const RawString& b);  // by UTF-16 code units

// ---- string table (section 1) -----------------------------------------------------------

// The table as read. Index 0 is "" (not stored); index i >= 1 is the i-th stored string.
//
// Reading section 1 keeps no record per string: the table remembers where its strings lie and
// finds one again when asked (validate-only then needs O(1) memory per entry whatever the
// count). A label check needs only whether an entry is empty (one bit per entry, made on first
// use); a value lookup (category labels, group names, listings) makes a 4-byte start offset per
// entry on first use. In DecodeMode values come from the store being built instead.
// Unit tests and fuzz harnesses may instead fill `entries` one by one.
struct TableView {
    std::vector<RawString> entries;

    std::uint32_t count() const noexcept { return from_section_ ? stored_ : static_cast<std::uint32_t>(entries.size()); }
    // Throws table.index-out-of-range (at `offset`) when idx > count().
    // Returns idx (0 where a switched-off range check let an index beyond the table through).
    std::uint32_t check_index(std::uint32_t idx, std::uint64_t offset) const;
    bool is_stored_empty(std::uint32_t idx) const;
    // Entry idx (1 <= idx <= count()), as stored.
    RawString entry(std::uint32_t idx) const;
    // Entry idx's value as WTF-8, without copying it where it can be seen in place (the store
    // being built, or a UTF-8 entry in the section); a UTF-16 entry is converted into a new
    // element of `converted`, which owns it (a forward_list: earlier views stay valid). A label
    // of 2 GiB is then held once, not once per set that remembers it.
    std::string_view value(std::uint32_t idx, std::forward_list<std::string>& converted) const;

    // For decode_string_table_section: the `count` checked strings stored back to back from
    // `first` (absolute offset `first_offset`); `built` (DecodeMode) holds their values by index.
    // `starts`, when not empty, is each string's offset from `first` (entry()'s lookup, made
    // while reading; otherwise made on first use).
    void set_section(const std::uint8_t* first, std::uint64_t first_offset, std::uint32_t count, const StringStore* built,
                     std::vector<std::uint32_t>&& starts = {});

private:
    bool from_section_ = false;
    const std::uint8_t* first_ = nullptr;
    std::uint64_t first_offset_ = 0;
    std::uint32_t stored_ = 0;
    const StringStore* built_ = nullptr;
    mutable std::vector<bool> empty_;           // made on first is_stored_empty()
    mutable std::vector<std::uint32_t> starts_;  // made on first entry(): offset from first_
};

// `sec` spans exactly the section's content. Fills `table` (always: later sections check
// indexes against it) and, in DecodeMode, `out` (ids = table indexes).
template <class M>
void decode_string_table_section(Cursor& sec, TableView& table, StringStore* out, Tracer* tr);

// ---- document sections (2, 3, 4, 6, 7) ----------------------------------------------------

// Returns the text's length in UTF-16 code units.
template <class M>
std::uint32_t decode_text_section(Cursor& sec, DocList* out, Tracer* tr);

// Returns the token count n.
template <class M>
std::uint32_t decode_tokens_section(Cursor& sec, const TableView& table, std::uint32_t text_utf16_length,
                                    DocList* out, Tracer* tr);

template <class M>
void decode_entities_section(Cursor& sec, const TableView& table, std::uint32_t n, DocList* out, Tracer* tr);

template <class M>
void decode_categories_section(Cursor& sec, const TableView& table, DocList* out, Tracer* tr);

template <class M>
void decode_span_groups_section(Cursor& sec, const TableView& table, std::uint32_t n, DocList* out, Tracer* tr);

// ---- bodies, records, header, trailer ---------------------------------------------------

enum class Place : std::uint8_t { ondc_body, ondb_body, record };

struct SectionFrame {
    std::uint8_t id = 0;
    std::uint32_t length = 0;
    std::uint64_t offset = 0;  // absolute offset of the id byte
};

// Reads the next section's id and length: section.truncated when fewer than 5 bytes remain,
// section.out-of-order when id <= last_id (last_id starts at -1), section.length-out-of-range
// when the length passes the end of `body`. Updates last_id.
SectionFrame read_section_frame(Cursor& body, int& last_id);

// A document body: the sections of one ONDC body (after and including section 1) or of one
// ONDB record. For a record, `table` is the shared table already read. Returns the token count.
template <class M>
std::uint32_t decode_record_body(Cursor& record, const TableView& table, DocList* out, Tracer* tr);
template <class M>
std::uint32_t decode_ondc_body(Cursor& body, TableView& table, StringStore* strings, DocList* out, Tracer* tr);

// The bytes of a container arriving from a stream (StreamReader::skip_next).
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Replaces `out`'s contents with the next n bytes; throws (stream.truncated) when the stream
    // ends first. Memory grows with what arrives (R26).
    virtual void take(std::vector<std::byte>& out, std::size_t n) = 0;
};

// An ONDC body validated section by section as its bytes arrive: the checks, order and errors
// of decode_ondc_body<ValidateMode>, holding the string table's bytes and one section's at a
// time (in `table_bytes` and `section_bytes`, which keep their capacity for the next call).
std::uint32_t validate_ondc_body_streamed(ByteSource& src, std::uint64_t offset, std::uint32_t length, TableView& table,
                                          std::vector<std::byte>& table_bytes, std::vector<std::byte>& section_bytes);

// An ONDB body up to its records: section 1, then section 5's frame (which must end the body)
// and count (R11), checked against the section's bytes. `records` is left at the first record.
struct BinRecords {
    Cursor records;
    std::uint32_t count;
};
template <class M>
BinRecords decode_ondb_prologue(Cursor& body, TableView& table, StringStore* strings, Tracer* tr);
// An ONDB opened as the bin readers (DocBinReader, BinIndex) open one: the header (an ONDC is
// refused with `refusal` as the message), the container's size (R28), then the body's prologue.
struct OpenedBin {
    BinRecords bin;
    bool crc;
};
OpenedBin open_bin(Bytes input, TableView& table, StringStore& strings, const char* refusal);
// After the last record: the records must fill section 5 exactly (bin.trailing-bytes).
void check_records_end(const Cursor& records);
// One record's frame, its content unread: the u32 length checked as decode_record checks it
// (the same error), then the body skipped. For DocBinReader::skip and the BinIndex.
struct RecordFrame {
    std::uint64_t offset;  // absolute offset of the record's u32 length
    std::uint32_t length;  // of the body after it
};
RecordFrame skip_record(Cursor& sec, std::uint32_t index);
// One record: u32 length + body. Returns the token count.
template <class M>
std::uint32_t decode_record(Cursor& sec, std::uint32_t index, const TableView& table, DocList* out, Tracer* tr);

struct Header {
    Format format = Format::ondc;
    bool crc = false;
    std::uint32_t body_length = 0;
};
inline constexpr std::size_t header_size = 12;
inline constexpr std::size_t trailer_size = 4;

// Magic, version and flags (R6); needs 12 bytes (header.truncated otherwise).
template <class M>
Header decode_header(Cursor& c, Tracer* tr);
// The buffer holds exactly header + body + trailer (R6).
std::uint64_t check_container_size(const Header& h, std::uint64_t total, std::uint64_t origin);  // the size
// The CRC-32 of the bytes a trailer covers, computed on a second thread while the body is read
// when there are enough of them to gain from it (crc_thread_min_bytes) and set_crc_thread()
// allows it; otherwise (or when the thread cannot be started) by result() itself. The
// destructor waits for the thread, so no path out of a read leaves it running.
class CrcJob {
public:
    CrcJob(const std::uint8_t* p, std::size_t n, bool may_overlap) noexcept;
    ~CrcJob();
    CrcJob(const CrcJob&) = delete;  // the thread holds `this`: it never moves
    CrcJob& operator=(const CrcJob&) = delete;
    std::uint32_t result() noexcept;
    bool on_thread() const noexcept { return running_; }  // started one, not yet joined

private:
    static void* run(void* self) noexcept;
    const std::uint8_t* p_;
    std::size_t n_;
    pthread_t thread_{};
    bool running_ = false;
    bool have_ = false;
    std::uint32_t crc_ = 0;  // written by the thread, read after the join
};
inline constexpr std::size_t crc_thread_min_bytes = std::size_t{4} << 20;

// Verifies the trailer (R7): `all` is the whole container, trailer included. `job`, when given,
// covers the same bytes and supplies their CRC.
template <class M>
void check_trailer(Bytes all, std::uint64_t origin, Tracer* tr, CrcJob* job = nullptr);
// The trailer's check alone: `offset` is the trailer's.
void check_crc(std::uint32_t stored, std::uint32_t actual, std::uint64_t offset);

std::uint32_t crc32(const std::uint8_t* p, std::size_t n, std::uint32_t crc = 0) noexcept;

// Empties the documents when a read into them fails (a throw, or a raise without exceptions): a
// record cut short may have token rows never written.
struct ClearOnFailure {
    DocList* docs;
#if OND_EXCEPTIONS
    int before = std::uncaught_exceptions();
    bool failing() const noexcept { return std::uncaught_exceptions() > before; }
#else
    bool failing() const noexcept { return faulted(); }
#endif
    ~ClearOnFailure() {
        if (docs && failing()) docs->clear();
    }
};

// Whole containers in a buffer; `origin` is the buffer's offset in a stream (0 otherwise).
template <class M>
Summary decode_container(Bytes input, std::uint64_t origin, Container* out, Tracer* tr);

// Range checks shared by reader and writer.
inline bool confidence_ok(float c) noexcept { return c >= 0.0f && c <= 1.0f; }  // false for NaN

// A count for messages, with thousands separators: 33554432 -> "33,554,432".
inline std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace ond::detail
