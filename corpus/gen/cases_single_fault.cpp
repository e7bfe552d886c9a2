// Single-fault cases (in the areas of their checks): invalid inputs whose only fault is the one check they name. A reader
// that lacks that check accepts them and decodes sensible content, so it fails the case's
// verdict, not only its reason. The suite-power test proves each one with the check switched
// off (conformance/switchable/). Existing cases of other areas that isolate one fault are
// marked here too.
#include <utility>

#include "common.hpp"
#include "ond/unicode.hpp"

namespace ond::corpus::gen {

namespace {

// The 5-byte form of v (< 2^28) whose 5th byte also carries bit 4: the value exceeds 32 bits,
// but a reader that drops the excess bits reads v.
Buf wrapping(std::uint32_t v) {
    Buf b;
    for (int i = 0; i < 4; ++i, v >>= 7) b.push_back(static_cast<std::uint8_t>((v & 0x7F) | 0x80));
    b.push_back(static_cast<std::uint8_t>(v | 0x10));
    return b;
}

// The 5-byte form of v (< 2^28) with the continuation bit set on the 5th byte.
Buf continued(std::uint32_t v) {
    Buf b = wrapping(v);
    b.back() = static_cast<std::uint8_t>((b.back() & 0x0F) | 0x80);
    return b;
}

V as(Buf bytes) {
    V v;
    v.bytes = std::move(bytes);
    return v;
}

// Drops the section with this id from an ONDC body.
raw::Sections without(raw::Sections s, std::uint8_t id) {
    s.erase(std::remove_if(s.begin(), s.end(), [id](const raw::RSection& x) { return x.id == id; }), s.end());
    return s;
}

// An ONDB of one document with empty text and no tokens.
Container bin_of_empty() {
    Container c = ondb();
    add_doc(c, "");
    return c;
}

void varint_cases(Registry& r, const Container& t, const Container& s) {
    r.single_fault("overflow-wraps-token-count", {"R1", "L4"}, "the token count 2 as 82 80 80 80 10: dropping the 5th byte's excess bits reads 2",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = as(wrapping(2)); }), "varint.overflow");
    r.single_fault("overflow-wraps-gap", {"R1", "R18"}, "the second token's gap 1 as 81 80 80 80 10",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->gap[1] = as(wrapping(k.docs[0].tokens->gap[1].v)); }),
                   "varint.overflow");
    r.single_fault("overflow-wraps-length", {"R1", "R18"}, "the first token's length with bit 32 set in its 5th byte",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->len[0] = as(wrapping(k.docs[0].tokens->len[0].v)); }),
                   "varint.overflow");
    r.single_fault("overflow-wraps-index", {"R1", "R13"}, "a norm index with bit 32 set in its 5th byte: wraps to a valid index",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->cols[0][0] = as(wrapping(k.docs[0].tokens->cols[0][0].v)); }),
                   "varint.overflow");
    r.single_fault("overflow-wraps-table-count", {"R1", "R12"}, "the string count with bit 32 set in its 5th byte",
                   edit(t, [](raw::Canon& k) { k.table.count = as(wrapping(static_cast<std::uint32_t>(k.table.entries.size()))); }),
                   "varint.overflow");
    r.single_fault("overflow-wraps-entity-label", {"R1", "R22"}, "an entity's label index with bit 32 set",
                   edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[0].label = as(wrapping(k.docs[0].ents->ents[0].label.v)); }),
                   "varint.overflow");
    r.single_fault("overflow-wraps-head", {"R1", "R2", "R19"}, "a head delta with bit 32 set in its 5th byte",
                   edit(t, [](raw::Canon& k) {
                       SV& h = k.docs[0].tokens->head[0];
                       const std::uint32_t z = (static_cast<std::uint32_t>(h.v) << 1) ^ static_cast<std::uint32_t>(h.v >> 31);
                       h.bytes = wrapping(z);
                   }),
                   "varint.overflow");
    r.single_fault("too-long-five-bytes-token-count", {"R1", "L4"},
                   "the token count 2 as 82 80 80 80 80: a 5th byte with its continuation bit set, nothing after it",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = as(continued(2)); }), "varint.too-long");
    r.single_fault("too-long-five-bytes-index", {"R1", "R13"}, "a lemma index in 5 bytes, the 5th with its continuation bit set",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->cols[1][0] = as(continued(k.docs[0].tokens->cols[1][0].v)); }),
                   "varint.too-long");
}

