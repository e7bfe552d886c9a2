// BinIndex: an ONDB's records indexed in one pass, decoded by range (R11, R27).
#include "ond/bin_index.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "ond/internal/sections.hpp"

namespace ond {

struct BinIndex::State {
    std::vector<std::byte> owned;  // the bytes, when the index was given them to keep
    Bytes input;
    bool crc = false;
    StringStore strings;
    detail::TableView table;  // values from `strings`; read-only once built (see build())
    std::vector<RecordSpan> records;
};

BinIndex::BinIndex(Bytes input) : s_(std::make_unique<State>()) { build(input); }

BinIndex::BinIndex(std::vector<std::byte>&& bytes) : s_(std::make_unique<State>()) {
    s_->owned = std::move(bytes);
    build(Bytes(s_->owned));
}

BinIndex::~BinIndex() = default;
BinIndex::BinIndex(BinIndex&&) noexcept = default;
BinIndex& BinIndex::operator=(BinIndex&&) noexcept = default;

void BinIndex::build(Bytes input) {
    s_->input = input;
    // Without exceptions an index that failed to build lives on, holding only checked frames.
    auto [bin, crc] = detail::open_bin(input, s_->table, s_->strings, "a BinIndex indexes ONDB containers; this one is ONDC");
    OND_BAIL();
    s_->crc = crc;
    // One span per record whose frame was read: the declared count allocates nothing. Each
    // record's place depends on the length before it, so the walk would wait on memory at every
    // record: the bytes a few KiB ahead are prefetched (records are contiguous).
    constexpr std::uint64_t ahead = 8192, line = 64;
    std::uint64_t fetched = bin.records.offset();
    const std::uint64_t end = bin.records.end_offset();
    for (std::uint32_t i = 0; i < bin.count; ++i) {
        for (const std::uint64_t until = std::min(bin.records.offset() + ahead, end); fetched < until; fetched += line)
            __builtin_prefetch(input.data() + fetched);
        // A record whose length field and body lie within what the section has left is taken
        // inline, with the one comparison that decides it; any other goes to skip_record, which
        // raises its fault (or, in a build with that check switched off, does what it says).
        if (const std::size_t left = bin.records.remaining(); left >= 4) {
            std::uint32_t length;
            std::memcpy(&length, bin.records.here(), 4);  // little-endian host (checked in header.cpp)
            if (length <= left - 4) {
                s_->records.push_back(RecordSpan{bin.records.offset(), length});
                bin.records.skip(4 + std::size_t{length});
                continue;
            }
        }
        const detail::RecordFrame f = detail::skip_record(bin.records, i);
        OND_BAIL();
        s_->records.push_back(RecordSpan{f.offset, f.length});
    }
    detail::check_records_end(bin.records);
    OND_BAIL();
    if (crc) detail::check_trailer<detail::DecodeMode>(input, 0, nullptr);
    OND_BAIL();
    // The table builds two lookups on first use (an error message may ask for an entry); made
    // now, so that concurrent decodes only read it.
    if (s_->table.count() > 0) {
        (void)s_->table.is_stored_empty(1);
        (void)s_->table.entry(1);
    }
}

std::size_t BinIndex::size() const noexcept { return s_->records.size(); }
bool BinIndex::crc() const noexcept { return s_->crc; }
RecordSpan BinIndex::record(std::size_t i) const noexcept { return s_->records[i]; }
std::span<const RecordSpan> BinIndex::records() const& noexcept { return s_->records; }
const StringStore& BinIndex::strings() const& noexcept { return s_->strings; }

Container BinIndex::decode(std::size_t first, std::size_t last) const {
    Container out;
    decode_into(first, last, out);
    OND_BAIL({});
    return out;
}

void BinIndex::decode_into(std::size_t first, std::size_t last, Container& out) const {
    if (first > last || last > size())
        detail::raise_logic<std::out_of_range>("BinIndex: records [" + std::to_string(first) + ", " +
                                               std::to_string(last) + ") of " + std::to_string(size()));
    out.format = Format::ondb;
    out.crc = s_->crc;
    out.docs.clear();
    // A store that is already a full copy of this one keeps its ids (and its lookup index).
    const StringStore& from = s_->strings;
    if (out.strings.size() != from.size() || out.strings.ids_shared_with(from.id()) != from.size())
        out.strings = from;
    detail::ClearOnFailure guard{&out.docs};
    for (std::size_t i = first; i < last; ++i) {
        const RecordSpan r = s_->records[i];
        detail::Cursor sec(s_->input.subspan(static_cast<std::size_t>(r.offset), 4 + std::size_t{r.length}), r.offset);
        detail::decode_record<detail::DecodeMode>(sec, static_cast<std::uint32_t>(i), s_->table, &out.docs, nullptr);
        OND_BAIL();
    }
}

}  // namespace ond
