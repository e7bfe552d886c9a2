// The clarifications of the rulings (R28) and the points of the revised rulings that cut across
// areas: several faults, encoders and unordered entities, sentence bits without grammar, a
// leading U+FEFF, JSON floats past the binary32 range and as f32bits, the CRC's byte order, and
// tables that are odd in every allowed way at once. Each case goes in the area it belongs to.
#include <stdexcept>

#include "common.hpp"
#include "ond/content_json.hpp"

namespace ond::corpus::gen {

namespace {

// Canonical bytes of `c` changed by `f`, with the trailer forced to `crc_value`.
Buf edit_with_crc(const Container& c, const std::function<void(raw::Canon&)>& f, std::uint32_t crc_value) {
    raw::Canon k = raw::canon(c);
    f(k);
    raw::ContainerSpec spec = raw::spec_for(k);
    spec.crc_value = crc_value;
    return raw::bytes_from(spec, k.format == Format::ondc ? raw::ondc_sections(k)
                                                          : raw::ondb_sections(k, raw::ondb_records(k)));
}

// The content JSON of `c` with its one occurrence of `from` spelled `to`.
std::string respell(const Container& c, const std::string& from, const std::string& to) {
    std::string j = json::to_json(c);
    const auto at = j.find(from);
    if (at == std::string::npos || j.find(from, at + 1) != std::string::npos)
        throw std::logic_error("respell: '" + from + "' is not in the content JSON exactly once");
    j.replace(at, from.size(), to);
    return j + "\n";
}

// Tokens "w0 w1 w2 w3" with these sentence values.
Container with_sentences(std::initializer_list<Sentence> values) {
    Container c = counted(static_cast<std::uint32_t>(values.size()));
    std::size_t i = 0;
    c.docs.edit(0, [&](Doc& d) {
        for (Sentence s : values) d.tokens.sent[i++] = s;
    });
    return c;
}

// One token "x" whose norm is `norm` (WTF-8).
Container one_norm(const std::string& norm) {
    Container c = ondc();
    Doc d = new_doc("x");
    add_token(c, d, 0, 1, Attrs{norm}, -1, Sentence::start);
    c.docs.push_back(d);
    return c;
}

void several_faults(Registry& r) {
    const Container t = tiny(true);
    const Buf tb = canonical(t);
    auto head_out = [](raw::Canon& k) { k.docs[0].tokens->head[1] = SV(5); };
    r.area("crc");
    r.invalid("several-faults-body-before-crc", {"R28", "R7", "R19"},
              "a head out of range and a wrong trailer: the body's fault is reported, the CRC is checked last",
              edit_with_crc(t, head_out, trailer_of(tb) ^ 1u), "tokens.head-out-of-range");
    {
        Container b = ondb(true);
        add_tokenized(b, "First record.", Annot{});
        add_tokenized(b, "Second one.", Annot{});
        r.invalid("several-faults-bin-record-before-crc", {"R28", "R7", "R27"},
                  "record 1 has a head out of range and the trailer is wrong: the record's fault comes first",
                  edit_with_crc(b, [](raw::Canon& k) { k.docs[1].tokens->head[0] = SV(9); }, 0),
                  "tokens.head-out-of-range");
    }
    r.area("header");
    r.invalid("several-faults-version-before-body", {"R28", "R6"},
              "version 2, a head out of range and a wrong trailer: the header's fault is reported",
              [&] {
                  raw::Canon k = raw::canon(t);
                  head_out(k);
                  raw::ContainerSpec spec = raw::spec_for(k);
                  spec.version = 2;
                  spec.crc_value = 0;
                  return raw::bytes_from(spec, raw::ondc_sections(k));
              }(),
              "header.bad-version");
    {
        Buf extra = edit(tiny(), head_out);
        extra.push_back(0);
        r.invalid("several-faults-size-before-body", {"R28", "R6"},
                  "a byte after the declared end and a head out of range: the size is checked before any section",
                  extra, "container.trailing-bytes");
    }
    r.area("tokens");
    r.invalid("several-faults-in-byte-order", {"R28", "R18", "R19"},
              "token 0 has length 0 and token 1 a head out of range: the lengths come first in the section",
              edit(tiny(), [&](raw::Canon& k) {
                  k.docs[0].tokens->len[0] = V(0);
                  head_out(k);
              }),
              "tokens.empty");
    r.area("text");
    r.invalid("several-faults-text-before-tokens", {"R28", "R16", "R19"},
              "ill-formed UTF-8 in the text and a head out of range: section 2 comes before section 3",
              edit(tiny(), [&](raw::Canon& k) {
                  k.docs[0].text->bytes[1] = 0xFF;
                  head_out(k);
              }),
              "text.invalid-utf8");
    r.area("stream");
    {
        const Container a = tiny();
        r.stream("several-faults-body-before-crc", CaseVerdict::invalid, {"R28", "R25", "R7"},
                 "the second container has a head out of range and a wrong trailer: the head is reported",
                 raw::concat({canonical(a), edit_with_crc(t, head_out, 0)}), {a}, "tokens.head-out-of-range");
    }
}

void entities_given_unordered(Registry& r) {
    r.area("encode");
    Container apart = counted(4);
    apart.docs.edit(0, [&](Doc& d) {
        add_ent(apart, d, 2, 2, "B");
        add_ent(apart, d, 0, 1, "A");
    });
    r.refuse("entities-reversed-apart", {"R28", "R22"},
             "two entities that do not overlap, given last one first: refused, not sorted", apart, "content.entity-order");
    Container none = empty_doc();
    none.docs.edit(0, [&](Doc& d) { add_ent(none, d, 0, 1, "X"); });
    r.refuse("entity-without-tokens", {"R28", "R22"}, "an entity [0, 1) in a document without tokens", none,
             "content.entity-out-of-range");
    Container past = counted(3);
    past.docs.edit(0, [&](Doc& d) {
        add_ent(past, d, 0, 1, "A");
        add_ent(past, d, 3, 1, "B");
    });
    r.refuse("entity-starts-at-n", {"R28", "R22"}, "an entity starting at token n (past the tokens)", past,
             "content.entity-out-of-range");
}

void sentence_bits_without_grammar(Registry& r) {
    r.area("tokens");
    r.valid("sentence-inside-without-start", {"R28", "R20"},
            "'inside' with no 'start' before it, then unset, then 'inside' again: bits carry no grammar",
            with_sentences({Sentence::inside, Sentence::unset, Sentence::inside, Sentence::inside}));
    r.valid("sentence-start-after-start", {"R28", "R20"}, "every token a sentence start",
            with_sentences({Sentence::start, Sentence::start, Sentence::start}));
    r.area("entities");
    Container c = with_sentences({Sentence::start, Sentence::inside, Sentence::start, Sentence::inside});
    c.docs.edit(0, [&](Doc& d) { add_ent(c, d, 1, 2, "CROSS"); });
    r.valid("crossing-sentences", {"R28", "R22", "R20"}, "an entity over tokens 1 and 2 across a sentence start", c);
}

void leading_bom(Registry& r) {
    const std::string bom = "\xEF\xBB\xBF";
    r.area("string");
    {
        Container c = ondc();
        Doc d = new_doc(bom + "Hi");
        add_token(c, d, 0, 3, Attrs{bom + "hi", bom + "lemma", bom + "INTJ", bom + "UH", bom + "root", bom + "X=1"}, -1,
                  Sentence::start);
        add_ent(c, d, 0, 1, bom + "PER", 0.5f);
        add_cat(c, d, bom + "greeting", 0.25f);
        add_span(c, add_group(c, d, bom + "sc"), 0, 1, bom + "ALL");
        c.docs.push_back(d);
        r.valid("leading-bom-in-every-string", {"R28", "R5", "R16"},
                "text, attributes, entity and category labels, group name and span label each start with U+FEFF", c);
    }
    {
        const Container e = one_norm(bom + "x");
        r.noncanonical("utf16-leading-bom", {"R28", "R5", "W1"},
                       "the norm U+FEFF 'x' stored as UTF-16LE (FF FE 78 00): FF FE is the character, not a byte-order mark",
                       edit(e, [](raw::Canon& k) { k.table.entries[0] = raw::utf16(u"\uFEFFx"); }), e);
        const Container f = one_norm("\xEF\xBF\xBEx");  // U+FFFE x
        r.noncanonical("utf16-leading-fffe", {"R28", "R5", "W1"},
                       "the norm U+FFFE 'x' stored as UTF-16LE (FE FF 78 00): not a byte-swapped mark either",
                       edit(f, [](raw::Canon& k) { k.table.entries[0] = raw::utf16(u"\uFFFEx"); }), f);
    }
    r.area("text");
    {
        const Container t = plain(bom + "ab cd.");
        r.noncanonical("utf16-leading-bom", {"R28", "R16", "W1"},
                       "a well-formed text starting with U+FEFF stored as UTF-16 (encoding 1): the first token starts at 1",
                       edit(t, [](raw::Canon& k) {
                           k.docs[0].text->enc = 1;
                           k.docs[0].text->bytes = raw::utf16(u"\uFEFF" u"ab cd.").bytes;
                       }),
                       t);
    }
}

void json_floats(Registry& r) {
    r.area("encode");
    const float inf = raw::bits_float(0x7F800000u);
    {
        Container c = tiny();
        c.docs.edit(0, [&](Doc& d) { d.tokens.conf[0] = inf; });
        r.refuse("json-confidence-float-max-half-ulp", {"R28", "R3"},
                 "a token confidence written FLT_MAX + 1/2 ulp in JSON: it rounds to +inf, an invalid confidence", c,
                 "content.confidence-out-of-range");
        r.spell_content(respell(c, R"({"f32bits":2139095040})", "340282356779733661637539395458142568448"));
        Container e = tiny();
        e.docs.edit(0, [&](Doc& d) { add_ent(e, d, 0, 1, "X", inf); });
        r.refuse("json-entity-confidence-1e39", {"R28", "R3"}, "an entity confidence of 1e39 in JSON: +inf", e,
                 "content.confidence-out-of-range");
        r.spell_content(respell(e, R"({"f32bits":2139095040})", "1e39"));
    }
    {
        Container c = tiny();
        c.docs.edit(0, [](Doc& d) { d.tokens.conf[0] = raw::bits_float(0x3F000001u); });
        r.encode("json-float-rounds-up", {"R28", "R3", "W4"},
                 "a confidence just above the tie between 0.5 and the next float reads as the next float", c);
        r.spell_content(respell(c, "\"conf\":0.50000006", "\"conf\":0.500000029802322387695312500001"));
        Container h = tiny();
        h.docs.edit(0, [](Doc& d) { d.tokens.conf[0] = 0.5f; });
        r.encode("json-float-tie-to-even", {"R28", "R3", "W4"},
                 "a confidence exactly between 0.5 and the next float reads as 0.5 (ties to even)", h);
        r.spell_content(respell(h, "\"conf\":0.5", "\"conf\":0.5000000298023223876953125"));
        Container z = tiny();
        z.docs.edit(0, [](Doc& d) { d.tokens.conf[1] = 0.0f; });
        r.encode("json-float-underflows-to-zero", {"R28", "R3", "W4"}, "a confidence of 1e-50 reads as 0", z);
        r.spell_content(respell(z, "\"conf\":0.0", "\"conf\":1e-50"));
    }
    {
        Container c = tiny();
        c.docs.edit(0, [](Doc& d) { d.tokens.conf[1] = 0.5f; });
        r.encode("json-f32bits-confidence", {"R28", "R3", "W4"}, "a token confidence given as {\"f32bits\": 1056964608}, 0.5",
                 c);
        r.spell_content(respell(c, "\"conf\":0.5", R"("conf":{"f32bits":1056964608})"));
        Container n = tiny();
        n.docs.edit(0, [](Doc& d) { d.tokens.conf[0] = raw::bits_float(0x7FC00000u); });
        r.refuse("json-f32bits-nan-confidence", {"R28", "R3"}, "a token confidence given as the NaN pattern 0x7FC00000", n,
                 "content.confidence-out-of-range");
        Container s = sample();
        s.docs.edit(0, [](Doc& d) { d.cats[1].score = raw::bits_float(0x7FC00000u); });
        r.encode_impl("category-score-nan", {"R28", "R4"},
                      "a category score given as the NaN pattern: a writer that accepts writes its bits as they are", s,
                      "content.score-out-of-range");
        // Other NaNs (quiet and signalling, both signs): a writer that canonicalises NaN loses them.
        struct Nan {
            const char* name;
            const char* spelled;
            std::uint32_t bits;
        };
        const Nan nans[] = {{"nan-payload", "0x7FC00001", 0x7FC00001u},
                            {"negative-nan", "0xFFC00000", 0xFFC00000u},
                            {"signalling-nan", "0x7F800001", 0x7F800001u},
                            {"negative-signalling-nan", "0xFF812345", 0xFF812345u}};
        for (const Nan& nan : nans) {
            Container x = sample();
            x.docs.edit(0, [&](Doc& d) { d.cats[1].score = raw::bits_float(nan.bits); });
            r.encode_impl(std::string("category-score-") + nan.name, {"R28", "R4"},
                          std::string("a category score given as the NaN pattern ") + nan.spelled +
                              ": a writer that accepts writes these bits, not another NaN's",
                          x, "content.score-out-of-range");
        }
        Container big = sample();
        big.docs.edit(0, [&](Doc& d) { d.cats[0].score = inf; });
        r.encode_impl("category-score-1e39", {"R28", "R4"},
                      "a category score of 1e39 in JSON (+inf): a writer that accepts writes 0x7F800000", big,
                      "content.score-out-of-range");
        r.spell_content(respell(big, R"({"f32bits":2139095040})", "1e39"));
    }
}

void crc_byte_order(Registry& r) {
    r.area("crc");
    Container b = ondb(true);
    add_tokenized(b, "Bin with a trailer.", Annot{});
    const Buf bb = canonical(b);
    r.invalid("bin-big-endian", {"R28", "R7", "L6"}, "an ONDB whose right CRC-32 is stored big-endian",
              edit_spec(b, [v = bswap(trailer_of(bb))](raw::ContainerSpec& x) { x.crc_value = v; }), "crc.mismatch");
}

void odd_tables(Registry& r) {
    r.area("table");
    Container c = ondc();
    Doc d = new_doc("a b");
    add_token(c, d, 0, 1, Attrs{"a"}, -1, Sentence::start);
    add_token(c, d, 2, 1, Attrs{"b"}, 0, Sentence::inside);
    add_ent(c, d, 1, 1, "b");
    c.docs.push_back(d);
    r.noncanonical("every-oddity-at-once", {"R28", "R14", "L3"},
                   "a stored empty string, an unused copy of 'b', an unused string, then 'a' and 'b' out of first-use "
                   "order; a reader checks none of this",
                   edit(c, [](raw::Canon& k) {
                       k.table.entries = {raw::utf8(""), raw::utf8("b"), raw::utf8("unused"), raw::utf8("a"), raw::utf8("b")};
                       k.docs[0].tokens->cols[0] = {V(4), V(5)};
                       k.docs[0].ents->ents[0].label = V(2);
                   }),
                   c);
}

}  // namespace

void add_rulings_cases(Registry& r) {
    several_faults(r);
    entities_given_unordered(r);
    sentence_bits_without_grammar(r);
    leading_bom(r);
    json_floats(r);
    crc_byte_order(r);
    odd_tables(r);
}

}  // namespace ond::corpus::gen