void text_cases(Registry& r, const Container& t) {
    // "H\0i\0" is well-formed as UTF-8 and as UTF-16LE: with no tokens, a reader that reads a bad
    // encoding byte either way accepts the document.
    Container hi = ondc();
    add_doc(hi, "Hi");
    r.single_fault("bad-encoding-2-no-tokens", {"R16"}, "text encoding byte 2 over bytes 48 00 69 00, no tokens",
                   edit(empty_doc(), [](raw::Canon& k) {
                       k.docs[0].text->enc = 2;
                       k.docs[0].text->bytes = {'H', 0, 'i', 0};
                   }),
                   "text.bad-encoding");
    r.single_fault("bad-encoding-255-utf16-text", {"R16", "R18"},
                   "text encoding byte 255 over UTF-16LE text whose tokens fit its UTF-16 length",
                   edit(t, [&t](raw::Canon& k) {
                       k.docs[0].text->enc = 0xFF;
                       k.docs[0].text->bytes = raw::utf16(unicode::utf16_from_wtf8(t.docs[0].text)).bytes;
                   }),
                   "text.bad-encoding");
}

void section_cases(Registry& r) {
    r.single_fault("missing-text-no-tokens", {"R10", "L2"}, "an ONDC body of sections 1 and 3 (0 tokens): no text section, nothing that needs it",
                   edit_sections(empty_doc(), [](raw::Sections& x) { x = without(x, 2); }), "section.missing");
    Container text_only = ondc();
    add_doc(text_only, "Hi there.");
    r.single_fault("missing-tokens-text-only", {"R10", "L2"}, "an ONDC body of sections 1 and 2: text, no tokens section",
                   edit_sections(text_only, [](raw::Sections& x) { x = without(x, 3); }), "section.missing");
    r.single_fault("missing-table-no-strings", {"R10", "L2"}, "an ONDC body of sections 2 and 3 whose tokens use no string",
                   edit_sections(counted(3), [](raw::Sections& x) { x = without(x, 1); }), "section.missing");
    r.single_fault("bin-record-missing-text-no-tokens", {"R10", "R11", "L2"}, "an ONDB record of section 3 only (0 tokens)",
                   edit_records(bin_of_empty(), [](raw::Canon&, raw::RRecords& rr) {
                       rr.records[0].sections = without(rr.records[0].sections, 2);
                   }),
                   "section.missing");
}

