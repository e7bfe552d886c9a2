// Area "stream": back-to-back ONDC containers (R25, R26, L7).
#include "common.hpp"

namespace ond::corpus::gen {

void add_stream_cases(Registry& r) {
    r.area("stream");
    const Container a = tiny();
    const Container b = sample(true);
    const Container c = plain("Third container, no CRC.");
    const Buf ba = canonical(a), bb = canonical(b), bc = canonical(c);
    const CaseVerdict ok = CaseVerdict::valid, bad = CaseVerdict::invalid, impl = CaseVerdict::impl;

    r.stream("empty", ok, {"R25", "L7"}, "no bytes: a valid stream of zero containers", {}, {});
    r.stream("one", ok, {"R25"}, "a single container", ba, {a});
    r.stream("three", ok, {"R25"}, "three containers, the middle one with a CRC", raw::concat({ba, bb, bc}), {a, b, c});
    r.stream("same-twice", ok, {"R25"}, "the same container twice", raw::concat({ba, ba}), {a, a});
    {
        std::vector<Container> many;
        Buf bytes;
        for (int i = 0; i < 20; ++i) {
            Container x = plain("Document number " + std::to_string(i) + ".", i % 3 == 0);
            Buf xb = canonical(x);
            bytes.insert(bytes.end(), xb.begin(), xb.end());
            many.push_back(std::move(x));
        }
        r.stream("twenty", ok, {"R25"}, "twenty short containers, every third with a CRC", bytes, many);
    }
    {
        Container big = counted(1200);
        r.stream("large-container", ok, {"R25", "R26", "L7"}, "a container of 1200 tokens between two small ones",
                 raw::concat({ba, canonical(big), ba}), {a, big, a});
    }
    r.stream("noncanonical-member", ok, {"R25", "R1"}, "a container with an overlong varint is read like any other",
             raw::concat({ba, edit(a, [](raw::Canon& k) { k.docs[0].tokens->gap[1].pad = 1; })}), {a, a});

    // Ends inside a container.
    r.stream("cut-in-first-header", bad, {"R25", "L7"}, "five bytes of a header, then the end", Buf(ba.begin(), ba.begin() + 5), {},
             "stream.truncated");
    r.stream("cut-in-second-header", bad, {"R25", "L7"}, "one whole container, then 11 bytes of a header",
             raw::concat({ba, Buf(ba.begin(), ba.begin() + 11)}), {a}, "stream.truncated");
    r.stream("cut-in-body", bad, {"R25", "L7"}, "the second container ends one byte early",
             raw::concat({ba, Buf(bc.begin(), bc.end() - 1)}), {a}, "stream.truncated");
    r.stream("cut-in-trailer", bad, {"R25", "R7", "L7"}, "the CRC container ends two bytes into its trailer",
             raw::concat({ba, Buf(bb.begin(), bb.end() - 2)}), {a}, "stream.truncated");
    r.stream("one-stray-byte", bad, {"R25", "L7"}, "a single byte after two containers", raw::concat({ba, ba, Buf{0}}), {a, a},
             "stream.truncated");

    // Faults of a container inside a stream.
    r.stream("bad-magic-second", bad, {"R25", "R6"}, "the second container's magic is ONDX",
             raw::concat({ba, edit_spec(c, [](raw::ContainerSpec& s) { s.magic = "ONDX"; }), ba}), {a}, "header.bad-magic");
    r.stream("crc-mismatch-second", bad, {"R25", "R7"}, "the second container's CRC is wrong: it is not counted as read",
             raw::concat({ba, edit_spec(b, [](raw::ContainerSpec& s) { s.crc_value = 1; }), bc}), {a}, "crc.mismatch");
    r.stream("body-fault-third", bad, {"R25", "R19"}, "the third container has a head out of range",
             raw::concat({ba, bc, edit(a, [](raw::Canon& k) { k.docs[0].tokens->head[1] = SV(5); })}), {a, c},
             "tokens.head-out-of-range");
    r.stream("bad-flags-first", bad, {"R25", "R6"}, "the first container's flags are 2",
             raw::concat({edit_spec(a, [](raw::ContainerSpec& s) { s.flags = 2; }), ba}), {}, "header.bad-flags");

    // Length limits (R26).
    r.stream("length-above-1gib", bad, {"R26", "L7"}, "a declared body length of 2^30 + 1, refused before reading it",
             edit_spec(a, [](raw::ContainerSpec& s) { s.body_length = (1u << 30) + 1; }), {}, "stream.length-too-large");
    r.stream("length-max", bad, {"R26", "L7"}, "a declared body length of 0xFFFFFFFF after one good container",
             raw::concat({ba, edit_spec(a, [](raw::ContainerSpec& s) { s.body_length = 0xFFFFFFFFu; })}), {a},
             "stream.length-too-large");
    r.stream("length-exactly-1gib", bad, {"R26", "L7"}, "a declared body length of exactly 2^30 with a few bytes present: allowed, then truncated",
             edit_spec(a, [](raw::ContainerSpec& s) { s.body_length = 1u << 30; }), {}, "stream.truncated");
    r.stream("length-2mib-missing", bad, {"R26", "L7"}, "a declared length of 2 MiB + 3 with only the real body present",
             edit_spec(a, [](raw::ContainerSpec& s) { s.body_length = (2u << 20) + 3; }), {}, "stream.truncated");

    // A bin in a stream (R25): implementation-defined.
    Container bin = ondb();
    add_tokenized(bin, "In a bin.", Annot{});
    r.stream("bin-in-stream", impl, {"R25"}, "an ONDB container after an ONDC", raw::concat({ba, canonical(bin)}), {a},
             "stream.bin-in-stream", {a, bin});
    r.stream("bin-first", impl, {"R25"}, "a stream that starts with an empty ONDB", raw::concat({canonical(ondb()), ba}), {},
             "stream.bin-in-stream", {ondb(), a});
}

}  // namespace ond::corpus::gen
