// Area "categories": section 6 (R23, R4, R15).
#include "common.hpp"

namespace ond::corpus::gen {

void add_categories_cases(Registry& r) {
    r.area("categories");
    const Container s = sample();  // categories history 0.75, science 0.25

    {
        Container c = counted(2);
        c.docs.edit(0, [](Doc& d) { d.has_cats = true; });
        r.valid("set-empty", {"R23", "W2"}, "section 6 with count 0: categories set, none given", c);
        r.valid("not-set", {"R23", "W2"}, "no section 6: cats is null", counted(2));
        Container one = empty_doc();
        one.docs.edit(0, [&](Doc& d) { add_cat(one, d, "spam", 1.0f); });
        r.valid("in-document-without-tokens", {"R23"}, "a category on a document with no tokens", one);
        Container edge = counted(1);
        edge.docs.edit(0, [&](Doc& d) {
            add_cat(edge, d, "zero", 0.0f);
            add_cat(edge, d, "one", 1.0f);
            add_cat(edge, d, "negzero", -0.0f);
            add_cat(edge, d, "tiny", raw::bits_float(1));
        });
        r.valid("score-edges", {"R23", "R4"}, "scores 0, 1, -0.0 and the smallest subnormal", edge);
        Container order = counted(1);
        order.docs.edit(0, [&](Doc& d) {
            add_cat(order, d, "zeta", 0.5f);
            add_cat(order, d, "alpha", 0.5f);
        });
        r.valid("order-kept", {"R23"}, "categories keep the order written, not sorted", order);
        Container shared = counted(2);
        shared.docs.edit(0, [&](Doc& d) {
            add_ent(shared, d, 0, 1, "ORG");
            add_cat(shared, d, "ORG", 0.125f);
        });
        r.valid("label-shared-with-entity", {"R23", "W3"}, "a category label that is also an entity label is stored once", shared);
    }
    r.valid("two", {"R23"}, "two categories", s);

    r.invalid("label-zero", {"R23", "L5"}, "a category with label index 0",
              edit(s, [](raw::Canon& k) { k.docs[0].cats->cats[0].label = V(0); }), "categories.label-missing");
    r.invalid("duplicate-index", {"R23"}, "two categories with the same label index",
              edit(s, [](raw::Canon& k) { k.docs[0].cats->cats[1].label = k.docs[0].cats->cats[0].label; }),
              "categories.duplicate-label");
    r.invalid("duplicate-value", {"R23", "R14"}, "two categories whose label indexes differ but hold equal strings",
              edit(s, [](raw::Canon& k) {
                  const std::uint32_t first = k.docs[0].cats->cats[0].label.v;
                  k.table.entries.push_back(k.table.entries[first - 1]);
                  k.docs[0].cats->cats[1].label = V(static_cast<std::uint32_t>(k.table.entries.size()));
              }),
              "categories.duplicate-label");
    r.invalid("duplicate-value-utf8-utf16", {"R23", "R5"}, "equal labels stored once as UTF-8 and once as UTF-16",
              edit(s, [](raw::Canon& k) {
                  k.table.entries.push_back(raw::utf16(u"history"));
                  k.docs[0].cats->cats[1].label = V(static_cast<std::uint32_t>(k.table.entries.size()));
              }),
              "categories.duplicate-label");
    auto label_at_end = [&](const char* stored) {
        return edit(s, [stored](raw::Canon& k) {
            k.table.entries.push_back(raw::utf8(stored));
            k.docs[0].cats->cats[1].label = V(static_cast<std::uint32_t>(k.table.entries.size()));
        });
    };
    r.impl("label-stored-empty", {"R15"}, "a category label naming a stored empty string", label_at_end(""),
           "categories.label-empty", with(s, [](Doc& d) { d.cats[1].label = 0; }),
           ReadAlike{label_at_end("~marker~"), "~marker~", ""});
    const std::pair<const char*, std::uint32_t> scores[] = {
        {"nan", 0x7FC00000u},      {"above-one", 0x3F800001u}, {"minus-half", 0xBF000000u},
        {"infinity", 0x7F800000u}, {"minus-infinity", 0xFF800000u}, {"negative-subnormal", 0x80000001u},
        // NaNs other than 0x7FC00000 (quiet and signalling, both signs): their bits must survive.
        {"nan-payload", 0x7FC00001u}, {"negative-nan", 0xFFC00000u}, {"signalling-nan", 0x7F800001u},
        {"negative-signalling-nan", 0xFF812345u},
    };
    for (const auto& [name, b] : scores) {
        r.impl(std::string("score-") + name, {"R4"}, std::string("a category score outside [0, 1] (") + name + ")",
               edit(s, [b = b](raw::Canon& k) { k.docs[0].cats->cats[0].score = b; }), "categories.score-out-of-range",
               with(s, [b = b](Doc& d) { d.cats[0].score = raw::bits_float(b); }));
    }
    r.invalid("count-one-past-bytes", {"R23"}, "count 3 over two written categories (10 bytes; 15 needed)",
              edit(s, [](raw::Canon& k) { k.docs[0].cats->count = V(3); }), "categories.count-exceeds-bytes");
    r.invalid("count-max", {"R23"}, "category count 0xFFFFFFFF",
              edit(s, [](raw::Canon& k) { k.docs[0].cats->count = V(0xFFFFFFFFu); }), "categories.count-exceeds-bytes");
    r.invalid("score-cut", {"R23"}, "a 3-byte label keeps the count check passing; the last score has only 2 bytes",
              [&] {
                  raw::Canon k = raw::canon(s);
                  k.docs[0].cats->cats[0].label.pad = 2;
                  raw::Sections x = raw::ondc_sections(k);
                  find_section(x, 6)->body.resize(find_section(x, 6)->body.size() - 2);
                  return raw::bytes_from(raw::spec_for(k), x);
              }(),
              "field.truncated");
}

}  // namespace ond::corpus::gen
