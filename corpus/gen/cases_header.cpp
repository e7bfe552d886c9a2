// Area "header": the 12-byte header and the container's size (R6, L1).
#include "common.hpp"

namespace ond::corpus::gen {

void add_header_cases(Registry& r) {
    r.area("header");
    const Container e = empty_doc();
    const Container t = tiny();
    const Buf te = canonical(e);
    const Buf tt = canonical(t);

    r.valid("empty-document", {"R6", "L1", "R10"}, "the smallest ONDC: empty text, no tokens, empty table", e);
    r.valid("empty-document-crc", {"R6", "R7", "L1"}, "the smallest ONDC with a CRC-32 trailer (flags = 1)", empty_doc(true));
    r.valid("empty-bin", {"R6", "R11", "L1"}, "the smallest ONDB: empty table and zero records", ondb());
    r.valid("empty-bin-crc", {"R6", "R7", "L1"}, "an ONDB with zero records and a CRC-32 trailer", ondb(true));
    r.valid("two-tokens", {"R6", "L1"}, "a short document whose header declares its exact body length", t);

    // Truncated header: every length from 0 to 11.
    for (std::size_t n : {0u, 1u, 3u, 4u, 5u, 6u, 8u, 11u})
        r.invalid("truncated-" + std::to_string(n) + "-bytes", {"R6", "L1"},
                  "only the first " + (n == 1 ? std::string("byte") : std::to_string(n) + " bytes") + " of a header (12 needed)", Buf(te.begin(), te.begin() + static_cast<long>(n)),
                  "header.truncated");

    // Magic.
    const std::pair<const char*, std::string> magics[] = {
        {"bad-magic-lowercase", "ondc"}, {"bad-magic-ondx", "ONDX"}, {"bad-magic-zeros", std::string(4, '\0')},
        {"bad-magic-ondd", "ONDD"},      {"bad-magic-reversed", "CDNO"}, {"bad-magic-onda", "ONDA"}};
    for (const auto& [name, magic] : magics)
        r.invalid(name, {"R6", "L1"}, "magic '" + (magic[0] ? magic : std::string("\\0\\0\\0\\0")) + "' is neither ONDC nor ONDB",
                  edit_spec(t, [m = magic](raw::ContainerSpec& s) { s.magic = m; }), "header.bad-magic");

    // Version: 1 only.
    for (std::uint16_t v : std::initializer_list<std::uint16_t>{0, 2, 0x100, 0xFFFF})
        r.invalid("bad-version-" + std::to_string(v), {"R6", "L1"}, "format version " + std::to_string(v) + " (only 1 exists)",
                  edit_spec(t, [v](raw::ContainerSpec& s) { s.version = v; }), "header.bad-version");
    r.invalid("bad-version-bin", {"R6", "L1"}, "an ONDB with format version 2",
              edit_spec(ondb(), [](raw::ContainerSpec& s) { s.version = 2; }), "header.bad-version");

    // Flags: 0 or 1.
    for (std::uint16_t f : std::initializer_list<std::uint16_t>{2, 3, 0x8000, 0x0101, 0xFFFF})
        r.invalid("bad-flags-" + std::to_string(f), {"R6", "L1"}, "flags " + std::to_string(f) + " set a bit other than bit 0",
                  edit_spec(t, [f](raw::ContainerSpec& s) { s.flags = f; }), "header.bad-flags");

    // Declared body length against the bytes present.
    const auto body = static_cast<std::uint32_t>(tt.size() - 12);
    r.invalid("body-length-one-more", {"R6", "L1"}, "the header declares one body byte more than the input holds",
              edit_spec(t, [body](raw::ContainerSpec& s) { s.body_length = body + 1; }), "container.truncated");
    r.invalid("body-length-one-less", {"R6", "L1"}, "the header declares one body byte less than the input holds",
              edit_spec(t, [body](raw::ContainerSpec& s) { s.body_length = body - 1; }), "container.trailing-bytes");
    r.invalid("body-length-max", {"R6", "L1"}, "a body length of 0xFFFFFFFF in a buffer of a few bytes",
              edit_spec(t, [](raw::ContainerSpec& s) { s.body_length = 0xFFFFFFFFu; }), "container.truncated");
    r.invalid("body-cut-short", {"R6", "L1"}, "the last body byte is missing", Buf(tt.begin(), tt.end() - 1),
              "container.truncated");
    r.invalid("one-byte-after-end", {"R6", "L1"}, "one zero byte follows the end of the container",
              edit_spec(t, [](raw::ContainerSpec& s) { s.after = {0}; }), "container.trailing-bytes");
    r.invalid("second-container-in-buffer", {"R6", "L1"}, "a buffer holding two containers back to back (a buffer holds one)",
              raw::concat({tt, tt}), "container.trailing-bytes");
    r.invalid("trailer-without-flag", {"R6", "R7", "L1"}, "a correct CRC-32 follows the body but flags = 0 (the trailer is extra bytes)",
              edit_spec(t, [](raw::ContainerSpec& s) {
                  s.crc = true;
                  s.flags = 0;
              }),
              "container.trailing-bytes");
    const Buf tc = canonical(tiny(true));
    r.invalid("flag-without-trailer", {"R6", "R7", "L1"}, "flags = 1 but the input ends with the body (no trailer)",
              Buf(tc.begin(), tc.end() - 4), "container.truncated");
    r.invalid("trailer-three-bytes", {"R6", "R7", "L1"}, "flags = 1 and only three trailer bytes", Buf(tc.begin(), tc.end() - 1),
              "container.truncated");
    r.invalid("trailer-then-byte", {"R6", "R7", "L1"}, "a byte follows the CRC-32 trailer",
              edit_spec(tiny(true), [](raw::ContainerSpec& s) { s.after = {0x0A}; }), "container.trailing-bytes");
    r.invalid("bin-body-length-one-more", {"R6", "L1"}, "an ONDB whose header declares one body byte too many",
              edit_spec(ondb(), [](raw::ContainerSpec& s) { s.body_length = 16; }), "container.truncated");
    r.invalid("header-only-length-zero", {"R6", "R10", "L1"}, "a header declaring a body of 0 bytes: no string table",
              edit_sections(t, [](raw::Sections& s) { s.clear(); }), "section.missing");
}

}  // namespace ond::corpus::gen
