// Area "encode": what a writer writes (W1-W5) and what it must refuse (content.* codes).
#include "common.hpp"

namespace ond::corpus::gen {

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_encode_cases(Registry& r) {
    r.area("encode");

    // W1: minimal varints, UTF-8 whenever well-formed.
    r.encode("minimal-varints-128-tokens", {"W1", "R1"}, "a 128-token document: every varint in its shortest form", counted(128));
    {
        Container c = ondc();
        std::string text(300, ' ');
        text += "far";
        Doc d = new_doc(text);
        add_token(c, d, 300, 3, Attrs{"far"}, -1, Sentence::start);
        c.docs.push_back(d);
        r.encode("minimal-varint-gap-300", {"W1", "R1"}, "a gap of 300 is written as AC 02", c);
    }
    r.encode("utf8-strings", {"W1", "R5"}, "non-ASCII strings are written as UTF-8", plain("Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln."));
    r.encode("utf16-lone-surrogate-string", {"W1", "R5"}, "a string with a lone surrogate is written as UTF-16",
             [] {
                 Container c = ondc();
                 Doc d = new_doc("x");
                 add_token(c, d, 0, 1, Attrs{wtf8(u"\xD800")}, -1, Sentence::start);
                 c.docs.push_back(d);
                 return c;
             }());
    r.encode("utf16-text", {"W1", "R16"}, "a text with a lone surrogate is written with encoding 1", plain(wtf8(u"a\xDC00 b")));
    r.encode("non-bmp-text", {"W1", "R16"}, "a text with non-BMP characters stays UTF-8", plain("\xF0\x9F\x8E\x89 party \xF0\x9F\x8E\x89"));

    // W2: which sections.
    r.encode("sections-1-2-3", {"W2"}, "no entity annotation, no categories, no groups: sections 1, 2, 3 only", tiny());
    {
        Container c = tiny();
        c.docs.edit(0, [](Doc& d) { d.has_ents = true; });
        r.encode("section-4-empty", {"W2", "R22"}, "entity annotation set with no entities: section 4 with count 0", c);
        Container none = empty_doc();
        none.docs.edit(0, [](Doc& d) { d.has_ents = true; });
        r.encode("no-section-4-without-tokens", {"W2", "R22"},
                 "ents [] in a document without tokens: no section 4 (no token can carry an entity tag)", none);
        Container k = tiny();
        k.docs.edit(0, [](Doc& d) { d.has_cats = true; });
        r.encode("section-6-empty", {"W2", "R23"}, "categories set but empty: section 6 with count 0", k);
        Container g = tiny();
        g.docs.edit(0, [&](Doc& d) { add_group(g, d, "g"); });
        r.encode("section-7-empty-group", {"W2", "R24"}, "one group with no spans: section 7 is written", g);
    }
    r.encode("all-sections", {"W2", "W3"}, "a document with sections 1, 2, 3, 4, 6 and 7", sample());
    {
        Container b = ondb();
        Doc d = new_doc("x y");
        tokenize(b, d, Annot{});
        add_ent(b, d, 1, 1, "E");
        b.docs.push_back(d);
        add_doc(b, "");
        r.encode("bin-records", {"W2", "R11"}, "a bin: sections 1 and 5; records hold 2, 3 and 4 when annotated", b);
    }
    r.encode("empty-bin", {"W2", "R11"}, "a bin with no documents", ondb());

    // W3: the string table.
    {
        Container c = ondc();
        Doc d = new_doc("b a");
        add_token(c, d, 0, 1, Attrs{"b", "a", "", "", "", ""}, -1, Sentence::start);
        add_token(c, d, 2, 1, Attrs{"a", "b", "", "", "", ""}, 0, Sentence::inside);
        c.docs.push_back(d);
        r.encode("table-first-use", {"W3"}, "strings numbered by first use in the bytes: norm column first", c);
    }
    {
        Container c = ondc();
        Doc d = new_doc("a b");
        add_token(c, d, 0, 1, Attrs{"a", "", "", "", "", ""}, -1, Sentence::start);
        add_token(c, d, 2, 1, Attrs{"b", "", "", "", "", ""}, 0, Sentence::inside);
        c.docs.push_back(d);
        c.strings.intern("never-used");
        r.encode("table-only-used", {"W3"}, "a string in the content's store that nothing uses is not written", c);
    }
    {
        Container c = counted(2);
        c.docs.edit(0, [&](Doc& d) {
            add_ent(c, d, 0, 1, "X");
            add_cat(c, d, "X", 0.5f);
            SpanGroup& g = add_group(c, d, "X");
            add_span(c, g, 1, 1, "X");
        });
        r.encode("table-once", {"W3"}, "one string used as entity label, category, group name and span label is stored once", c);
    }
    {
        Container b = ondb();
        Doc d1 = new_doc("z");
        add_token(b, d1, 0, 1, Attrs{"z"}, -1, Sentence::start);
        b.docs.push_back(d1);
        Doc d2 = new_doc("y z");
        add_token(b, d2, 0, 1, Attrs{"y"}, -1, Sentence::start);
        add_token(b, d2, 2, 1, Attrs{"z"}, 0, Sentence::inside);
        b.docs.push_back(d2);
        r.encode("bin-table-across-records", {"W3", "R11"}, "a bin numbers strings by first use across its records in order", b);
    }

    // W4: confidence mode.
    r.encode("mode-0-all-one", {"W4", "R21"}, "every token confidence exactly 1.0: mode 0", tiny());
    {
        Container c = tiny();
        c.docs.edit(0, [](Doc& d) { d.tokens.conf[1] = 0.5f; });
        r.encode("mode-1-one-differs", {"W4", "R21"}, "one token below 1.0: mode 1 with both floats", c);
        Container z = tiny();
        z.docs.edit(0, [](Doc& d) { d.tokens.conf[0] = -0.0f; });
        r.encode("mode-1-negative-zero", {"W4", "R3"}, "a confidence of -0.0 is not 1.0: mode 1, sign bit kept", z);
        Container nearly = tiny();
        nearly.docs.edit(0, [](Doc& d) { d.tokens.conf[0] = raw::bits_float(0x3F7FFFFFu); });
        r.encode("mode-1-just-below-one", {"W4", "R3"}, "0.99999994 (0x3F7FFFFF) is not 1.0: mode 1", nearly);
    }
    r.encode("mode-0-no-tokens", {"W4", "R21"}, "no tokens: mode 0", empty_doc());

    // W5: padding and flags.
    for (std::uint32_t n : {1u, 2u, 3u, 4u}) {
        Container c = counted(n);
        c.docs.edit(0, [n](Doc& d) {
            for (std::uint32_t i = 0; i < n; ++i) d.tokens.sent[i] = Sentence::inside;
        });
        r.encode("padding-zero-n" + std::to_string(n), {"W5", "R20"},
                 std::to_string(n) + (n == 1 ? " token" : " tokens") + ", all 'inside': padding bits of the last byte are 0", c);
    }
    r.encode("crc-asked", {"W5", "R7"}, "a trailer when the content asks for one: flags = 1", tiny(true));
    r.encode("crc-not-asked", {"W5", "R7"}, "no trailer otherwise: flags = 0", tiny(false));
    r.encode("bin-crc", {"W5", "R7"}, "a bin with a trailer", [] {
        Container b = ondb(true);
        add_tokenized(b, "Checked bin.", Annot{});
        return b;
    }());

    // Refusals: content whose canonical bytes a strict reader would reject.
    auto refuse_tiny = [&](const char* name, Rules rules, const char* desc, const char* code,
                           const std::function<void(Doc&)>& f) {
        Container c = tiny();
        c.docs.edit(0, f);
        r.refuse(name, std::move(rules), desc, c, code);
    };
    refuse_tiny("token-overlaps-previous", {"R18"}, "token 1 starts before token 0 ends", "content.token-order",
                [](Doc& d) { d.tokens.start[1] = 1; });
    refuse_tiny("token-before-previous", {"R18"}, "token 1 starts before token 0", "content.token-order", [](Doc& d) {
        d.tokens.start[0] = 3;
        d.tokens.length[0] = 2;
        d.tokens.start[1] = 0;
        d.tokens.length[1] = 2;
    });
    refuse_tiny("token-empty", {"R18", "L5"}, "a token of length 0", "content.token-empty",
                [](Doc& d) { d.tokens.length[0] = 0; });
    refuse_tiny("token-past-text", {"R18", "L5"}, "the last token ends one unit past the text", "content.token-out-of-text",
                [](Doc& d) { d.tokens.length[1] = 7; });
    refuse_tiny("head-minus-one", {"R19", "L5"}, "a head of -1", "content.head-out-of-range",
                [](Doc& d) { d.tokens.head[0] = -1; });
    refuse_tiny("head-n", {"R19", "L5"}, "a head equal to the token count", "content.head-out-of-range",
                [](Doc& d) { d.tokens.head[1] = 2; });
    refuse_tiny("sentence-3", {"R20", "L5"}, "a sentence value of 3", "content.bad-sentence-value",
                [](Doc& d) { d.tokens.sent[1] = static_cast<Sentence>(3); });
    refuse_tiny("token-confidence-above-one", {"R3", "L5"}, "a token confidence of 1.0000001", "content.confidence-out-of-range",
                [](Doc& d) { d.tokens.conf[0] = raw::bits_float(0x3F800001u); });
    refuse_tiny("token-confidence-negative", {"R3", "L5"}, "a token confidence of -0.5", "content.confidence-out-of-range",
                [](Doc& d) { d.tokens.conf[1] = -0.5f; });

    auto refuse_sample = [&](const char* name, Rules rules, const char* desc, const char* code,
                             const std::function<void(Doc&)>& f) {
        Container c = sample();
        c.docs.edit(0, f);
        r.refuse(name, std::move(rules), desc, c, code);
    };
    refuse_sample("entities-overlap", {"R22", "L5"}, "entity 1 starts inside entity 0", "content.entity-order",
                  [](Doc& d) { d.ents[1].start = 1; });
    refuse_sample("entities-unordered", {"R22", "L5"}, "entities out of text order", "content.entity-order",
                  [](Doc& d) { std::swap(d.ents[0], d.ents[2]); });
    refuse_sample("entities-same-start", {"R22", "L5"}, "two entities at the same token", "content.entity-order",
                  [](Doc& d) { d.ents[1].start = 0; });
    refuse_sample("entity-empty", {"R22", "L5"}, "an entity of length 0", "content.entity-empty",
                  [](Doc& d) { d.ents[2].length = 0; });
    refuse_sample("entity-past-last-token", {"R22", "L5"}, "an entity [6, 11) in a 10-token document", "content.entity-out-of-range",
                  [](Doc& d) { d.ents[2].length = 5; });
    refuse_sample("entity-label-empty", {"R15", "L5"}, "an entity with an empty label", "content.label-empty",
                  [](Doc& d) { d.ents[0].label = 0; });
    refuse_sample("entity-confidence-above-one", {"R3", "L5"}, "an entity confidence of 2", "content.confidence-out-of-range",
                  [](Doc& d) { d.ents[0].conf = 2.0f; });
    refuse_sample("category-label-empty", {"R15", "R23"}, "a category with an empty label", "content.label-empty",
                  [](Doc& d) { d.cats[0].label = 0; });
    refuse_sample("category-duplicate", {"R23"}, "two categories labelled 'history'", "content.duplicate-category",
                  [](Doc& d) { d.cats[1].label = d.cats[0].label; });
    // Refused by the reference's choice only (R4, R24): a writer may write these as they are.
    auto impl_sample = [&](const char* name, Rules rules, const char* desc, const char* code,
                           const std::function<void(Doc&)>& f) {
        Container c = sample();
        c.docs.edit(0, f);
        r.encode_impl(name, std::move(rules), desc, c, code);
    };
    impl_sample("category-score-above-one", {"R4"}, "a category score of 1.5", "content.score-out-of-range",
                [](Doc& d) { d.cats[0].score = 1.5f; });
    impl_sample("category-score-negative", {"R4"}, "a category score of -0.25", "content.score-out-of-range",
                [](Doc& d) { d.cats[1].score = -0.25f; });
    impl_sample("group-duplicate", {"R24"}, "two groups named 'sc'", "content.duplicate-group",
                [](Doc& d) { d.spans[1].name = d.spans[0].name; });
    refuse_sample("group-name-empty", {"R15", "R24"}, "a span group with an empty name", "content.label-empty",
                  [](Doc& d) { d.spans[1].name = 0; });
    refuse_sample("span-label-empty", {"R15", "R24"}, "a span with an empty label", "content.label-empty",
                  [](Doc& d) { d.spans[0].spans[0].label = 0; });
    refuse_sample("span-empty", {"R24"}, "a span of length 0", "content.span-empty",
                  [](Doc& d) { d.spans[0].spans[1].length = 0; });
    refuse_sample("span-past-last-token", {"R24"}, "a span [7, 11) in a 10-token document", "content.span-out-of-range",
                  [](Doc& d) { d.spans[1].spans[0].length = 4; });
    refuse_sample("span-confidence-negative", {"R3", "R24"}, "a span confidence of -1", "content.confidence-out-of-range",
                  [](Doc& d) { d.spans[0].spans[0].conf = -1.0f; });
    {
        Container b = ondb();
        Doc d = new_doc("x");
        tokenize(b, d, Annot{});
        add_cat(b, d, "c", 0.5f);
        b.docs.push_back(d);
        r.refuse("bin-with-categories", {"R9"}, "a bin document with categories (records cannot hold section 6)", b,
                 "content.bin-extras");
        Container g = ondb();
        Doc dg = new_doc("x");
        tokenize(g, dg, Annot{});
        add_group(g, dg, "g");
        g.docs.push_back(dg);
        r.refuse("bin-with-span-groups", {"R9"}, "a bin document with a span group (records cannot hold section 7)", g,
                 "content.bin-extras");
    }
}

}  // namespace ond::corpus::gen
