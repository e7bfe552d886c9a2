// Area "string": stored strings, UTF-8 and UTF-16 (R5, L3).
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
// One token whose norm is `norm`; everything else unset.
Container with_norm(std::string_view norm) {
    Container c = ondc();
    Doc d = new_doc("word");
    add_token(c, d, 0, 4, Attrs{norm, "", "", "", "", ""}, -1, Sentence::start);
    c.docs.push_back(d);
    return c;
}
}  // namespace

void add_string_cases(Registry& r) {
    r.area("string");
    const Container base = with_norm("word");

    // Valid, canonical: UTF-8 whenever well-formed, UTF-16 only for lone surrogates (W1).
    const std::pair<const char*, std::string> utf8s[] = {
        {"ascii", "word"},
        {"latin1-range", "\xC3\xA9t\xC3\xA9"},                        // été
        {"cjk", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"},               // 日本語
        {"non-bmp-emoji", "\xF0\x9F\x98\x80"},                         // U+1F600
        {"max-scalar", "\xF4\x8F\xBF\xBF"},                            // U+10FFFF
        {"bom-character", "\xEF\xBB\xBF" "x"},                         // U+FEFF then x
        {"nul-character", std::string("a\0b", 3)},
        {"two-byte-min", "\xC2\x80"},                                  // U+0080
        {"three-byte-min", "\xE0\xA0\x80"},                            // U+0800
        {"four-byte-min", "\xF0\x90\x80\x80"},                         // U+10000
        {"before-surrogates", "\xED\x9F\xBF"},                         // U+D7FF
        {"after-surrogates", "\xEE\x80\x80"},                          // U+E000
    };
    for (const auto& [name, s] : utf8s)
        r.valid(std::string("utf8-") + name, {"R5", "W1", "L3"}, std::string("a norm stored as well-formed UTF-8 (") + name + ")",
                with_norm(s));
    const std::pair<const char*, std::u16string> lone[] = {
        {"lone-high", u"\xD800"},
        {"lone-low", u"\xDC00"},
        {"reversed-pair", u"\xDC00\xD800"},
        {"high-then-letter", u"a\xDBFFz"},
    };
    for (const auto& [name, u] : lone)
        r.valid(std::string("utf16-") + name, {"R5", "W1"}, std::string("a norm with an unpaired surrogate, stored as UTF-16 (") + name + ")",
                with_norm(wtf8(u)));

    // Non-canonical: UTF-16 for a well-formed string.
    r.noncanonical("utf16-well-formed", {"R5", "W1"}, "the norm 'word' stored as UTF-16LE (flag 1)",
                   edit(base, [](raw::Canon& k) { k.table.entries[0] = raw::utf16(u"word"); }), base);
    {
        const Container e = with_norm("\xF0\x9F\x98\x80");
        r.noncanonical("utf16-surrogate-pair", {"R5", "W1"}, "U+1F600 stored as a UTF-16 surrogate pair (flag 1)",
                       edit(e, [](raw::Canon& k) { k.table.entries[0] = raw::utf16(u"\xD83D\xDE00"); }), e);
    }
    {
        Container expect = with_norm("");
        expect.docs.edit(0, [](Doc& d) { d.tokens.attrs[0][0] = 0; });
        r.noncanonical("utf16-empty-used", {"R5", "R14"}, "the norm index names a stored empty UTF-16 string (h = 1): the norm is unset",
                       edit(base, [](raw::Canon& k) { k.table.entries[0] = raw::utf16(u""); }), expect);
    }

    // Invalid UTF-8 (RFC 3629).
    const std::pair<const char*, Buf> bad[] = {
        {"overlong-2-byte", {0xC0, 0xAF}},
        {"overlong-c1", {0xC1, 0xBF}},
        {"overlong-3-byte", {0xE0, 0x80, 0xAF}},
        {"overlong-4-byte", {0xF0, 0x80, 0x80, 0xAF}},
        {"surrogate-d800", {0xED, 0xA0, 0x80}},
        {"surrogate-dfff", {0xED, 0xBF, 0xBF}},
        {"surrogate-pair-as-cesu", {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}},
        {"above-10ffff", {0xF4, 0x90, 0x80, 0x80}},
        {"lead-f5", {0xF5, 0x80, 0x80, 0x80}},
        {"byte-ff", {0x61, 0xFF}},
        {"lone-continuation", {0x80}},
        {"truncated-2-byte", {0x61, 0xC3}},
        {"truncated-3-byte", {0xE2, 0x82}},
        {"truncated-4-byte", {0xF0, 0x9F, 0x98}},
        {"bad-continuation", {0xC3, 0x28}},
        {"five-byte-form", {0xF8, 0x88, 0x80, 0x80, 0x80}},
    };
    for (const auto& [name, bytes] : bad)
        r.invalid(std::string("invalid-utf8-") + name, {"R5", "L3"}, std::string("a UTF-8 table string that is not well-formed (") + name + ")",
                  edit(base, [b = bytes](raw::Canon& k) { k.table.entries[0].bytes = b; }), "string.invalid-utf8");
    r.invalid("invalid-utf8-unused-entry", {"R5", "R14", "L3"}, "an extra table entry no index uses holds ED A0 80 (still checked)",
              edit(base, [](raw::Canon& k) { k.table.entries.push_back(rstr(Buf{0xED, 0xA0, 0x80}, false)); }),
              "string.invalid-utf8");

    // UTF-16 byte counts.
    r.invalid("utf16-odd-3-bytes", {"R5", "L3"}, "a UTF-16 string of 3 bytes",
              edit(base, [](raw::Canon& k) { k.table.entries[0] = rstr(Buf{'w', 0, 'o'}, true); }), "string.odd-utf16-length");
    r.invalid("utf16-odd-1-byte", {"R5", "L3"}, "a UTF-16 string of 1 byte",
              edit(base, [](raw::Canon& k) { k.table.entries[0] = rstr(Buf{'w'}, true); }), "string.odd-utf16-length");
    r.valid("utf16-lone-surrogate-even", {"R5"}, "a 2-byte UTF-16 string holding one lone surrogate", with_norm(wtf8(u"\xDFFF")));

    // Lengths past the section.
    r.invalid("length-one-past-section", {"R5", "L3"}, "the last string's header claims one byte more than the table holds",
              edit(base, [](raw::Canon& k) { k.table.entries[0].h = 5u << 1; }), "string.truncated");
    r.invalid("length-huge", {"R5", "L3"}, "a string header of 0xFFFFFFFE: 2^31 - 1 bytes in a tiny table",
              edit(base, [](raw::Canon& k) { k.table.entries[0].h = 0xFFFFFFFEu; }), "string.truncated");
    r.valid("length-exactly-section", {"R5", "L3"}, "the last string ends exactly at the end of the table", base);
}

}  // namespace ond::corpus::gen
