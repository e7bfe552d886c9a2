// Area "document": realistic documents, large and multilingual, with every section.
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
const char* const paragraphs[] = {
    "The committee met in Geneva on Tuesday. It approved the budget and adjourned!",
    "Der Ausschuss tagte in Genf. Er billigte den Haushalt.",
    "\xE5\xA7\x94\xE5\x93\xA1\xE4\xBC\x9A\xE3\x81\xAF \xE3\x82\xB8\xE3\x83\xA5\xE3\x83\x8D\xE3\x83\xBC\xE3\x83\x96\xE3\x81\xA7 "
    "\xE9\x96\x8B\xE3\x81\x8B\xE3\x82\x8C\xE3\x81\x9F\xE3\x80\x82",
    "\xD0\x9A\xD0\xBE\xD0\xBC\xD0\xB8\xD1\x82\xD0\xB5\xD1\x82 \xD1\x81\xD0\xBE\xD0\xB1\xD1\x80\xD0\xB0\xD0\xBB\xD1\x81\xD1\x8F "
    "\xD0\xB2 \xD0\x96\xD0\xB5\xD0\xBD\xD0\xB5\xD0\xB2\xD0\xB5.",
    "\xF0\x9F\x93\x88 Markets rose \xF0\x9F\x9A\x80 and \xF0\x9D\x94\xB8\xF0\x9D\x94\xB9 indexes gained 3%.",
    "\xD8\xA7\xD8\xAC\xD8\xAA\xD9\x85\xD8\xB9\xD8\xAA \xD8\xA7\xD9\x84\xD9\x84\xD8\xAC\xD9\x86\xD8\xA9 \xD9\x81\xD9\x8A "
    "\xD8\xAC\xD9\x86\xD9\x8A\xD9\x81.",
};

// A document of `sentences` sentences drawn from the paragraphs, fully annotated.
Container realistic(Container c, std::size_t first, std::size_t count, std::uint64_t seed, bool cats, bool groups) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        if (i) text += "\n";
        text += paragraphs[(first + i) % 6];
    }
    Doc d = new_doc(text);
    tokenize(c, d, Annot{true, true, true, true, seed});
    Rng rng(seed * 31 + 7);
    const auto n = static_cast<std::uint32_t>(d.tokens.size());
    static const char* const labels[] = {"ORG", "GPE", "DATE", "MONEY", "PERSON"};
    d.has_ents = true;
    for (std::uint32_t at = rng.below(3); at < n;) {
        const std::uint32_t len = 1 + rng.below(3);
        if (at + len > n) break;
        // One draw per statement: the order of a call's arguments is unspecified.
        const char* label = labels[rng.below(5)];
        const float conf = rng.conf();
        add_ent(c, d, at, len, label, conf);
        at += len + rng.below(6);
    }
    if (cats) {
        const float news = rng.conf();
        add_cat(c, d, "news", news);
        const float politics = rng.conf();
        add_cat(c, d, "politics", politics);
        const float economy = rng.conf();
        add_cat(c, d, "\xE7\xB5\x8C\xE6\xB8\x88", economy);
    }
    if (groups && n > 0) {
        SpanGroup& g = add_group(c, d, "sc");
        for (int i = 0; i < 20; ++i) {
            const std::uint32_t s = rng.below(n);
            const std::uint32_t len = 1 + rng.below(n - s);
            const char* label = labels[rng.below(5)];
            const float conf = rng.conf();
            add_span(c, g, s, len, label, conf);
        }
        add_group(c, d, "empty");
    }
    c.docs.push_back(d);
    return c;
}
}  // namespace

void add_document_cases(Registry& r) {
    r.area("document");
    r.valid("multilingual", {"R16", "R18", "W3"}, "six languages and scripts, non-BMP characters, every section",
            realistic(ondc(), 0, 6, 1, true, true));
    r.valid("multilingual-crc", {"R7", "R16", "W5"}, "the multilingual document with a CRC-32 trailer",
            realistic(ondc(true), 0, 6, 1, true, true));
    r.valid("thousands-of-tokens", {"R17", "R18", "R21", "L4"}, "about 5,000 fully annotated tokens with confidences",
            realistic(ondc(), 0, 420, 2, true, true));
    r.valid("thousands-of-tokens-crc", {"R17", "R7", "L4"}, "about 2,400 tokens, no categories or groups, CRC on",
            realistic(ondc(true), 3, 200, 3, false, false));
    r.valid("emoji-heavy", {"R16", "R18"}, "a document dominated by non-BMP characters", realistic(ondc(), 4, 12, 4, false, true));
    r.valid("lone-surrogates-everywhere", {"R5", "R16", "W1"}, "text and attributes with unpaired surrogates (UTF-16 storage)", [] {
        Container c = ondc();
        Doc d = new_doc(wtf8(u"broken \xD83D text \xDE00 here."));
        tokenize(c, d, Annot{true, true, true, false, 5});
        add_ent(c, d, 1, 1, wtf8(u"LBL\xDBFF"));
        add_cat(c, d, wtf8(u"\xDC00"), 0.5f);
        c.docs.push_back(d);
        return c;
    }());
    {
        Container b = ondb();
        for (std::size_t i = 0; i < 60; ++i) b = realistic(std::move(b), i, 1 + i % 3, 100 + i, false, false);
        r.valid("bin-60-docs", {"R11", "W3", "R27"}, "a bin of 60 annotated documents sharing one string table", b);
        Container bc = b;
        bc.crc = true;
        r.valid("bin-60-docs-crc", {"R11", "R7", "R27"}, "the 60-document bin with a CRC-32 trailer", bc);
    }
    {
        Container b = ondb(true);
        for (std::size_t i = 0; i < 8; ++i) b = realistic(std::move(b), i, 20, 200 + i, false, false);
        r.valid("bin-large-records", {"R11", "R17", "R27"}, "a bin of 8 records of about 250 tokens each, CRC on", b);
    }
    r.valid("no-confidences", {"R21", "W4"}, "a realistic document whose confidences are all 1.0 (mode 0)", [] {
        Container c = ondc();
        add_tokenized(c, paragraphs[0], Annot{true, true, true, false, 9});
        return c;
    }());
    r.valid("sparse-attributes", {"R13", "W3"}, "only some attribute columns set: unset ones are index 0", [] {
        Container c = ondc();
        Doc d = new_doc(paragraphs[1]);
        tokenize(c, d, Annot{false, true, true, false, 10});
        for (std::size_t i = 0; i < d.tokens.size(); i += 2) d.tokens.attrs[2][i] = c.strings.intern("X");
        c.docs.push_back(d);
        return c;
    }());
}

}  // namespace ond::corpus::gen
