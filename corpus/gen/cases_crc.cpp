// Area "crc": the optional CRC-32 trailer (R7, L6).
#include "common.hpp"

namespace ond::corpus::gen {

void add_crc_cases(Registry& r) {
    r.area("crc");
    const Container t = tiny(true);
    const Container s = sample(true);
    const Buf tb = canonical(t);
    const std::uint32_t good = trailer_of(tb);

    r.valid("tiny-with-crc", {"R7", "L6", "W5"}, "a two-token document with a correct CRC-32 trailer", t);
    r.valid("sample-with-crc", {"R7", "L6", "W5"}, "a document with every section and a CRC-32 trailer", s);
    Container b = ondb(true);
    add_tokenized(b, "One bin.", Annot{});
    add_tokenized(b, "Two docs here.", Annot{});
    r.valid("bin-with-crc", {"R7", "L6", "W5"}, "a two-record ONDB with a CRC-32 trailer", b);
    r.valid("sample-without-crc", {"R7", "W5"}, "the same document as sample-with-crc, flags = 0 and no trailer", sample(false));

    for (int bit : {0, 7, 8, 31}) {
        const std::uint32_t bad = good ^ (1u << bit);
        r.invalid("flipped-bit-" + std::to_string(bit), {"R7", "L6"},
                  "the trailer's bit " + std::to_string(bit) + " is flipped",
                  edit_spec(t, [bad](raw::ContainerSpec& x) { x.crc_value = bad; }), "crc.mismatch");
    }
    r.invalid("zero", {"R7", "L6"}, "the trailer is 0", edit_spec(t, [](raw::ContainerSpec& x) { x.crc_value = 0; }),
              "crc.mismatch");
    r.invalid("all-ones", {"R7", "L6"}, "the trailer is 0xFFFFFFFF",
              edit_spec(t, [](raw::ContainerSpec& x) { x.crc_value = 0xFFFFFFFFu; }), "crc.mismatch");
    r.invalid("big-endian", {"R7", "L6"}, "the right CRC-32 stored big-endian",
              edit_spec(t, [v = bswap(good)](raw::ContainerSpec& x) { x.crc_value = v; }), "crc.mismatch");
    {
        const Buf body(tb.begin() + 12, tb.end() - 4);
        const std::uint32_t body_only = raw::crc32_of(body, body.size());
        r.invalid("body-only", {"R7", "L6"}, "the CRC-32 of the body alone, without the header",
                  edit_spec(t, [body_only](raw::ContainerSpec& x) { x.crc_value = body_only; }), "crc.mismatch");
    }
    r.invalid("text-changed", {"R7", "L6"}, "one text byte changed after the CRC-32 was computed ('Hi' became 'Ho')",
              with_byte(tb, [&] {
                  for (std::size_t i = 12; i + 1 < tb.size(); ++i)
                      if (tb[i] == 'H' && tb[i + 1] == 'i') return i + 1;
                  return std::size_t{0};
              }(), 'o'),
              "crc.mismatch");
    {
        const Buf other = canonical(sample(true));
        r.invalid("trailer-of-another-document", {"R7", "L6"}, "the trailer of a different document",
                  edit_spec(t, [v = trailer_of(other)](raw::ContainerSpec& x) { x.crc_value = v; }), "crc.mismatch");
    }
    r.invalid("bin-mismatch", {"R7", "L6", "R27"}, "a two-record ONDB whose trailer is off by one (checked after the last record)",
              edit_spec(b, [v = trailer_of(canonical(b)) + 1](raw::ContainerSpec& x) { x.crc_value = v; }), "crc.mismatch");
    r.invalid("empty-document-mismatch", {"R7", "L6"}, "the smallest ONDC with a wrong trailer",
              edit_spec(empty_doc(true), [](raw::ContainerSpec& x) { x.crc_value = 0x12345678; }), "crc.mismatch");
    r.invalid("sample-mismatch", {"R7", "L6"}, "a document with every section and a wrong trailer",
              edit_spec(s, [v = trailer_of(canonical(s)) ^ 0x80000000u](raw::ContainerSpec& x) { x.crc_value = v; }),
              "crc.mismatch");
}

}  // namespace ond::corpus::gen
