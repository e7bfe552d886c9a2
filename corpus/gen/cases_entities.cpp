// Area "entities": section 4 (R22, R15, R3, L5).
#include "common.hpp"

namespace ond::corpus::gen {

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_entities_cases(Registry& r) {
    r.area("entities");
    const Container s = sample();  // 10 tokens; entities [0,2) [3,5) [6,7)

    {
        Container c = counted(4);
        c.docs.edit(0, [](Doc& d) { d.has_ents = true; });
        r.valid("annotated-none", {"R22", "W2"}, "section 4 with count 0: entity annotation set, no entities", c);
        Container z = empty_doc();
        z.docs.edit(0, [](Doc& d) { d.has_ents = true; });
        r.impl("annotated-none-no-tokens", {"R22", "W2"},
               "section 4 with count 0 in a document without tokens (no token can carry an entity); if accepted, ents [] or null",
               edit(empty_doc(), [](raw::Canon& k) { k.docs[0].ents = raw::REnts{}; }), "entities.without-tokens", z,
               canonical(empty_doc()));
        r.valid("not-annotated", {"R22", "W2"}, "no section 4: entity annotation not set (ents is null)", counted(4));
    }
    r.valid("three", {"R22"}, "three entities with gaps 0, 1 and 1", s);
    {
        Container c = counted(4);
        c.docs.edit(0, [&](Doc& d) {
            add_ent(c, d, 0, 1, "A");
            add_ent(c, d, 1, 1, "B");
            add_ent(c, d, 2, 2, "A");
        });
        r.valid("adjacent", {"R22"}, "entities that touch (gap 0) do not overlap", c);
        Container w = counted(4);
        w.docs.edit(0, [&](Doc& d) { add_ent(w, d, 0, 4, "WHOLE", 0.5f); });
        r.valid("whole-document", {"R22", "L5"}, "one entity over all tokens: its end equals n", w);
        Container e = counted(4);
        e.docs.edit(0, [&](Doc& d) { add_ent(e, d, 3, 1, "LAST", 0.0f); });
        r.valid("last-token-confidence-zero", {"R22", "R3"}, "an entity on the last token with confidence 0", e);
        Container nz = counted(2);
        nz.docs.edit(0, [&](Doc& d) { add_ent(nz, d, 0, 1, "NEG", -0.0f); });
        r.valid("confidence-negative-zero", {"R22", "R3"}, "an entity confidence of -0.0 (bits 0x80000000 kept)", nz);
        Container sub = counted(2);
        sub.docs.edit(0, [&](Doc& d) { add_ent(sub, d, 1, 1, "SUB", raw::bits_float(1)); });
        r.valid("confidence-subnormal", {"R22", "R3"}, "an entity confidence of the smallest subnormal", sub);
    }

    r.invalid("end-one-past-n", {"R22", "L5"}, "the last entity's length reaches token n + 1",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[2].len = V(5); }), "entities.out-of-range");
    r.invalid("gap-one-past-n", {"R22", "L5"}, "the last entity's gap puts it at token n",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[2].gap = V(5); }), "entities.out-of-range");
    r.invalid("no-tokens", {"R22", "L5"}, "an entity [0, 1) in a document without tokens",
              edit(empty_doc(), [](raw::Canon& k) {
                  k.table.entries.push_back(raw::utf8("X"));
                  k.docs[0].ents = raw::REnts{};
                  k.docs[0].ents->ents.push_back(raw::REnt{0, 1, 1, 0x3F800000u});
              }),
              "entities.out-of-range");
    r.invalid("gap-max", {"R22", "L5"}, "an entity gap of 0xFFFFFFFF (computed without wrapping)",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[1].gap = V(0xFFFFFFFFu); }), "entities.out-of-range");
    r.invalid("length-max", {"R22", "L5"}, "an entity length of 0xFFFFFFFF after start 3",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[1].len = V(0xFFFFFFFFu); }), "entities.out-of-range");
    r.invalid("empty", {"R22", "L5"}, "an entity of length 0",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[0].len = V(0); }), "entities.empty");
    r.invalid("empty-at-end", {"R22", "L5"}, "an entity of length 0 at token n",
              edit(s, [](raw::Canon& k) {
                  k.docs[0].ents->ents[2].gap = V(3);
                  k.docs[0].ents->ents[2].len = V(0);
              }),
              "entities.empty");
    r.invalid("label-zero", {"R22", "R15", "L5"}, "an entity with label index 0",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->ents[1].label = V(0); }), "entities.label-missing");
    // The stored string `st` appended to the table, and entity `i`'s label pointing at it.
    auto label_at_end = [&](std::size_t i, raw::RStr st) {
        return edit(s, [i, st](raw::Canon& k) {
            k.table.entries.push_back(st);
            k.docs[0].ents->ents[i].label = V(static_cast<std::uint32_t>(k.table.entries.size()));
        });
    };
    r.impl("label-stored-empty", {"R15", "L5"}, "an entity label naming a stored empty string",
           label_at_end(1, raw::utf8("")), "entities.label-empty", with(s, [](Doc& d) { d.ents[1].label = 0; }),
           ReadAlike{label_at_end(1, raw::utf8("~marker~")), "~marker~", ""});
    r.impl("label-stored-empty-utf16", {"R15", "L5"}, "an entity label naming a stored empty UTF-16 string (h = 1)",
           label_at_end(0, raw::utf16(u"")), "entities.label-empty", with(s, [](Doc& d) { d.ents[0].label = 0; }),
           ReadAlike{label_at_end(0, raw::utf16(u"~marker~")), "~marker~", ""});

    const std::pair<const char*, std::uint32_t> bad[] = {
        {"nan", 0x7FC00000u}, {"above-one", 0x3F800001u}, {"minus-one", 0xBF800000u},
        {"infinity", 0x7F800000u}, {"negative-subnormal", 0x80000001u},
        {"signalling-nan", 0x7F800001u}, {"negative-nan-payload", 0xFF812345u},
    };
    for (const auto& [name, b] : bad)
        r.invalid(std::string("confidence-") + name, {"R22", "R3", "L5"}, std::string("an entity confidence outside [0, 1] (") + name + ")",
                  edit(s, [b = b](raw::Canon& k) { k.docs[0].ents->ents[1].conf = b; }), "entities.confidence-out-of-range");

    // Count against bytes: 7 bytes per entity at least.
    r.invalid("count-one-past-bytes", {"R22", "L5"}, "count 4 over 3 written entities (21 bytes; 28 needed)",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->count = V(4); }), "entities.count-exceeds-bytes");
    r.invalid("count-max", {"R22", "L5"}, "entity count 0xFFFFFFFF",
              edit(s, [](raw::Canon& k) { k.docs[0].ents->count = V(0xFFFFFFFFu); }), "entities.count-exceeds-bytes");
    r.invalid("count-fits-7-per-entity", {"R22", "L5"},
              "count 1 with exactly 7 bytes after it, but the label takes 2 bytes: the float is cut",
              edit_sections(s, [](raw::Sections& x) { find_section(x, 4)->body = {1, 0, 1, 0x81, 0x00, 0x00, 0x00, 0x80}; }),
              "field.truncated");
    r.invalid("float-cut", {"R22", "L5"}, "a 2-byte label keeps the count check passing; the last confidence has only 3 bytes",
              [&] {
                  raw::Canon k = raw::canon(s);
                  k.docs[0].ents->ents[0].label.pad = 1;
                  raw::Sections x = raw::ondc_sections(k);
                  find_section(x, 4)->body.pop_back();
                  return raw::bytes_from(raw::spec_for(k), x);
              }(),
              "field.truncated");
}

}  // namespace ond::corpus::gen
