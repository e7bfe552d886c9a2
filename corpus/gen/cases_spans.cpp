// Area "spans": section 7, span groups (R24, R15, R3).
#include "common.hpp"

namespace ond::corpus::gen {

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_spans_cases(Registry& r) {
    r.area("spans");
    const Container s = sample();  // groups "sc" (2 spans) and "quotes" (1 span), n = 10

    r.valid("two-groups", {"R24", "W2"}, "two groups, spans overlapping inside the first", s);
    {
        Container c = counted(3);
        c.docs.edit(0, [&](Doc& d) { add_group(c, d, "empty"); });
        r.valid("group-without-spans", {"R24"}, "a group with zero spans is kept", c);
        Container o = counted(5);
        o.docs.edit(0, [&](Doc& d) {
            SpanGroup& g = add_group(o, d, "ov");
            add_span(o, g, 0, 5, "ALL");
            add_span(o, g, 0, 5, "ALL");
            add_span(o, g, 4, 1, "LAST", 0.0f);
            add_span(o, g, 1, 2, "MID", -0.0f);
        });
        r.valid("overlap-duplicates-unsorted", {"R24"}, "identical and unsorted spans are kept as written", o);
        Container e = counted(5);
        e.docs.edit(0, [&](Doc& d) {
            SpanGroup& ge = add_group(e, d, "edge");
            add_span(e, ge, 4, 1, "END");
        });
        r.valid("span-ends-at-n", {"R24"}, "a span on the last token: start + length = n", e);
        Container m = counted(2);
        m.docs.edit(0, [&](Doc& d) {
            for (int i = 0; i < 5; ++i) {
                SpanGroup& gi = add_group(m, d, "g" + std::to_string(i));
                add_span(m, gi, static_cast<std::uint32_t>(i % 2), 1, "L" + std::to_string(i % 3), 0.125f * static_cast<float>(i));
            }
        });
        r.valid("five-groups", {"R24", "W3"}, "five groups; names and labels numbered in order of first use", m);
        Container nt = empty_doc();
        nt.docs.edit(0, [&](Doc& d) { add_group(nt, d, "none"); });
        r.valid("group-in-document-without-tokens", {"R24"}, "an empty group on a document with no tokens", nt);
        Container name_label = counted(2);
        name_label.docs.edit(0, [&](Doc& d) {
            SpanGroup& gn = add_group(name_label, d, "X");
            add_span(name_label, gn, 0, 1, "X");
        });
        r.valid("name-equals-label", {"R24", "W3"}, "a group name equal to a span label is stored once", name_label);
    }
    r.impl("zero-groups", {"R24", "W2"}, "section 7 with a group count of 0 (present only when there is a group); if accepted, no groups",
           edit_sections(counted(2), [](raw::Sections& x) { x.push_back(raw::RSection{7, {0}, {}}); }), "spans.no-groups",
           counted(2), canonical(counted(2)));

    r.invalid("name-zero", {"R24", "R15"}, "a group with name index 0",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[0].name = V(0); }), "spans.group-name-missing");
    // Group 1's name, or span 0 of group 1's label, pointing at `stored` appended to the table.
    auto name_at_end = [&](raw::RStr stored) {
        return edit(s, [stored](raw::Canon& k) {
            k.table.entries.push_back(stored);
            k.docs[0].groups->groups[1].name = V(static_cast<std::uint32_t>(k.table.entries.size()));
        });
    };
    auto label_at_end = [&](const char* stored) {
        return edit(s, [stored](raw::Canon& k) {
            k.table.entries.push_back(raw::utf8(stored));
            k.docs[0].groups->groups[1].spans[0].label = V(static_cast<std::uint32_t>(k.table.entries.size()));
        });
    };
    const std::string first_name(s.strings.view(s.docs[0].spans[0].name));
    r.impl("name-stored-empty", {"R15", "R24"}, "a group name naming a stored empty string", name_at_end(raw::utf8("")),
           "spans.group-name-empty", with(s, [](Doc& d) { d.spans[1].name = 0; }),
           ReadAlike{name_at_end(raw::utf8("~marker~")), "~marker~", ""});
    r.impl("duplicate-name-index", {"R24"}, "two groups with the same name index",
           edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[1].name = k.docs[0].groups->groups[0].name; }),
           "spans.duplicate-group-name", with(s, [](Doc& d) { d.spans[1].name = d.spans[0].name; }),
           ReadAlike{name_at_end(raw::utf8("~marker~")), "~marker~", first_name});
    r.impl("duplicate-name-value", {"R24", "R14"}, "two groups whose name indexes differ but hold equal strings",
           name_at_end(raw::utf8(first_name)), "spans.duplicate-group-name",
           with(s, [](Doc& d) { d.spans[1].name = d.spans[0].name; }),
           ReadAlike{name_at_end(raw::utf8("~marker~")), "~marker~", first_name});
    r.invalid("label-zero", {"R24", "R15"}, "a span with label index 0",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[0].spans[1].label = V(0); }), "spans.label-missing");
    r.impl("label-stored-empty", {"R15", "R24"}, "a span label naming a stored empty string", label_at_end(""),
           "spans.label-empty", with(s, [](Doc& d) { d.spans[1].spans[0].label = 0; }),
           ReadAlike{label_at_end("~marker~"), "~marker~", ""});
    r.invalid("empty", {"R24"}, "a span of length 0",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[0].spans[0].len = V(0); }), "spans.empty");
    r.invalid("end-one-past-n", {"R24"}, "a span [7, 11) in a 10-token document",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[1].spans[0].len = V(4); }), "spans.out-of-range");
    r.invalid("start-at-n", {"R24"}, "a span starting at token n",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[1].spans[0].start = V(10); }), "spans.out-of-range");
    r.invalid("start-max", {"R24"}, "a span start of 0xFFFFFFFF (start + length computed without wrapping)",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[0].spans[0].start = V(0xFFFFFFFFu); }), "spans.out-of-range");
    r.invalid("in-document-without-tokens", {"R24"}, "a span [0, 1) when n = 0",
              edit(empty_doc(), [](raw::Canon& k) {
                  k.table.entries.push_back(raw::utf8("g"));
                  raw::RGroups g;
                  g.groups.push_back(raw::RGroup{V(1), {}, {raw::RSpan{0, 1, 1, 0x3F800000u}}});
                  k.docs[0].groups = g;
              }),
              "spans.out-of-range");
    const std::pair<const char*, std::uint32_t> bad[] = {
        {"nan", 0x7FC00000u}, {"above-one", 0x3F800001u}, {"minus-infinity", 0xFF800000u}, {"minus-tiny", 0x80000001u},
        {"signalling-nan", 0x7F800001u}, {"negative-nan-payload", 0xFF812345u}};
    for (const auto& [name, b] : bad)
        r.invalid(std::string("confidence-") + name, {"R24", "R3", "L5"}, std::string("a span confidence outside [0, 1] (") + name + ")",
                  edit(s, [b = b](raw::Canon& k) { k.docs[0].groups->groups[0].spans[1].conf = b; }), "spans.confidence-out-of-range");
    r.invalid("group-count-past-bytes", {"R24"}, "a group count above the section's bytes / 2",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->count = V(100); }), "spans.group-count-exceeds-bytes");
    r.invalid("group-count-max", {"R24"}, "group count 0xFFFFFFFF",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->count = V(0xFFFFFFFFu); }), "spans.group-count-exceeds-bytes");
    r.invalid("span-count-past-bytes", {"R24"}, "the last group's span count is 2 with 7 bytes left",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[1].count = V(2); }), "spans.count-exceeds-bytes");
    r.invalid("span-count-max", {"R24"}, "a group's span count of 0xFFFFFFFF",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->groups[0].count = V(0xFFFFFFFFu); }), "spans.count-exceeds-bytes");
    r.invalid("group-count-one-more", {"R24"}, "a group count one more than the groups written",
              edit(s, [](raw::Canon& k) { k.docs[0].groups->count = V(3); }), "varint.truncated");
}

}  // namespace ond::corpus::gen
