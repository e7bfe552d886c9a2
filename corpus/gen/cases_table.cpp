// Area "table": the string table, section 1 (R12, R13, R14, L3).
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
// Applies f to every string-index field of the picture.
void each_index(raw::Canon& k, const std::function<void(V&)>& f) {
    for (auto& d : k.docs) {
        if (d.tokens)
            for (auto& col : d.tokens->cols)
                for (V& v : col) f(v);
        if (d.ents)
            for (auto& e : d.ents->ents) f(e.label);
        if (d.cats)
            for (auto& c : d.cats->cats) f(c.label);
        if (d.groups)
            for (auto& g : d.groups->groups) {
                f(g.name);
                for (auto& s : g.spans) f(s.label);
            }
    }
}
}  // namespace

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_table_cases(Registry& r) {
    r.area("table");
    const Container t = tiny();
    const Container s = sample();
    const std::uint32_t tn = static_cast<std::uint32_t>(raw::canon(t).table.entries.size());
    const std::uint32_t sn = static_cast<std::uint32_t>(raw::canon(s).table.entries.size());

    r.valid("empty", {"R12", "W3"}, "tokens with no attributes: the table has count 0", counted(3));
    r.valid("first-use-order", {"R14", "W3"}, "strings numbered in order of first use: all norms, then lemmas, pos, ...", s);
    {
        Container c = ondc();
        Doc d = new_doc("a b");
        add_token(c, d, 0, 1, Attrs{"", "", "", "", "", "x"}, -1, Sentence::start);
        add_token(c, d, 2, 1, Attrs{"y", "", "", "", "", ""}, 0, Sentence::inside);
        c.docs.push_back(d);
        r.valid("column-order-beats-token-order", {"R14", "W3"},
                "token 1's norm 'y' comes before token 0's morph 'x': columns are written one after another", c);
    }
    {
        Container c = ondc();
        Doc d = new_doc("same same");
        add_token(c, d, 0, 4, Attrs{"same", "same", "same", "same", "same", "same"}, -1, Sentence::start);
        add_token(c, d, 5, 4, Attrs{"same", "same", "same", "same", "same", "same"}, 0, Sentence::inside);
        c.docs.push_back(d);
        r.valid("one-string-everywhere", {"R14", "W3"}, "one string used by all twelve attributes is stored once", c);
    }

    // Non-canonical tables (R14).
    r.noncanonical("duplicate-unused", {"R14", "L3"}, "the first string stored twice; the copy is not used",
                   edit(t, [](raw::Canon& k) { k.table.entries.push_back(k.table.entries[0]); }), t);
    r.noncanonical("duplicate-used", {"R14", "L3"}, "token 0's lemma points at a second copy of its norm string",
                   edit(t, [](raw::Canon& k) {
                       k.table.entries.push_back(k.table.entries[0]);
                       k.docs[0].tokens->cols[1][0] = V(static_cast<std::uint32_t>(k.table.entries.size()));
                   }),
                   t);
    r.noncanonical("unused-entry", {"R14", "L3"}, "an extra string 'unused' that no index names",
                   edit(t, [](raw::Canon& k) { k.table.entries.push_back(raw::utf8("unused")); }), t);
    r.noncanonical("stored-empty-unused", {"R14", "L3"}, "an extra stored empty string (h = 0) that no index names",
                   edit(t, [](raw::Canon& k) { k.table.entries.push_back(raw::utf8("")); }), t);
    r.noncanonical("stored-empty-first", {"R14", "L3"}, "a stored empty string at index 1, every other index shifted by one",
                   edit(t, [](raw::Canon& k) {
                       k.table.entries.insert(k.table.entries.begin(), raw::utf8(""));
                       each_index(k, [](V& v) {
                           if (v.v) ++v.v;
                       });
                   }),
                   t);
    r.noncanonical("reversed-order", {"R14", "L3"}, "the strings stored in reverse order of first use, indexes renumbered",
                   edit(s, [](raw::Canon& k) {
                       const auto n = static_cast<std::uint32_t>(k.table.entries.size());
                       std::reverse(k.table.entries.begin(), k.table.entries.end());
                       each_index(k, [n](V& v) {
                           if (v.v) v.v = n + 1 - v.v;
                       });
                   }),
                   s);
    r.noncanonical("count-equals-bytes", {"R12", "L3"}, "count = the bytes after it, all empty strings: the largest count that fits",
                   edit(counted(2), [](raw::Canon& k) {
                       for (int i = 0; i < 5; ++i) k.table.entries.push_back(raw::utf8(""));
                   }),
                   counted(2));

    // Count against bytes (R12).
    r.invalid("count-one-past-bytes", {"R12", "L3"}, "count = the bytes after it + 1 (even empty strings need a byte each)",
              edit(counted(2), [](raw::Canon& k) {
                  for (int i = 0; i < 5; ++i) k.table.entries.push_back(raw::utf8(""));
                  k.table.count = V(6);
              }),
              "table.count-out-of-range");
    r.invalid("count-max", {"R12", "L3"}, "a string count of 0xFFFFFFFF in a small table",
              edit(t, [](raw::Canon& k) { k.table.count = V(0xFFFFFFFFu); }), "table.count-out-of-range");
    r.invalid("count-one-more-than-stored", {"R12", "L3"}, "count one more than the strings stored (the last header is read past the end)",
              edit(t, [tn](raw::Canon& k) { k.table.count = V(tn + 1); }), "varint.truncated");
    r.invalid("count-one-less-than-stored", {"R12", "R8", "L3"}, "count one less than the strings stored: the table section has trailing bytes",
              edit(t, [tn](raw::Canon& k) { k.table.count = V(tn - 1); }), "section.trailing-bytes");
    r.invalid("count-fits-bytes-not-strings", {"R12", "R5", "L3"}, "count 2 with 2 bytes after it, but the first string is 'ab'",
              edit(counted(1), [](raw::Canon& k) {
                  k.table.count = V(2);
                  k.table.tail = Buf{0x04, 'a'};
              }),
              "string.truncated");

    // Indexes (R13): the last index is fine, one past it is not.
    r.valid("index-equals-count", {"R13", "L3"}, "an index equal to the string count names the last string", t);
    const auto& cols = token_column_names;
    for (std::size_t c = 0; c < token_column_count; ++c)
        r.invalid(std::string("index-count-plus-one-") + cols[c], {"R13", "L3"},
                  std::string("token 1's ") + cols[c] + " index is the string count + 1",
                  edit(t, [c, tn](raw::Canon& k) { k.docs[0].tokens->cols[c][1] = V(tn + 1); }), "table.index-out-of-range");
    r.invalid("index-count-plus-two", {"R13", "L3"}, "a norm index of the string count + 2",
              edit(t, [tn](raw::Canon& k) { k.docs[0].tokens->cols[0][0] = V(tn + 2); }), "table.index-out-of-range");
    r.invalid("index-into-empty-table", {"R13", "L3"}, "index 1 when the table is empty",
              edit(counted(2), [](raw::Canon& k) { k.docs[0].tokens->cols[3][0] = V(1); }), "table.index-out-of-range");
    r.invalid("entity-label-past-table", {"R13", "L3"}, "an entity label index of the string count + 1",
              edit(s, [sn](raw::Canon& k) { k.docs[0].ents->ents[2].label = V(sn + 1); }), "table.index-out-of-range");
    r.invalid("category-label-past-table", {"R13", "L3"}, "a category label index of the string count + 1",
              edit(s, [sn](raw::Canon& k) { k.docs[0].cats->cats[1].label = V(sn + 1); }), "table.index-out-of-range");
    r.invalid("group-name-past-table", {"R13", "L3"}, "a span-group name index of the string count + 1",
              edit(s, [sn](raw::Canon& k) { k.docs[0].groups->groups[1].name = V(sn + 1); }), "table.index-out-of-range");
    r.invalid("span-label-past-table", {"R13", "L3"}, "a span label index of the string count + 1",
              edit(s, [sn](raw::Canon& k) { k.docs[0].groups->groups[0].spans[1].label = V(sn + 1); }), "table.index-out-of-range");
}

}  // namespace ond::corpus::gen
