// A container's framing as an editable tree: header, sections, section 5's records and their
// sections, each section's content kept as bytes. Re-serialising recomputes every length and
// count (unless overridden) and the CRC trailer, so a mutation of one field stays the only fault.
// Used by the derived cases, the differential fuzzer and the deliberately faulty test adapters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ond::conformance {

struct LayoutSection {
    std::uint8_t id = 0;
    std::string content;                          // for an ONDB section 5: unused, see records
    std::uint64_t content_offset = ~std::uint64_t{0};  // where content[0] was in the parsed input
    std::optional<std::uint32_t> length_override;  // written instead of content's size

    // ONDB section 5 only (`has_records`): count, then records of sections.
    bool has_records = false;
    std::optional<std::uint32_t> count_override;
    struct Record {
        std::vector<LayoutSection> sections;
        std::string tail;                          // unparsed bytes after the sections
        std::optional<std::uint32_t> length_override;
    };
    std::vector<Record> records;
    std::string records_tail;                      // bytes after the declared records
};

struct Layout {
    std::string magic = "ONDC";
    std::uint16_t version = 1;
    std::uint16_t flags = 0;
    std::vector<LayoutSection> sections;
    std::string body_tail;                         // unparsed bytes at the end of the body
    std::optional<std::uint32_t> body_length_override;
    bool crc() const noexcept { return (flags & 1) != 0; }

    // Parses a container whose framing is sound (header, section frames, records); the contents
    // of sections are not checked. nullopt when the framing itself is broken.
    static std::optional<Layout> parse(std::string_view bytes);
    // Header + body + (trailer with a freshly computed CRC when flags bit 0 is set).
    std::string serialize() const;

    // Every leaf section (those of the body and of every record), for field-level edits.
    std::vector<LayoutSection*> leaves();
};

std::uint32_t crc32_of(std::string_view bytes) noexcept;

// LEB128 helpers for edits.
std::string encode_varint(std::uint32_t v);
// Reads a varint at pos (at most 5 bytes); returns its byte length, 0 when malformed.
std::size_t varint_size_at(std::string_view s, std::size_t pos, std::uint32_t* value = nullptr);

void put_u32(std::string& s, std::size_t pos, std::uint32_t v);
std::uint32_t get_u32(std::string_view s, std::size_t pos);

}  // namespace ond::conformance
