// StreamReader::skip_next's memory on a large stream, measured with the tests' counting operator
// new (tests/support/alloc_counter.hpp: its own program, as the counter replaces the global
// operator new; it counts usable sizes, within the constant below). A stream of three 1,000,000-
// token containers (about 21 MB each, with CRC) must validate holding at most the string table's
// bytes, one and a half times the largest other section (a buffer that grows with the bytes that
// arrive, R26, holds its old and new blocks while it grows; its capacities are the section's
// length halved, so the last growth holds half and all of it) and a constant; that is less than the 2.3 times
// the container the whole-container read held. next() on the same stream gives the same count,
// and a damaged copy the same error; a copy cut after the damage gives skip_next the fault and
// next() stream.truncated.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "alloc_counter.hpp"
#include "ond/ond.hpp"

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    if (!ok) ++failures;
}

// One document of n tokens over words of 3 to 9 letters, with all six attributes and heads.
ond::Container big(std::uint32_t n) {
    ond::Container c;
    c.crc = true;
    ond::Doc d;
    std::string text;
    std::vector<std::string> words;
    for (int w = 0; w < 4000; ++w) {
        std::string s;
        for (int k = 0, len = 3 + w % 7; k < len; ++k) s += static_cast<char>('a' + (w * 7 + k * 13) % 26);
        words.push_back(s + std::to_string(w));
    }
    d.tokens.reserve(n);
    std::uint32_t x = 12345;
    for (std::uint32_t i = 0; i < n; ++i) {
        x = x * 1103515245u + 12345u;
        const std::string& w = words[(x >> 8) % words.size()];
        d.tokens.start.push_back(static_cast<std::uint32_t>(text.size()));
        d.tokens.length.push_back(static_cast<std::uint32_t>(w.size()));
        text += w;
        text += ' ';
        const auto id = c.strings.intern(w);
        for (std::size_t k = 0; k < ond::token_column_count; ++k)
            d.tokens.attrs[k].push_back(k == 2 ? c.strings.intern(k % 2 ? "NOUN" : "VERB") : id);
        d.tokens.head.push_back(static_cast<std::int32_t>(i - i % 10));
        d.tokens.sent.push_back(i % 10 == 0 ? ond::Sentence::start : ond::Sentence::inside);
        d.tokens.conf.push_back(1.0f);
    }
    d.set_text(text);
    c.docs.push_back(d);
    return c;
}

ond::ReadFn source(const std::vector<std::byte>& s, std::size_t& pos) {
    return [&s, &pos](std::byte* dst, std::size_t max) {
        const std::size_t n = std::min<std::size_t>({max, s.size() - pos, 65536});
        std::memcpy(dst, s.data() + pos, n);
        pos += n;
        return n;
    };
}

struct Outcome {
    std::uint64_t count = 0;
    std::string error;  // "code@offset"
};

template <class F>
Outcome run(const std::vector<std::byte>& stream, F step) {
    std::size_t pos = 0;
    ond::StreamReader r(source(stream, pos));
    Outcome o;
    try {
        while (step(r)) ++o.count;
    } catch (const ond::Error& e) {
        o.error = std::string(e.code()) + "@" + std::to_string(e.offset());
    }
    return o;
}

}  // namespace

int main() {
    std::vector<std::byte> stream;
    std::size_t container = 0, table = 0, largest = 0;
    {
        const std::vector<std::byte> one = ond::encode(big(1'000'000));
        container = one.size();
        // Section sizes: walk the frames after the 12-byte header.
        for (std::size_t at = 12; at + 5 <= one.size() - 4;) {
            std::uint32_t len;
            std::memcpy(&len, one.data() + at + 1, 4);
            if (static_cast<std::uint8_t>(one[at]) == 1)
                table = len;
            else
                largest = std::max<std::size_t>(largest, len);
            at += 5 + len;
        }
        for (int k = 0; k < 3; ++k) stream.insert(stream.end(), one.begin(), one.end());
    }
    std::printf("container %zu bytes: string table %zu, largest other section %zu\n", container, table, largest);

    std::size_t used = 0;
    Outcome v;
    {
        const ond::alloc::PeakScope scope;
        v = run(stream, [](ond::StreamReader& r) { return r.skip_next(); });
        used = scope.peak();
    }
    std::printf("skip_next: peak %zu bytes above the start (%.2f x the container)\n", used,
                static_cast<double>(used) / static_cast<double>(container));
    check(v.count == 3 && v.error.empty(), "skip_next validates the three containers");
    const std::size_t bound = table + largest + largest / 2 + (std::size_t{64} << 10);
    check(used <= bound, "peak <= table + 1.5 x largest section + 64 KiB (" + std::to_string(bound) + ")");
    check(used < container + largest, "peak below the container plus its largest section");

    const Outcome d = run(stream, [](ond::StreamReader& r) { return r.next().has_value(); });
    check(d.count == 3 && d.error.empty(), "next() reads the same three");

    // Faults: the same verdict from skip_next and next() when the container is all there; cut
    // after a fault, skip_next (arrival order) reports the fault and next() (the size first)
    // stream.truncated.
    std::vector<std::byte> bad = stream;
    bad[container + 12 + 5 + 3] = std::byte{0xFF};  // not UTF-8: inside the second container's string table
    std::vector<std::byte> cut = bad;
    cut.resize(container + container / 2);  // ... and the stream ends inside that container
    std::vector<std::byte> crc = stream;
    crc[2 * container + container / 2] ^= std::byte{0x01};  // a byte of the third container's text or tokens
    for (const auto* s : {&bad, &crc}) {
        const Outcome a = run(*s, [](ond::StreamReader& r) { return r.skip_next(); });
        const Outcome b = run(*s, [](ond::StreamReader& r) { return r.next().has_value(); });
        check(!a.error.empty() && a.error == b.error && a.count == b.count,
              "same verdict: skip_next " + a.error + " after " + std::to_string(a.count) + ", next " + b.error + " after " +
                  std::to_string(b.count));
    }
    const Outcome whole = run(bad, [](ond::StreamReader& r) { return r.skip_next(); });
    const Outcome cut_skipped = run(cut, [](ond::StreamReader& r) { return r.skip_next(); });
    const Outcome cut_next = run(cut, [](ond::StreamReader& r) { return r.next().has_value(); });
    check(cut_skipped.error == whole.error && cut_skipped.count == 1,
          "skip_next of a stream cut after a fault: the fault, " + cut_skipped.error + " (uncut: " + whole.error + ")");
    check(cut_next.error.rfind("stream.truncated@", 0) == 0 && cut_next.count == 1,
          "next() of a stream cut after a fault: stream.truncated, " + cut_next.error);
    return failures == 0 ? 0 : 1;
}
