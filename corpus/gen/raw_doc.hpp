// A field-by-field picture of a container, made from content exactly as the canonical writer
// would write it, so that a case can change one field and serialise the rest unchanged.
// Every varint field is a V: its value, extra overlong bytes, or raw bytes that replace it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ond/model.hpp"
#include "raw_writer.hpp"

namespace ond::corpus::raw {

struct V {
    std::uint32_t v = 0;
    int pad = 0;                // extra bytes of an overlong form
    std::optional<Buf> bytes;   // replaces the encoding entirely
    V() = default;
    V(std::uint32_t x) : v(x) {}  // NOLINT: a value reads naturally
};

struct SV {
    std::int32_t v = 0;
    int pad = 0;
    std::optional<Buf> bytes;
    SV() = default;
    SV(std::int32_t x) : v(x) {}  // NOLINT
};

void put(Writer& w, const V& v);
void put(Writer& w, const SV& v);

struct RStr {
    Buf bytes;                   // as stored (UTF-8 or UTF-16LE)
    bool utf16 = false;
    std::optional<std::uint32_t> h;  // forced header value
    int h_pad = 0;                   // extra bytes of an overlong header
};

struct RTable {
    std::optional<V> count;      // default: entries.size()
    std::vector<RStr> entries;
    Buf tail;                    // bytes after the last entry
};

struct RText {
    std::uint8_t enc = 0;
    Buf bytes;
};

struct RTokens {
    std::optional<V> n;          // default: gap.size()
    std::vector<V> gap, len;
    std::array<std::vector<V>, 6> cols;
    std::vector<SV> head;        // deltas
    std::vector<std::uint8_t> sent;        // 2-bit values, packed on write
    std::optional<Buf> sent_bytes;         // replaces the packed bytes
    std::uint8_t conf_mode = 0;
    std::vector<std::uint32_t> conf;       // float bits (mode 1)
    Buf tail;
};

struct REnt {
    V gap, len, label;
    std::uint32_t conf = 0x3F800000;
};
struct REnts {
    std::optional<V> count;
    std::vector<REnt> ents;
    Buf tail;
};

struct RCat {
    V label;
    std::uint32_t score = 0;
};
struct RCats {
    std::optional<V> count;
    std::vector<RCat> cats;
    Buf tail;
};

struct RSpan {
    V start, len, label;
    std::uint32_t conf = 0x3F800000;
};
struct RGroup {
    V name;
    std::optional<V> count;
    std::vector<RSpan> spans;
};
struct RGroups {
    std::optional<V> count;
    std::vector<RGroup> groups;
    Buf tail;
};

struct RDoc {
    std::optional<RText> text;
    std::optional<RTokens> tokens;
    std::optional<REnts> ents;
    std::optional<RCats> cats;
    std::optional<RGroups> groups;
};

// A framed section; `length` forces the u32 length field.
struct RSection {
    std::uint8_t id = 0;
    Buf body;
    std::optional<std::uint32_t> length;
};
using Sections = std::vector<RSection>;

Buf body_of(const RTable& t);
Buf body_of(const RText& t);
Buf body_of(const RTokens& t);
Buf body_of(const REnts& e);
Buf body_of(const RCats& c);
Buf body_of(const RGroups& g);

// Sections 2, 3, 4, 6, 7 of one document, in id order, those present.
Sections doc_sections(const RDoc& d);
Buf frame(const Sections& s);

struct RRecord {
    std::optional<std::uint32_t> length;   // forced u32 record length
    Sections sections;
    Buf tail;                              // inside the record, after its sections
};
struct RRecords {
    std::optional<std::uint32_t> count;    // forced u32 count
    std::vector<RRecord> records;
    Buf tail;                              // inside section 5, after the records
};
Buf body_of(const RRecords& r);

// The canonical picture of some content: the table as W3 numbers it, and one RDoc per document.
struct Canon {
    Format format = Format::ondc;
    bool crc = false;
    RTable table;
    std::vector<RDoc> docs;
};
Canon canon(const Container& c);

// The body sections of an ONDC (1, 2, 3, [4], [6], [7]) or ONDB (1, 5).
Sections ondc_sections(const Canon& c);
RRecords ondb_records(const Canon& c);
Sections ondb_sections(const Canon& c, const RRecords& r);

ContainerSpec spec_for(const Canon& c);
// Canonical bytes of the picture (equal to ond::encode of the content; the generator checks it).
Buf bytes(const Canon& c);
Buf bytes_from(const ContainerSpec& s, const Sections& body);

// Helpers for stored strings.
RStr utf8(std::string_view s);
RStr utf16(const std::u16string& units);

}  // namespace ond::corpus::raw
