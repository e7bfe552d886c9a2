// Area "bin": ONDB containers, section 5 and its records (R9-R11, R27, W3).
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
Container bin3(bool crc = false) {
    Container b = ondb(crc);
    add_tokenized(b, "First record here.", Annot{});
    Doc d2 = new_doc("Second record, with an entity: Paris.");
    tokenize(b, d2, Annot{true, true, true, true, 3});
    add_ent(b, d2, 5, 1, "GPE", 0.5f);
    b.docs.push_back(d2);
    add_tokenized(b, "Third.", Annot{});
    return b;
}
// `c` with document i edited (a function that may add strings to c's store).
Container with_doc(Container c, std::size_t i, const std::function<void(Container&, Doc&)>& f) {
    Doc d = c.docs.to_doc(i);
    f(c, d);
    c.docs.replace(i, d);
    return c;
}
}  // namespace

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_bin_cases(Registry& r) {
    r.area("bin");
    const Container b = bin3();

    r.valid("three-records", {"R11", "W3"}, "three records sharing one table, numbered across records in order", b);
    r.valid("three-records-crc", {"R11", "R7", "W5"}, "the same bin with a CRC-32 trailer", bin3(true));
    {
        Container one = ondb();
        add_tokenized(one, "Only one.", Annot{});
        r.valid("one-record", {"R11"}, "a bin of one record", one);
        Container empties = ondb();
        add_doc(empties, "");
        add_doc(empties, "");
        r.valid("empty-records", {"R11", "R10"}, "two records with empty text and no tokens", empties);
        Container ann = ondb();
        Doc d = new_doc("a b");
        tokenize(ann, d, Annot{false, false, false, false, 1});
        d.has_ents = true;
        ann.docs.push_back(d);
        add_doc(ann, "c");
        r.valid("annotation-per-record", {"R11", "W2"}, "record 0 has section 4 with no entities, record 1 has none", ann);
        Container shared = ondb();
        for (int i = 0; i < 4; ++i) {
            Doc di = new_doc("Berlin Berlin");
            tokenize(shared, di, Annot{true, false, true, false, 1});
            add_ent(shared, di, static_cast<std::uint32_t>(i % 2), 1, "GPE");
            shared.docs.push_back(di);
        }
        r.valid("shared-strings", {"R11", "W3"}, "four records using the same strings: each stored once", shared);
        Container lone = ondb();
        add_tokenized(lone, wtf8(u"x \xD800 y"), Annot{});
        add_tokenized(lone, "plain", Annot{});
        r.valid("utf16-record-text", {"R11", "R16", "W1"}, "a record whose text has a lone surrogate (encoding 1)", lone);
    }

    // Non-canonical bins.
    r.noncanonical("unknown-section-in-record", {"R9", "R11"}, "record 1 ends with an unknown section 9",
                   edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[1].sections.push_back(raw::RSection{9, {1, 2}, {}}); }),
                   b);
    r.noncanonical("unknown-0-in-record", {"R9", "R11"}, "record 0 starts with an unknown section 0",
                   edit_records(b, [](raw::Canon&, raw::RRecords& rr) {
                       auto& s = rr.records[0].sections;
                       s.insert(s.begin(), raw::RSection{0, {}, {}});
                   }),
                   b);
    r.noncanonical("table-unused-entry", {"R14", "R11"}, "the shared table holds a string no record uses",
                   edit_records(b, [](raw::Canon& k, raw::RRecords&) { k.table.entries.push_back(raw::utf8("spare")); }), b);
    r.noncanonical("overlong-in-record", {"R1", "R11"}, "record 2's token count written in 2 bytes",
                   edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                       k.docs[2].tokens->n = V(static_cast<std::uint32_t>(k.docs[2].tokens->gap.size()));
                       k.docs[2].tokens->n->pad = 1;
                       rr.records[2].sections = raw::doc_sections(k.docs[2]);
                   }),
                   b);

    // Count (R11).
    r.invalid("count-one-more", {"R11"}, "count 4 over three records",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.count = 4; }), "field.truncated");
    r.invalid("count-one-less", {"R11"}, "count 2 over three records: the third is left over",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.count = 2; }), "bin.trailing-bytes");
    r.invalid("count-past-bytes", {"R11"}, "a count above (section bytes - 4) / 4, refused before any record is read",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.count = 1000; }), "bin.count-exceeds-bytes");
    r.invalid("count-max", {"R11"}, "record count 0xFFFFFFFF",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.count = 0xFFFFFFFFu; }), "bin.count-exceeds-bytes");
    r.invalid("count-with-no-bytes", {"R11"}, "count 1 in a section 5 of exactly 4 bytes",
              edit_records(ondb(), [](raw::Canon&, raw::RRecords& rr) { rr.count = 1; }), "bin.count-exceeds-bytes");
    {
        Container e = ondb();
        add_doc(e, "");
        r.valid("count-equals-quarter", {"R11"}, "one empty record: the record is larger than the 4 bytes the count check needs", e);
    }

    // Record lengths (R11).
    r.invalid("record-length-one-past", {"R11"}, "the last record's length is one byte more than section 5 holds",
              edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                  rr.records[2].length = static_cast<std::uint32_t>(raw::frame(raw::doc_sections(k.docs[2])).size() + 1);
              }),
              "bin.record-length-out-of-range");
    r.invalid("record-length-max", {"R11"}, "record 0's length is 0xFFFFFFFF",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[0].length = 0xFFFFFFFFu; }),
              "bin.record-length-out-of-range");
    r.invalid("record-length-one-short", {"R11", "R8"}, "record 0's length is one byte short of its sections",
              edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                  rr.records[0].length = static_cast<std::uint32_t>(raw::frame(raw::doc_sections(k.docs[0])).size() - 1);
              }),
              "section.length-out-of-range");
    r.invalid("record-length-zero", {"R11", "R10"}, "an empty record (length 0): its sections 2 and 3 are missing",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[1] = raw::RRecord{}; }), "section.missing");
    r.invalid("records-short-of-section", {"R11"}, "two bytes after the last record inside section 5",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.tail = {0, 0}; }), "bin.trailing-bytes");
    r.invalid("record-length-cut", {"R11"}, "section 5 ends two bytes into a record's u32 length",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) {
                  rr.count = 4;
                  rr.tail = {1, 0};
              }),
              "field.truncated");
    r.invalid("section-after-records", {"R11"}, "section 6 after section 5 in the ONDB body",
              edit_sections(b, [](raw::Sections& x) { x.push_back(raw::RSection{6, {0}, {}}); }), "bin.section-after-records");
    r.invalid("unknown-after-records", {"R11", "R9"}, "an unknown section 9 after section 5 (nothing may follow it)",
              edit_sections(b, [](raw::Sections& x) { x.push_back(raw::RSection{9, {}, {}}); }), "bin.section-after-records");
    r.invalid("records-section-short", {"R11", "R8"}, "section 5's length is one byte short of its records",
              edit_sections(b, [](raw::Sections& x) { x[1].length = static_cast<std::uint32_t>(x[1].body.size() - 1); }),
              "bin.section-after-records");

    // Sections inside records (R9, R10). Sections 6 and 7 hold a category and a group named by a
    // string added to the table: a reader that accepts may skip them (the reference's relaxed
    // reading) or read them as record 1's categories and span groups; both are listed.
    for (std::uint8_t id : std::initializer_list<std::uint8_t>{1, 5, 6, 7}) {
        const bool extra = id == 6 || id == 7;
        r.impl("section-" + std::to_string(id) + "-in-record", {"R9"},
               "record 1 holds a section " + std::to_string(id) + ", which belongs elsewhere" +
                   (extra ? std::string("; if accepted, skipped or read as the record's own") : std::string()),
               edit_records(b, [id](raw::Canon& k, raw::RRecords& rr) {
                   auto& s = rr.records[1].sections;
                   raw::Writer w;
                   if (id == 6 || id == 7) {
                       k.table.entries.push_back(raw::utf8("extra"));
                       const auto name = static_cast<std::uint32_t>(k.table.entries.size());
                       if (id == 6) w.varint(1).varint(name).f32(0.25f);
                       else w.varint(1).varint(name).varint(0);
                   } else {
                       w.bytes(id == 5 ? Buf{0, 0, 0, 0} : Buf{0});
                   }
                   raw::RSection x{id, w.out, {}};
                   if (id == 1)
                       s.insert(s.begin(), x);
                   else
                       s.push_back(x);
               }),
               "section.misplaced", b, canonical(b));
        if (id == 6)
            r.also_accept(with_doc(b, 1, [](Container& c, Doc& d) { add_cat(c, d, "extra", 0.25f); }));
        if (id == 7)
            r.also_accept(with_doc(b, 1, [](Container& c, Doc& d) { add_group(c, d, "extra"); }));
    }
    // R22 in a record: a section 4 in a record without tokens.
    {
        Container empties = ondb();
        add_doc(empties, "");
        add_doc(empties, "x");
        Container annotated = with_doc(empties, 0, [](Container&, Doc& d) { d.has_ents = true; });
        r.impl("entities-in-record-without-tokens", {"R22", "R9"},
               "record 0 has no tokens and a section 4 with count 0; if accepted, ents [] or null",
               edit_records(empties, [](raw::Canon&, raw::RRecords& rr) { rr.records[0].sections.push_back(raw::RSection{4, {0}, {}}); }),
               "entities.without-tokens", annotated, canonical(empties));
    }
    r.invalid("record-missing-text", {"R10"}, "record 0 without section 2",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[0].sections.erase(rr.records[0].sections.begin()); }),
              "section.missing");
    r.invalid("record-missing-tokens", {"R10"}, "record 2 without section 3",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[2].sections.pop_back(); }), "section.missing");
    r.invalid("record-tokens-before-text", {"R8", "R10"}, "record 0 with sections 3 then 2 (the reference reports the text missing)",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { std::swap(rr.records[0].sections[0], rr.records[0].sections[1]); }),
              "section.missing");
    r.invalid("record-tokens-twice", {"R8"}, "record 2 with section 3 twice",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[2].sections.push_back(rr.records[2].sections[1]); }),
              "section.out-of-order");
    r.invalid("record-trailing-bytes", {"R8", "R11"}, "record 1 has a byte after its sections (too short for a section frame)",
              edit_records(b, [](raw::Canon&, raw::RRecords& rr) { rr.records[1].tail = {7}; }), "section.truncated");

    // Faults inside records carry the codes of their sections.
    r.invalid("record-head-out-of-range", {"R19", "R27"}, "record 2's only token has head 1",
              edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                  k.docs[2].tokens->head[0] = SV(1);
                  rr.records[2].sections = raw::doc_sections(k.docs[2]);
              }),
              "tokens.head-out-of-range");
    r.invalid("record-index-past-table", {"R13", "R27"}, "record 1's entity label is beyond the shared table",
              edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                  k.docs[1].ents->ents[0].label = V(static_cast<std::uint32_t>(k.table.entries.size() + 1));
                  rr.records[1].sections = raw::doc_sections(k.docs[1]);
              }),
              "table.index-out-of-range");
    r.invalid("record-entity-out-of-range", {"R22", "R27"}, "record 1's entity ends past its last token",
              edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                  k.docs[1].ents->ents[0].len = V(10);
                  rr.records[1].sections = raw::doc_sections(k.docs[1]);
              }),
              "entities.out-of-range");
    r.invalid("record-bad-text", {"R16", "R27"}, "record 0's text encoding byte is 2",
              edit_records(b, [](raw::Canon& k, raw::RRecords& rr) {
                  k.docs[0].text->enc = 2;
                  rr.records[0].sections = raw::doc_sections(k.docs[0]);
              }),
              "text.bad-encoding");
    r.invalid("crc-after-records", {"R7", "R27"}, "every record is fine; the trailer is wrong (found after the last record)",
              edit_spec(bin3(true), [](raw::ContainerSpec& s) { s.crc_value = 0; }), "crc.mismatch");
}

}  // namespace ond::corpus::gen
