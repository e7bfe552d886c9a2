// Area "tokens": section 3 (R17-R21, R3, L4, L5).
#include "common.hpp"

namespace ond::corpus::gen {

namespace {
Container with_confs(std::initializer_list<float> confs) {
    Container c = counted(static_cast<std::uint32_t>(confs.size()));
    std::size_t i = 0;
    c.docs.edit(0, [&](Doc& d) {
        for (float f : confs) d.tokens.conf[i++] = f;
    });
    return c;
}
}  // namespace

// Long by design: the area's table of cases, a paragraph each (id, bytes, verdict, rule); split,
// it would only scatter one list.
void add_tokens_cases(Registry& r) {
    r.area("tokens");
    const Container t = tiny();  // "Hi there.": [0,2) [3,9)
    const Container s = sample();

    // Spans (R18).
    r.valid("last-ends-at-text-end", {"R18", "L5"}, "the last token ends exactly at the end of the text", t);
    r.invalid("last-ends-one-past-text", {"R18", "L5"}, "the last token's length is one unit too long",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->len[1] = V(7); }), "tokens.out-of-text");
    r.invalid("gap-one-past-text", {"R18", "L5"}, "the last token's gap is one unit too long",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->gap[1] = V(2); }), "tokens.out-of-text");
    r.invalid("starts-at-text-end", {"R18", "L5"}, "a token starting at the end of the text, length 1",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->gap[0] = V(9); }), "tokens.out-of-text");
    r.invalid("in-empty-text", {"R18", "L5"}, "one token [0, 1) over an empty text",
              edit(counted(1), [](raw::Canon& k) { k.docs[0].text->bytes.clear(); }), "tokens.out-of-text");
    r.invalid("gap-max", {"R18", "L5"}, "a gap of 0xFFFFFFFF (end computed without wrapping)",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->gap[1] = V(0xFFFFFFFFu); }), "tokens.out-of-text");
    r.invalid("length-max", {"R18", "L5"}, "a length of 0xFFFFFFFF after a non-zero start (no 32-bit wrap to a small end)",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->len[1] = V(0xFFFFFFFFu); }), "tokens.out-of-text");
    r.invalid("empty-first", {"R18", "L5"}, "token 0 has length 0",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->len[0] = V(0); }), "tokens.empty");
    r.invalid("empty-last", {"R18", "L5"}, "the last token has length 0",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->len[1] = V(0); }), "tokens.empty");
    {
        Container c = ondc();
        Doc d = new_doc("abc");
        add_token(c, d, 0, 1, Attrs{}, -1, Sentence::start);
        add_token(c, d, 1, 1, Attrs{}, 0, Sentence::inside);
        add_token(c, d, 2, 1, Attrs{}, 0, Sentence::inside);
        c.docs.push_back(d);
        r.valid("adjacent", {"R18"}, "three one-unit tokens with gap 0 and no spaces", c);
    }

    // Count (R17, L4).
    {
        Container c = ondc();
        add_doc(c, "No tokens here.");
        r.valid("count-zero", {"R17", "L4"}, "text but no tokens: count 0, no sentence bytes, mode 0", c);
    }
    r.valid("count-one-minimal", {"R17", "L4"}, "one token in the smallest tokens section: 11 bytes after the count", counted(1));
    r.invalid("count-9n-equals-bytes", {"R17", "L4"},
              "count 1 with exactly 9 bytes after it: passes the count check, then the sentence byte is missing",
              edit_sections(counted(1), [](raw::Sections& x) { x[2].body = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0}; }), "field.truncated");
    r.invalid("count-9n-one-past-bytes", {"R17", "L4"}, "count 2 with 17 bytes after it: 9 x 2 = 18 needed",
              edit_sections(counted(2), [](raw::Sections& x) {
                  x[2].body = Buf(18, 0);
                  x[2].body[0] = 2;
              }),
              "tokens.count-exceeds-bytes");
    r.invalid("count-one-more-than-written", {"R17", "L4"}, "a count of 2 over one written token (11 bytes left, 18 needed)",
              edit(counted(1), [](raw::Canon& k) { k.docs[0].tokens->n = V(2); }), "tokens.count-exceeds-bytes");
    r.invalid("count-at-cap-small-section", {"R17", "L4"}, "count 33,554,432 (the cap itself) in a few bytes",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = V(33554432u); }), "tokens.count-exceeds-bytes");
    r.invalid("count-cap-plus-one", {"R17", "L4"}, "count 33,554,433: above the cap whatever the bytes",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = V(33554433u); }), "tokens.count-too-large");
    r.invalid("count-max", {"R17", "L4"}, "count 0xFFFFFFFF", edit(t, [](raw::Canon& k) { k.docs[0].tokens->n = V(0xFFFFFFFFu); }),
              "tokens.count-too-large");

    // Heads (R19).
    r.invalid("head-one-past-end", {"R19", "L5"}, "the last token's head is token n",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[1] = SV(1); }), "tokens.head-out-of-range");
    r.invalid("head-before-first", {"R19", "L5"}, "token 1's head is token -1",
              edit(t, [](raw::Canon& k) { k.docs[0].tokens->head[1] = SV(-2); }), "tokens.head-out-of-range");
    {
        Container c = counted(5);
        c.docs.edit(0, [](Doc& d) { d.tokens.head = {4, 4, 4, 4, 0}; });
        r.valid("head-last-and-first", {"R19"}, "heads at both ends of the range: token 0 -> 4, token 4 -> 0", c);
        Container cyc = counted(3);
        cyc.docs.edit(0, [](Doc& d) { d.tokens.head = {1, 2, 0}; });
        r.valid("head-cycle", {"R19"}, "heads form a cycle 0 -> 1 -> 2 -> 0 (not checked)", cyc);
        Container roots = counted(4);
        r.valid("head-all-roots", {"R19"}, "every token is its own head: four roots (not checked)", roots);
    }

    // Sentence bits (R20): n % 4 = 0..3.
    for (std::uint32_t n : {4u, 5u, 6u, 7u}) {
        Container c = counted(n);
        c.docs.edit(0, [n](Doc& d) {
            for (std::uint32_t i = 0; i < n; ++i) d.tokens.sent[i] = static_cast<Sentence>(i % 3);
        });
        r.valid("sentence-bits-n" + std::to_string(n), {"R20", "W5"},
                std::to_string(n) + " tokens (n % 4 = " + std::to_string(n % 4) + ") with values 0, 1, 2 in turn", c);
    }
    for (std::uint32_t pos : {0u, 1u, 2u, 3u}) {
        Container c = counted(4);
        r.invalid("sentence-value-3-token-" + std::to_string(pos), {"R20", "L5"},
                  "sentence value 3 for token " + std::to_string(pos) + " of 4",
                  edit(c, [pos](raw::Canon& k) { k.docs[0].tokens->sent[pos] = 3; }), "tokens.bad-sentence-value");
    }
    r.invalid("sentence-value-3-second-byte", {"R20", "L5"}, "sentence value 3 for token 5 (second byte)",
              edit(counted(6), [](raw::Canon& k) { k.docs[0].tokens->sent[5] = 3; }), "tokens.bad-sentence-value");
    for (std::uint32_t n : {1u, 2u, 3u, 5u}) {
        const Container c = counted(n);
        r.impl("sentence-padding-n" + std::to_string(n), {"R20", "W5"},
               "n = " + std::to_string(n) + ": the top padding bit of the last sentence byte is set",
               edit(c, [n](raw::Canon& k) {
                   Buf packed((n + 3) / 4, 0);
                   for (std::uint32_t i = 0; i < n; ++i)
                       packed[i / 4] = static_cast<std::uint8_t>(packed[i / 4] | (k.docs[0].tokens->sent[i] << (2 * (i % 4))));
                   packed.back() |= 0x80;
                   k.docs[0].tokens->sent_bytes = packed;
               }),
               "tokens.sentence-padding", c, canonical(c));
    }
    r.impl("sentence-padding-value-3", {"R20", "W5"}, "n = 1: padding bits hold 3s (padding, not a token's value)",
           edit(counted(1), [](raw::Canon& k) { k.docs[0].tokens->sent_bytes = Buf{0xFD}; }), "tokens.sentence-padding", counted(1),
           canonical(counted(1)));
    r.invalid("sentence-bytes-missing", {"R20", "L4"}, "5 tokens but only one sentence byte before the mode (the mode is read as bits)",
              edit(counted(5), [](raw::Canon& k) { k.docs[0].tokens->sent_bytes = Buf{0x55}; }), "field.truncated");

    // Confidence mode (R21).
    // A bad mode followed by a valid mode-1 payload (0.25, 0.75): a reader that reads every
    // non-zero mode as 1 accepts it with sensible confidences. The same mode with nothing after
    // it is what a reader that reads a bad mode as 0 accepts; both ways of lacking the check fail.
    for (std::uint8_t m : std::initializer_list<std::uint8_t>{2, 0x80, 0xFF}) {
        const std::string mode = std::to_string(m);
        r.single_fault("confidence-mode-" + mode, {"R21", "L5"}, "confidence mode " + mode + " followed by two valid floats, as mode 1 would be",
                       edit(t, [m](raw::Canon& k) {
                           k.docs[0].tokens->conf_mode = m;
                           k.docs[0].tokens->conf = {0x3E800000u, 0x3F400000u};
                       }),
                       "tokens.bad-confidence-mode");
        r.invalid("confidence-mode-" + mode + "-no-floats", {"R21", "L5"}, "confidence mode " + mode + " with nothing after it, as mode 0 would be",
                  edit(t, [m](raw::Canon& k) { k.docs[0].tokens->conf_mode = m; }), "tokens.bad-confidence-mode");
    }
    r.noncanonical("confidence-mode-1-all-one", {"R21", "W4"}, "mode 1 with every float exactly 1.0",
                   edit(t, [](raw::Canon& k) {
                       k.docs[0].tokens->conf_mode = 1;
                       k.docs[0].tokens->conf = {0x3F800000u, 0x3F800000u};
                   }),
                   t);
    r.noncanonical("confidence-mode-1-no-tokens", {"R21", "W4"}, "mode 1 with n = 0 (no floats follow)",
                   edit(empty_doc(), [](raw::Canon& k) { k.docs[0].tokens->conf_mode = 1; }), empty_doc());
    r.valid("confidence-mode-0", {"R21", "W4"}, "mode 0: every confidence is 1.0 and none is stored", t);
    r.invalid("confidence-floats-missing", {"R21", "L5"}, "mode 1 over two tokens with one float",
              edit(t, [](raw::Canon& k) {
                  k.docs[0].tokens->conf_mode = 1;
                  k.docs[0].tokens->conf = {0x3F000000u};
              }),
              "field.truncated");

    // Confidence values (R3).
    const std::pair<const char*, float> ok[] = {
        {"zero", 0.0f},
        {"negative-zero", -0.0f},
        {"smallest-subnormal", raw::bits_float(0x00000001u)},
        {"largest-subnormal", raw::bits_float(0x007FFFFFu)},
        {"below-one", raw::bits_float(0x3F7FFFFFu)},
        {"one-among-others", 1.0f},
        {"half", 0.5f},
    };
    for (const auto& [name, f] : ok)
        r.valid(std::string("confidence-") + name, {"R3", "W4"}, std::string("a token confidence that is in [0, 1] (") + name + ")",
                with_confs({0.25f, f}));
    const std::pair<const char*, std::uint32_t> bad[] = {
        {"nan", 0x7FC00000u},         {"negative-nan", 0xFFC00000u},  {"signalling-nan", 0x7F800001u},
        {"above-one", 0x3F800001u},   {"two", 0x40000000u},           {"infinity", 0x7F800000u},
        {"minus-infinity", 0xFF800000u}, {"negative-subnormal", 0x80000001u}, {"minus-one", 0xBF800000u},
        {"negative-nan-payload", 0xFF812345u},
    };
    for (const auto& [name, b] : bad)
        r.invalid(std::string("confidence-") + name, {"R3", "L5"}, std::string("a token confidence outside [0, 1] (") + name + ")",
                  edit(with_confs({0.25f, 0.5f}), [b = b](raw::Canon& k) { k.docs[0].tokens->conf[1] = b; }),
                  "tokens.confidence-out-of-range");
}

}  // namespace ond::corpus::gen
