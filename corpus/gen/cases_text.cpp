// Area "text": section 2 (R16, R18 for offsets in UTF-16 units).
#include "common.hpp"

namespace ond::corpus::gen {

void add_text_cases(Registry& r) {
    r.area("text");
    r.valid("empty", {"R16", "W1"}, "an empty text (only the encoding byte) and no tokens", empty_doc());
    r.valid("ascii", {"R16", "W1"}, "ASCII text", plain("Plain ASCII text."));
    r.valid("latin", {"R16", "R18"}, "accented Latin: two-byte UTF-8, one UTF-16 unit each",
            plain("Cr\xC3\xA8me br\xC3\xBBl\xC3\xA9" "e \xC3\xA0 la fran\xC3\xA7" "aise."));
    r.valid("cjk", {"R16", "R18"}, "Japanese: three-byte UTF-8, one UTF-16 unit each",
            plain("\xE6\x9D\xB1\xE4\xBA\xAC \xE3\x81\xAF \xE5\xA4\xA7\xE3\x81\x8D\xE3\x81\x84\xE3\x80\x82"));
    r.valid("arabic", {"R16", "R18"}, "right-to-left Arabic text",
            plain("\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7 \xD8\xA8\xD8\xA7\xD9\x84\xD8\xB9\xD8\xA7\xD9\x84\xD9\x85."));
    r.valid("non-bmp-offsets", {"R16", "R18"}, "emoji and a Gothic letter: four-byte UTF-8, two UTF-16 units each",
            plain("\xF0\x9F\x98\x80 smile \xF0\x90\x8C\xB0 gothic \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD ok."));
    r.valid("combining-marks", {"R16", "R18"}, "a letter plus combining accent: one token of two units",
            plain("e\xCC\x81 a\xCC\x8A."));
    r.valid("leading-bom", {"R16"}, "a leading U+FEFF is content, not a byte-order mark: the first token starts at 1",
            plain("\xEF\xBB\xBFStart here."));
    r.valid("only-whitespace", {"R16"}, "text of spaces, tabs and newlines, no tokens", plain(" \t\n \r\n "));
    r.valid("nul-characters", {"R16"}, "text containing U+0000", plain(std::string("a\0b c", 5)));
    r.valid("lone-surrogate", {"R16", "W1"}, "text with an unpaired surrogate is stored as UTF-16 (encoding 1)",
            plain(wtf8(u"bad \xD800 unit.")));
    r.valid("lone-low-surrogate-at-end", {"R16", "W1"}, "text ending in a lone low surrogate, stored as UTF-16",
            plain(wtf8(u"end \xDC01")));
    {
        Container c = ondc();
        Doc d = new_doc("\xF0\x9F\x98\x80\xF0\x9F\x98\x81");
        add_token(c, d, 0, 1, Attrs{}, -1, Sentence::start);
        add_token(c, d, 1, 2, Attrs{}, 0, Sentence::inside);
        add_token(c, d, 3, 1, Attrs{}, 0, Sentence::inside);
        c.docs.push_back(d);
        r.valid("token-inside-surrogate-pair", {"R16", "R18"}, "tokens that start and end inside surrogate pairs are valid", c);
    }
    {
        Container c = ondc();
        Doc d = new_doc("a   b");
        add_token(c, d, 1, 3, Attrs{}, -1, Sentence::start);
        c.docs.push_back(d);
        r.valid("token-of-whitespace", {"R16", "R18"}, "a token covering only spaces is valid", c);
    }

    const Container a = plain("Plain ASCII text.");
    r.noncanonical("utf16-well-formed", {"R16", "W1"}, "well-formed text stored as UTF-16LE (encoding 1)",
                   edit(a, [](raw::Canon& k) {
                       k.docs[0].text->enc = 1;
                       k.docs[0].text->bytes = raw::utf16(u"Plain ASCII text.").bytes;
                   }),
                   a);
    r.noncanonical("utf16-empty", {"R16"}, "an empty text with encoding 1", edit(empty_doc(), [](raw::Canon& k) { k.docs[0].text->enc = 1; }),
                   empty_doc());
    {
        const Container e = plain("\xF0\x9F\x98\x80 x");
        r.noncanonical("utf16-surrogate-pair", {"R16", "W1"}, "a well-formed pair stored as UTF-16",
                       edit(e, [](raw::Canon& k) {
                           k.docs[0].text->enc = 1;
                           k.docs[0].text->bytes = raw::utf16(u"\xD83D\xDE00 x").bytes;
                       }),
                       e);
    }

    for (std::uint8_t enc : std::initializer_list<std::uint8_t>{2, 3, 0x80, 0xFF})
        r.invalid("bad-encoding-" + std::to_string(enc), {"R16"}, "text encoding byte " + std::to_string(enc),
                  edit(a, [enc](raw::Canon& k) { k.docs[0].text->enc = enc; }), "text.bad-encoding");
    r.invalid("utf16-odd-length", {"R16"}, "UTF-16 text of 5 bytes",
              edit(empty_doc(), [](raw::Canon& k) {
                  k.docs[0].text->enc = 1;
                  k.docs[0].text->bytes = {'a', 0, 'b', 0, 'c'};
              }),
              "text.odd-utf16-length");
    r.invalid("utf16-one-byte", {"R16"}, "UTF-16 text of 1 byte",
              edit(empty_doc(), [](raw::Canon& k) {
                  k.docs[0].text->enc = 1;
                  k.docs[0].text->bytes = {'a'};
              }),
              "text.odd-utf16-length");
    const std::pair<const char*, Buf> bad[] = {
        {"overlong", {'a', 0xC0, 0x80}},          {"surrogate", {'a', 0xED, 0xB0, 0x80}},
        {"above-10ffff", {0xF4, 0x90, 0x80, 0x80}}, {"truncated-at-end", {'a', 'b', 0xE2, 0x82}},
        {"lone-continuation", {0xBF}},             {"byte-fe", {0xFE}},
        {"cesu-pair", {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}},
    };
    for (const auto& [name, b] : bad)
        r.invalid(std::string("invalid-utf8-") + name, {"R16"}, std::string("UTF-8 text that is not well-formed (") + name + ")",
                  edit(empty_doc(), [b = b](raw::Canon& k) { k.docs[0].text->bytes = b; }), "text.invalid-utf8");
    r.invalid("tokens-count-utf16-not-bytes", {"R16", "R18", "L5"},
              "'\xC3\xA9t\xC3\xA9' is 5 bytes but 3 units: a token of length 5 runs past the text",
              edit(plain("\xC3\xA9t\xC3\xA9"), [](raw::Canon& k) { k.docs[0].tokens->len[0] = V(5); }), "tokens.out-of-text");
    r.invalid("tokens-past-non-bmp", {"R16", "R18", "L5"}, "one emoji is 2 units: a token of length 3 runs past it",
              edit(plain("\xF0\x9F\x98\x80"), [](raw::Canon& k) { k.docs[0].tokens->len[0] = V(3); }), "tokens.out-of-text");
}

}  // namespace ond::corpus::gen
