// Area "varint": LEB128 and zig-zag (R1, R2), in every kind of field that holds one.
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
// A document with `n` tokens whose norms are n distinct strings (table indexes 1..n).
Container distinct_norms(std::uint32_t n) {
    Container c = ondc();
    std::string text;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (i) text += ' ';
        text += "t" + std::to_string(1000 + i);
    }
    Doc d = new_doc(text);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::string norm = "t" + std::to_string(1000 + i);
        add_token(c, d, i * 6, 5, Attrs{norm, "", "", "", "", ""}, -1, i == 0 ? Sentence::start : Sentence::inside);
    }
    c.docs.push_back(d);
    return c;
}
}  // namespace

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_varint_cases(Registry& r) {
    r.area("varint");
    const Container t = tiny();
    const Container s = sample();

    // Values at the byte-length boundaries, written minimally.
    for (std::uint32_t n : {127u, 128u})
        r.valid("token-count-" + std::to_string(n), {"R1", "W1", "L4"},
                std::to_string(n) + " tokens: the count takes " + (n < 128 ? "1 byte" : "2 bytes"), counted(n));
    for (std::uint32_t n : {127u, 128u})
        r.valid("table-index-" + std::to_string(n), {"R1", "W1", "R13"},
                std::to_string(n) + " distinct strings: the last index takes " + (n < 128 ? "1 byte" : "2 bytes"),
                distinct_norms(n));
    {
        Container c = ondc();
        std::string text(16384, ' ');
        text += "end";
        Doc d = new_doc(text);
        add_token(c, d, 16384, 3, Attrs{"end", "end", "NOUN", "NN", "ROOT", ""}, -1, Sentence::start);
        c.docs.push_back(d);
        r.valid("gap-16384", {"R1", "W1", "R18"}, "a token 16384 units after the start: the gap takes 3 bytes", c);
    }

    // Overlong forms within 5 bytes: valid, not canonical.
    for (int pad : {1, 2, 3, 4})
        r.noncanonical("overlong-table-count-" + std::to_string(1 + pad) + "-bytes", {"R1", "L3"},
                       "the string count written in " + std::to_string(1 + pad) + " bytes",
                       edit(t, [pad](raw::Canon& k) { k.table.count = V(static_cast<std::uint32_t>(k.table.entries.size())); k.table.count->pad = pad; }),
                       t);
    r.noncanonical("overlong-zero-token-count", {"R1", "L4"}, "a token count of 0 written as 80 00",
                   edit(empty_doc(), [](raw::Canon& k) { k.docs[0].tokens->n = V(0); k.docs[0].tokens->n->pad = 1; }), empty_doc());
    r.noncanonical("overlong-zero-five-bytes", {"R1", "L4"}, "a token count of 0 written as 80 80 80 80 00",
                   edit(empty_doc(), [](raw::Canon& k) { k.docs[0].tokens->n = V(0); k.docs[0].tokens->n->pad = 4; }), empty_doc());
    r.noncanonical("overlong-token-count", {"R1", "L4"}, "the token count written in 2 bytes",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = V(2); k.docs[0].tokens->n->pad = 1; }), t);
    r.noncanonical("overlong-gap", {"R1", "R18"}, "the second token's gap written in 3 bytes",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->gap[1].pad = 2; }), t);
    r.noncanonical("overlong-length", {"R1", "R18"}, "the first token's length written in 5 bytes",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->len[0].pad = 4; }), t);
    r.noncanonical("overlong-attribute-index", {"R1", "R13"}, "a lemma index written in 2 bytes",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->cols[1][0].pad = 1; }), t);
    r.noncanonical("overlong-unset-attribute", {"R1", "R13"}, "a morph index 0 (not set) written as 80 80 00",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->cols[5][0].pad = 2; }), t);
    r.noncanonical("overlong-head", {"R1", "R2", "R19"}, "a head delta written in 2 bytes",
                   edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[1].pad = 1; }), t);
    r.noncanonical("overlong-string-header", {"R1", "R5"}, "a string's length header written in 2 bytes",
                   edit(t, [](raw::Canon& k) {
                       auto& e = k.table.entries[0];
                       e.h_pad = 1;
                   }),
                   t);
    r.noncanonical("overlong-entity-fields", {"R1", "R22"}, "an entity's gap, length and label each written in 2 bytes",
                   edit(s, [](raw::Canon& k) {
                       auto& e = k.docs[0].ents->ents[1];
                       e.gap.pad = 1;
                       e.len.pad = 1;
                       e.label.pad = 1;
                   }),
                   s);
    r.noncanonical("overlong-entity-count", {"R1", "R22"}, "the entity count written in 3 bytes",
                   edit(s, [](raw::Canon& k) { k.docs[0].ents->count = V(3); k.docs[0].ents->count->pad = 2; }), s);
    r.noncanonical("overlong-category-label", {"R1", "R23"}, "a category label index written in 4 bytes",
                   edit(s, [](raw::Canon& k) { k.docs[0].cats->cats[0].label.pad = 3; }), s);
    r.noncanonical("overlong-span-fields", {"R1", "R24"}, "a span's start, length and label written overlong",
                   edit(s, [](raw::Canon& k) {
                       auto& sp = k.docs[0].groups->groups[0].spans[0];
                       sp.start.pad = 1;
                       sp.len.pad = 2;
                       sp.label.pad = 3;
                   }),
                   s);
    r.noncanonical("overlong-group-count", {"R1", "R24"}, "the span-group count and a group's span count written in 2 bytes",
                   edit(s, [](raw::Canon& k) {
                       k.docs[0].groups->count = V(2);
                       k.docs[0].groups->count->pad = 1;
                       k.docs[0].groups->groups[1].count = V(1);
                       k.docs[0].groups->groups[1].count->pad = 1;
                   }),
                   s);

    // Too long: a 5th byte with its continuation bit set.
    r.invalid("too-long-table-count", {"R1", "L3"}, "the string count written in 6 bytes (80 80 80 80 80 ..)",
              edit(t, [](raw::Canon& k) { k.table.count = V(static_cast<std::uint32_t>(k.table.entries.size())); k.table.count->pad = 5; }),
              "varint.too-long");
    r.invalid("too-long-zero-token-count", {"R1", "L4"}, "a token count of 0 in 6 bytes: 80 80 80 80 80 00",
              edit(empty_doc(), [](raw::Canon& k) { k.docs[0].tokens->n = V(0); k.docs[0].tokens->n->pad = 5; }), "varint.too-long");
    r.invalid("too-long-gap", {"R1", "R18"}, "a token gap in 6 bytes",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->gap[1].pad = 5; }), "varint.too-long");
    r.invalid("too-long-head", {"R1", "R2"}, "a head delta in 6 bytes",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[0].pad = 5; }), "varint.too-long");
    r.invalid("too-long-entity-label", {"R1", "R22"}, "an entity label index in 7 bytes",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[0].label.pad = 6; }), "varint.too-long");
    r.invalid("too-long-all-ff", {"R1"}, "an attribute index written FF FF FF FF FF 01",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->cols[2][0].bytes = Buf{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}; }),
              "varint.too-long");

    // Overflow: the 5th byte carries bits above 2^32.
    for (std::uint8_t last : std::initializer_list<std::uint8_t>{std::uint8_t{0x10}, std::uint8_t{0x1F}, std::uint8_t{0x7F}})
        r.invalid("overflow-5th-byte-" + std::to_string(last), {"R1"},
                  "an attribute index FF FF FF FF with 5th byte " + std::to_string(last) + ": above 0xFFFFFFFF",
                  edit(t, [last](raw::Canon& k) { k.docs[0].tokens->cols[0][1].bytes = Buf{0xFF, 0xFF, 0xFF, 0xFF, last}; }),
                  "varint.overflow");
    r.invalid("overflow-2-pow-32", {"R1", "L4"}, "a token count of exactly 2^32: 80 80 80 80 10",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = V(0); k.docs[0].tokens->n->bytes = Buf{0x80, 0x80, 0x80, 0x80, 0x10}; }),
              "varint.overflow");
    r.invalid("max-value-as-index", {"R1", "R13"}, "FF FF FF FF 0F is a valid varint (0xFFFFFFFF) but far beyond the table",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->cols[0][1].bytes = Buf{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}; }),
              "table.index-out-of-range");

    // Truncated: the section ends while a varint still continues.
    r.invalid("truncated-table-count", {"R1", "L3"}, "the table section is one byte, 0x85, a varint that never ends",
              edit(t, [](raw::Canon& k) { k.table = raw::RTable{}; k.table.count = V(0); k.table.count->bytes = Buf{0x85}; }),
              "varint.truncated");
    r.invalid("truncated-string-header", {"R1", "R5"}, "the table's only string header is 0x80 at the end of the section",
              edit(empty_doc(), [](raw::Canon& k) { k.table.count = V(1); k.table.tail = Buf{0x80}; }), "varint.truncated");
    r.invalid("truncated-token-count", {"R1", "L4"}, "the tokens section is FF FF: a token count cut after two bytes",
              edit_sections(t, [](raw::Sections& x) { find_section(x, 3)->body = Buf{0xFF, 0xFF}; }), "varint.truncated");
    r.invalid("truncated-entity-count", {"R1", "R22"}, "the entities section is 0x80 alone",
              edit_sections(s, [](raw::Sections& x) { find_section(x, 4)->body = Buf{0x80}; }), "varint.truncated");
    r.invalid("truncated-category-count", {"R1", "R23"}, "the categories section is 0xFF alone",
              edit_sections(s, [](raw::Sections& x) { find_section(x, 6)->body = Buf{0xFF}; }), "varint.truncated");

    // Zig-zag extremes in heads (R2): token 0 of a two-token document.
    r.invalid("zigzag-max-negative", {"R2", "R19", "L5"}, "head delta FF FF FF FF 0F = -2147483648",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[0].bytes = Buf{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}; }),
              "tokens.head-out-of-range");
    r.invalid("zigzag-max-positive", {"R2", "R19", "L5"}, "head delta FE FF FF FF 0F = 2147483647",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[0].bytes = Buf{0xFE, 0xFF, 0xFF, 0xFF, 0x0F}; }),
              "tokens.head-out-of-range");
    r.invalid("zigzag-minus-one-at-first", {"R2", "R19", "L5"}, "zig-zag 1 (delta -1) on token 0",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[0] = SV(-1); }), "tokens.head-out-of-range");
    {
        Container c = tiny();
        c.docs.edit(0, [](Doc& d) { d.tokens.head = {1, 1}; });
        r.valid("zigzag-plus-one", {"R2", "R19"}, "zig-zag 2 (delta +1): token 0's head is token 1", c);
        Container c2 = tiny();
        c2.docs.edit(0, [](Doc& d) { d.tokens.head = {0, 0}; });
        r.valid("zigzag-minus-one", {"R2", "R19"}, "zig-zag 1 (delta -1): token 1's head is token 0", c2);
    }
    {
        Container c = counted(200);
        c.docs.edit(0, [](Doc& d) {
            for (std::int32_t i = 0; i < 200; ++i) d.tokens.head[static_cast<std::size_t>(i)] = 199 - i;
        });
        r.valid("zigzag-wide-deltas", {"R2", "R19", "W1"}, "200 tokens whose heads mirror them: deltas from +199 to -199", c);
    }
}

}  // namespace ond::corpus::gen