// Cases of the other areas whose only fault is their error code: a reader without that check
// accepts them (the suite-power test checks every one).
constexpr std::pair<const char*, const char*> existing_single_fault[] = {
        {"bin", "count-one-less"},
        {"bin", "crc-after-records"},
        {"bin", "record-entity-out-of-range"},
        {"bin", "record-head-out-of-range"},
        {"bin", "record-length-one-past"},
        {"bin", "record-length-zero"},
        {"bin", "record-missing-tokens"},
        {"bin", "record-tokens-twice"},
        {"bin", "records-short-of-section"},
        {"bin", "section-after-records"},
        {"bin", "unknown-after-records"},
        {"categories", "duplicate-index"},
        {"categories", "duplicate-value"},
        {"categories", "duplicate-value-utf8-utf16"},
        {"categories", "label-zero"},
        {"crc", "all-ones"},
        {"crc", "big-endian"},
        {"crc", "bin-mismatch"},
        {"crc", "body-only"},
        {"crc", "empty-document-mismatch"},
        {"crc", "flipped-bit-0"},
        {"crc", "flipped-bit-31"},
        {"crc", "flipped-bit-7"},
        {"crc", "flipped-bit-8"},
        {"crc", "sample-mismatch"},
        {"crc", "text-changed"},
        {"crc", "trailer-of-another-document"},
        {"crc", "zero"},
        {"entities", "confidence-above-one"},
        {"entities", "confidence-minus-one"},
        {"entities", "confidence-negative-subnormal"},
        {"entities", "empty"},
        {"entities", "empty-at-end"},
        {"entities", "end-one-past-n"},
        {"entities", "gap-max"},
        {"entities", "gap-one-past-n"},
        {"entities", "label-zero"},
        {"entities", "length-max"},
        {"entities", "no-tokens"},
        {"header", "bad-flags-2"},
        {"header", "bad-flags-257"},
        {"header", "bad-flags-3"},
        {"header", "bad-flags-32768"},
        {"header", "bad-flags-65535"},
        {"header", "bad-magic-lowercase"},
        {"header", "bad-magic-onda"},
        {"header", "bad-magic-ondd"},
        {"header", "bad-magic-ondx"},
        {"header", "bad-magic-reversed"},
        {"header", "bad-magic-zeros"},
        {"header", "bad-version-0"},
        {"header", "bad-version-2"},
        {"header", "bad-version-256"},
        {"header", "bad-version-65535"},
        {"header", "bad-version-bin"},
        {"header", "header-only-length-zero"},
        {"header", "one-byte-after-end"},
        {"header", "second-container-in-buffer"},
        {"header", "trailer-then-byte"},
        {"header", "trailer-without-flag"},
        {"section", "bin-missing-table"},
        {"section", "categories-before-entities"},
        {"section", "categories-trailing-byte"},
        {"section", "entities-after-groups"},
        {"section", "entities-trailing-byte"},
        {"section", "groups-trailing-byte"},
        {"section", "length-one-past-body"},
        {"section", "missing-tokens"},
        {"section", "only-unknown"},
        {"section", "repeated-table"},
        {"section", "repeated-text"},
        {"section", "repeated-unknown"},
        {"section", "table-trailing-byte"},
        {"section", "tokens-trailing-byte"},
        {"section", "tokens-trailing-float"},
        {"section", "tokens-twice"},
        {"section", "unknown-0-after-table"},
        {"section", "unknown-8-before-entities"},
        {"section", "unknown-9-before-8"},
        {"section", "unknown-length-past-body"},
        {"spans", "confidence-above-one"},
        {"spans", "confidence-minus-tiny"},
        {"spans", "empty"},
        {"spans", "end-one-past-n"},
        {"spans", "in-document-without-tokens"},
        {"spans", "label-zero"},
        {"spans", "name-zero"},
        {"spans", "start-at-n"},
        {"spans", "start-max"},
        {"stream", "bad-flags-first"},
        {"stream", "bad-magic-second"},
        {"stream", "body-fault-third"},
        {"stream", "crc-mismatch-second"},
        {"string", "invalid-utf8-surrogate-d800"},
        {"string", "invalid-utf8-surrogate-dfff"},
        {"string", "invalid-utf8-unused-entry"},
        {"string", "utf16-odd-1-byte"},
        {"string", "utf16-odd-3-bytes"},
        {"table", "index-count-plus-one-dep"},
        {"table", "index-count-plus-one-lemma"},
        {"table", "index-count-plus-one-morph"},
        {"table", "index-count-plus-one-norm"},
        {"table", "index-count-plus-one-pos"},
        {"table", "index-count-plus-one-tag"},
        {"table", "index-count-plus-two"},
        {"table", "index-into-empty-table"},
        {"text", "invalid-utf8-surrogate"},
        {"text", "tokens-count-utf16-not-bytes"},
        {"text", "tokens-past-non-bmp"},
        {"text", "utf16-odd-length"},
        {"text", "utf16-one-byte"},
        {"tokens", "confidence-above-one"},
        {"tokens", "confidence-minus-one"},
        {"tokens", "confidence-negative-subnormal"},
        {"tokens", "confidence-two"},
        {"tokens", "empty-first"},
        {"tokens", "empty-last"},
        {"tokens", "gap-max"},
        {"tokens", "gap-one-past-text"},
        {"tokens", "head-before-first"},
        {"tokens", "head-one-past-end"},
        {"tokens", "in-empty-text"},
        {"tokens", "last-ends-one-past-text"},
        {"tokens", "length-max"},
        {"tokens", "sentence-value-3-second-byte"},
        {"tokens", "sentence-value-3-token-0"},
        {"tokens", "sentence-value-3-token-1"},
        {"tokens", "sentence-value-3-token-2"},
        {"tokens", "sentence-value-3-token-3"},
        {"tokens", "starts-at-text-end"},
        {"varint", "max-value-as-index"},
        {"varint", "zigzag-max-negative"},
        {"varint", "zigzag-max-positive"},
        {"varint", "zigzag-minus-one-at-first"},
};

}  // namespace

void add_single_fault_cases(Registry& r) {
    const Container t = tiny();
    const Container s = sample();
    r.area("varint");
    varint_cases(r, t, s);
    r.area("text");
    text_cases(r, t);
    r.area("section");
    section_cases(r);
    for (const auto& [area, name] : existing_single_fault) r.mark_single_fault(area, name);
}

}  // namespace ond::corpus::gen
