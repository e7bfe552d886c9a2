// Area "section": framing, order, unknown and misplaced ids, required sections (R8-R10, L2).
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
raw::RSection unknown(std::uint8_t id, Buf body = {0xDE, 0xAD}) { return raw::RSection{id, std::move(body), {}}; }
void insert_before(raw::Sections& s, std::uint8_t before_id, raw::RSection x) {
    auto it = std::find_if(s.begin(), s.end(), [&](const raw::RSection& y) { return y.id == before_id; });
    s.insert(it, std::move(x));
}
void erase_id(raw::Sections& s, std::uint8_t id) {
    s.erase(std::remove_if(s.begin(), s.end(), [&](const raw::RSection& y) { return y.id == id; }), s.end());
}
}  // namespace

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_section_cases(Registry& r) {
    r.area("section");
    const Container t = tiny();
    const Container s = sample();

    // Unknown ids are skipped (R9): valid, non-canonical.
    r.noncanonical("unknown-8-at-end", {"R9", "R8", "L2"}, "an unknown section 8 after the last known one",
                   edit_sections(t, [](raw::Sections& x) { x.push_back(unknown(8)); }), t);
    r.noncanonical("unknown-255-at-end", {"R9", "R8", "L2"}, "an unknown section 255 (the highest id) at the end",
                   edit_sections(t, [](raw::Sections& x) { x.push_back(unknown(255)); }), t);
    r.noncanonical("unknown-0-first", {"R9", "R8", "L2"}, "an unknown section 0 before the string table",
                   edit_sections(t, [](raw::Sections& x) { x.insert(x.begin(), unknown(0)); }), t);
    r.noncanonical("unknown-empty", {"R9", "R8", "L2"}, "an unknown section 9 of length 0",
                   edit_sections(t, [](raw::Sections& x) { x.push_back(unknown(9, {})); }), t);
    r.noncanonical("unknown-several", {"R9", "R8", "L2"}, "unknown sections 8, 100 and 200 after section 7",
                   edit_sections(s, [](raw::Sections& x) {
                       x.push_back(unknown(8));
                       x.push_back(unknown(100, Buf(300, 0x55)));
                       x.push_back(unknown(200, {}));
                   }),
                   s);
    r.noncanonical("unknown-holding-a-document", {"R9", "L2"}, "an unknown section 42 whose bytes look like a whole ONDC",
                   edit_sections(t, [b = canonical(t)](raw::Sections& x) { x.push_back(unknown(42, b)); }), t);
    r.noncanonical("unknown-0-in-bin", {"R9", "L2"}, "an ONDB with an unknown section 0 before its table",
                   edit_sections(ondb(), [](raw::Sections& x) { x.insert(x.begin(), unknown(0)); }), ondb());

    // Order (R8).
    r.invalid("text-before-table", {"R8", "R10", "L2"}, "section 2 before section 1 (the reference reports the table missing where it is due)",
              edit_sections(t, [](raw::Sections& x) { std::swap(x[0], x[1]); }), "section.missing");
    r.invalid("tokens-before-text", {"R8", "R10", "L2"}, "section 3 before section 2 (the reference reports the text missing where it is due)",
              edit_sections(t, [](raw::Sections& x) { std::swap(x[1], x[2]); }), "section.missing");
    r.invalid("tokens-twice", {"R8", "L2"}, "section 3 twice in a row",
              edit_sections(t, [](raw::Sections& x) { x.push_back(x[2]); }), "section.out-of-order");
    r.invalid("entities-after-groups", {"R8", "L2"}, "section 4 repeated after section 7",
              edit_sections(s, [](raw::Sections& x) { x.push_back(*find_section(x, 4)); }), "section.out-of-order");
    r.invalid("categories-before-entities", {"R8", "L2"}, "section 6 before section 4",
              edit_sections(s, [](raw::Sections& x) { std::swap(x[3], x[4]); }), "section.out-of-order");
    r.invalid("repeated-text", {"R8", "L2"}, "section 2 twice",
              edit_sections(t, [](raw::Sections& x) { x.insert(x.begin() + 2, x[1]); }), "section.out-of-order");
    r.invalid("repeated-table", {"R8", "L2"}, "section 1 twice",
              edit_sections(t, [](raw::Sections& x) { x.insert(x.begin() + 1, x[0]); }), "section.out-of-order");
    r.invalid("repeated-unknown", {"R8", "R9", "L2"}, "unknown section 9 twice",
              edit_sections(t, [](raw::Sections& x) {
                  x.push_back(unknown(9));
                  x.push_back(unknown(9));
              }),
              "section.out-of-order");
    r.invalid("unknown-0-after-table", {"R8", "R9", "L2"}, "unknown section 0 after section 1",
              edit_sections(t, [](raw::Sections& x) { x.insert(x.begin() + 1, unknown(0)); }), "section.out-of-order");
    r.invalid("unknown-8-before-entities", {"R8", "R9", "L2"}, "unknown section 8 before section 4 (ids must increase)",
              edit_sections(s, [](raw::Sections& x) { insert_before(x, 4, unknown(8)); }), "section.out-of-order");
    r.invalid("unknown-9-before-8", {"R8", "R9", "L2"}, "unknown sections 9 then 8",
              edit_sections(t, [](raw::Sections& x) {
                  x.push_back(unknown(9));
                  x.push_back(unknown(8));
              }),
              "section.out-of-order");

    // Misplaced known ids (R9): implementation-defined, the reference rejects.
    r.impl("records-in-ondc", {"R9", "L2"}, "section 5 (bin records) inside an ONDC body; a reader that skips it as unknown gets the document",
           edit_sections(s, [](raw::Sections& x) { insert_before(x, 6, raw::RSection{5, Buf{0, 0, 0, 0}, {}}); }), "section.misplaced",
           s, canonical(s));
    r.impl("records-in-ondc-at-end", {"R9", "L2"}, "section 5 after section 3; a reader that skips it as unknown gets the document",
           edit_sections(t, [](raw::Sections& x) { x.push_back(raw::RSection{5, Buf{0, 0, 0, 0}, {}}); }), "section.misplaced",
           t, canonical(t));
    for (std::uint8_t id : std::initializer_list<std::uint8_t>{2, 3, 4})
        r.impl("section-" + std::to_string(id) + "-in-bin-body", {"R9", "L2"},
               "section " + std::to_string(id) + " between sections 1 and 5 of an ONDB body",
               edit_sections(ondb(), [id, t](raw::Sections& x) {
                   raw::Sections doc = raw::ondc_sections(raw::canon(t));
                   raw::RSection* sec = find_section(doc, id == 4 ? 3 : id);
                   x.insert(x.begin() + 1, raw::RSection{id, id == 4 ? Buf{0} : sec->body, {}});
               }),
               "section.misplaced", ondb(), canonical(ondb()));

    // Required sections (R10).
    r.invalid("missing-table", {"R10", "L2"}, "an ONDC body without section 1",
              edit_sections(t, [](raw::Sections& x) { erase_id(x, 1); }), "section.missing");
    r.invalid("missing-text", {"R10", "L2"}, "an ONDC body without section 2",
              edit_sections(t, [](raw::Sections& x) { erase_id(x, 2); }), "section.missing");
    r.invalid("missing-tokens", {"R10", "L2"}, "an ONDC body without section 3",
              edit_sections(t, [](raw::Sections& x) { erase_id(x, 3); }), "section.missing");
    r.invalid("missing-tokens-with-entities", {"R10", "L2"}, "sections 1, 2 and 4: the tokens are missing",
              edit_sections(s, [](raw::Sections& x) {
                  erase_id(x, 3);
                  erase_id(x, 6);
                  erase_id(x, 7);
              }),
              "section.missing");
    r.invalid("only-unknown", {"R10", "L2"}, "an ONDC body holding only an unknown section 8",
              edit_sections(t, [](raw::Sections& x) { x = {unknown(8)}; }), "section.missing");
    r.invalid("bin-missing-records", {"R10", "L2"}, "an ONDB body with only its string table",
              edit_sections(ondb(), [](raw::Sections& x) { erase_id(x, 5); }), "section.missing");
    r.invalid("bin-missing-table", {"R10", "L2"}, "an ONDB body with only section 5",
              edit_sections(ondb(), [](raw::Sections& x) { erase_id(x, 1); }), "section.missing");

    // Lengths (R8).
    r.invalid("length-one-past-body", {"R8", "L2"}, "the last section's length is one more than the body holds",
              edit_sections(t, [](raw::Sections& x) { x.back().length = static_cast<std::uint32_t>(x.back().body.size() + 1); }),
              "section.length-out-of-range");
    r.invalid("length-max", {"R8", "L2"}, "the text section declares 0xFFFFFFFF bytes",
              edit_sections(t, [](raw::Sections& x) { x[1].length = 0xFFFFFFFFu; }), "section.length-out-of-range");
    r.invalid("unknown-length-past-body", {"R8", "R9", "L2"}, "an unknown section whose length runs past the body",
              edit_sections(t, [](raw::Sections& x) {
                  x.push_back(unknown(8));
                  x.back().length = 3;
              }),
              "section.length-out-of-range");
    for (std::size_t left : {1u, 2u, 4u})
        r.invalid("frame-cut-" + std::to_string(left) + "-bytes", {"R8", "L2"},
                  "the body ends " + std::to_string(left) + " byte(s) into a section's 5-byte id and length",
                  edit_sections(t, [left](raw::Sections& x) {
                      Buf frame = {8, 0, 0, 0, 0};
                      frame.resize(left);
                      x.back().body.insert(x.back().body.end(), frame.begin(), frame.end());
                      x.back().length = static_cast<std::uint32_t>(x.back().body.size() - frame.size());
                  }),
                  "section.truncated");

    // Known sections must be consumed exactly (R8).
    r.invalid("table-trailing-byte", {"R8", "L2"}, "one byte after the last string of the table",
              edit(t, [](raw::Canon& k) { k.table.tail = {0}; }), "section.trailing-bytes");
    r.invalid("tokens-trailing-byte", {"R8", "L2"}, "one byte after the confidence mode",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->tail = {0}; }), "section.trailing-bytes");
    r.invalid("entities-trailing-byte", {"R8", "L2"}, "one byte after the last entity",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->tail = {0}; }), "section.trailing-bytes");
    r.invalid("categories-trailing-byte", {"R8", "L2"}, "one byte after the last category",
              edit(s, [](raw::Canon& k) { k.docs[0].cats->tail = {0}; }), "section.trailing-bytes");
    r.invalid("groups-trailing-byte", {"R8", "L2"}, "one byte after the last span group",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->tail = {0}; }), "section.trailing-bytes");
    r.invalid("tokens-trailing-float", {"R8", "R21", "L2"}, "mode 0 followed by a float, as if mode 1",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->tail = {0, 0, 0x80, 0x3F}; }), "section.trailing-bytes");

    // Sections too short for their own fields.
    r.invalid("text-length-0", {"R8", "R16", "L2"}, "a text section of length 0 (no encoding byte)",
              edit_sections(empty_doc(), [](raw::Sections& x) { x[1].body.clear(); }), "field.truncated");
    r.invalid("tokens-length-0", {"R8", "L2"}, "a tokens section of length 0 (no count)",
              edit_sections(empty_doc(), [](raw::Sections& x) { x[2].body.clear(); }), "varint.truncated");
    r.invalid("table-length-0", {"R8", "L2"}, "a string table section of length 0 (no count)",
              edit_sections(empty_doc(), [](raw::Sections& x) { x[0].body.clear(); }), "varint.truncated");
    r.invalid("entities-length-0", {"R8", "L2"}, "an entities section of length 0",
              edit_sections(empty_doc(), [](raw::Sections& x) { x.push_back(raw::RSection{4, {}, {}}); }), "varint.truncated");
    r.invalid("categories-length-0", {"R8", "L2"}, "a categories section of length 0",
              edit_sections(empty_doc(), [](raw::Sections& x) { x.push_back(raw::RSection{6, {}, {}}); }), "varint.truncated");
    r.invalid("groups-length-0", {"R8", "L2"}, "a span-groups section of length 0",
              edit_sections(empty_doc(), [](raw::Sections& x) { x.push_back(raw::RSection{7, {}, {}}); }), "varint.truncated");
    r.invalid("tokens-missing-mode", {"R8", "R21", "L2"}, "a tokens section with n = 0 and no confidence-mode byte",
              edit_sections(empty_doc(), [](raw::Sections& x) { x[2].body = {0}; }), "field.truncated");
    r.invalid("bin-records-length-3", {"R8", "R11", "L2"}, "section 5 of 3 bytes: too short for its u32 count",
              edit_sections(ondb(), [](raw::Sections& x) { x[1].body = {0, 0, 0}; }), "field.truncated");
    r.valid("optional-sections-absent", {"R10", "W2"}, "sections 1, 2 and 3 only: entities, categories, spans are absent", t);
    r.valid("all-sections", {"R10", "W2"}, "sections 1, 2, 3, 4, 6 and 7", s);
}

}  // namespace ond::corpus::gen
