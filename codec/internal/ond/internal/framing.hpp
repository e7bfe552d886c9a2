// A container's framing as an editable tree: header, sections, section 5's records and their
// sections, each section's content kept as bytes. Re-serialising recomputes every length and
// count (unless overridden) and the CRC trailer, so a change to one field stays the only fault.
// The one home of container framing for the tools around the codec: the fuzz harnesses'
// structure-aware mutator, the runner's derived cases and mutator, the fuzz minimiser and the
// deliberately faulty test adapters. Not part of the installed codec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ond::framing {

struct Section {
    std::uint8_t id = 0;
    std::string content;                               // for a records section: unused, see records
    std::uint64_t content_offset = ~std::uint64_t{0};  // where content[0] was in the parsed input
    std::optional<std::uint32_t> length_override;      // written instead of content's size

    // ONDB section 5 only (`has_records`): count, then records of sections.
    bool has_records = false;
    std::optional<std::uint32_t> count_override;
    struct Record {
        std::vector<Section> sections;
        std::string tail;                              // unparsed bytes after the sections
        std::optional<std::uint32_t> length_override;
    };
    std::vector<Record> records;
    std::string records_tail;                          // bytes after the declared records

    // The content as written: `content`, or for a records section the count and the records.
    std::string serialized_content() const;
    // Turns a records section into a plain one holding the same bytes.
    void flatten();
};

struct Layout {
    std::string magic = "ONDC";
    std::uint16_t version = 1;
    std::uint16_t flags = 0;
    std::vector<Section> sections;
    std::string body_tail;                             // unparsed bytes at the end of the body
    std::optional<std::uint32_t> body_length_override;
    bool crc() const noexcept { return (flags & 1) != 0; }

    // Parses a container whose framing is sound (header, section frames, records); the contents
    // of sections are not checked. nullopt when the framing itself is broken.
    static std::optional<Layout> parse(std::string_view bytes);
    // Parses whatever framing there is: a body, section or record length that runs past its end
    // takes what remains, the bytes after the body (a trailer) are dropped, the records of the
    // first ONDB section 5 are found by their lengths (the count is not read), and a fragment too
    // short for a frame is kept as a tail. nullopt only without a 12-byte header and magic.
    static std::optional<Layout> parse_lenient(std::string_view bytes);
    // Header + body + (trailer with a freshly computed CRC when flags bit 0 is set).
    std::string serialize() const;

    // Every leaf section (those of the body and of every record), for field-level edits.
    std::vector<Section*> leaves();
    // The first records section of the body, if any.
    Section* records_section() noexcept;
};

std::uint32_t crc32_of(std::string_view bytes) noexcept;

// LEB128 helpers for edits.
std::string encode_varint(std::uint32_t v);
// Reads a varint at pos (at most 5 bytes); returns its byte length, 0 when malformed.
std::size_t varint_size_at(std::string_view s, std::size_t pos, std::uint32_t* value = nullptr);

void put_u32(std::string& s, std::size_t pos, std::uint32_t v);
std::uint32_t get_u32(std::string_view s, std::size_t pos);

}  // namespace ond::framing
