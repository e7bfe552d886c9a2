// Writes the harnesses' seed inputs (fuzz/seeds/<harness>/*) from a few hand-made contents,
// encoded by the canonical writer: whole containers for the container harnesses, and for each
// section harness that section's bytes followed by the context values the harness reads from
// the end of its input (see fuzz/support/provider.hpp).
//
//   ond_fuzz_make_seeds OUTDIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "ond/internal/cursor.hpp"
#include "fuzz_support.hpp"
#include "ond/ond.hpp"

namespace {

using namespace ond;
using Buf = std::vector<std::uint8_t>;
namespace fs = std::filesystem;

Buf to_buf(const std::vector<std::byte>& b) {
    Buf o(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) o[i] = static_cast<std::uint8_t>(b[i]);
    return o;
}

void write(const fs::path& dir, const std::string& name, const Buf& b) {
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Context values in the order the harness consumes them, each as `bytes` bytes.
Buf suffix(std::initializer_list<std::pair<std::uint64_t, int>> values) {
    std::vector<Buf> parts;
    for (auto [v, n] : values) {
        Buf p;
        for (int i = 0; i < n; ++i) p.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        parts.push_back(p);
    }
    Buf out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) out.insert(out.end(), it->begin(), it->end());
    return out;
}

Buf cat(Buf a, const Buf& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Sections of a body: id -> content (first occurrence).
std::map<int, Buf> sections_of(const Buf& b, std::size_t from, std::size_t to) {
    std::map<int, Buf> out;
    while (from + 5 <= to) {
        const int id = b[from];
        const std::uint32_t len = detail::Cursor::load_u32(b.data() + from + 1);
        out.emplace(id, Buf(b.begin() + static_cast<std::ptrdiff_t>(from + 5), b.begin() + static_cast<std::ptrdiff_t>(from + 5 + len)));
        from += 5 + len;
    }
    return out;
}

Doc make_doc(StringStore& s, std::string_view text, int ntok, bool ents, bool cats, bool spans) {
    Doc d;
    d.set_text(text);
    const std::uint32_t len = d.text_utf16_length();
    std::uint32_t pos = 0;
    for (int i = 0; i < ntok && pos < len; ++i) {
        const std::uint32_t l = std::min<std::uint32_t>(2, len - pos);
        d.tokens.start.push_back(pos);
        d.tokens.length.push_back(l);
        pos += l + (pos + l < len ? 1 : 0);
    }
    const std::size_t n = d.tokens.start.size();
    const char* vocab[] = {"the", "NOUN", "DET", "nsubj", "Number=Sing", "\xED\xA0\x80"};
    for (std::size_t c = 0; c < token_column_count; ++c)
        for (std::size_t i = 0; i < n; ++i) d.tokens.attrs[c].push_back((i + c) % 3 == 0 ? 0 : s.intern(vocab[(i + c) % 6]));
    for (std::size_t i = 0; i < n; ++i) {
        d.tokens.head.push_back(static_cast<std::int32_t>(i == 0 ? 0 : i - 1));
        d.tokens.sent.push_back(i == 0 ? Sentence::start : Sentence::inside);
        const float confs[] = {1.0f, 0.5f, -0.0f, std::numeric_limits<float>::denorm_min(), 0.0f};
        d.tokens.conf.push_back(ntok > 3 ? confs[i % 5] : 1.0f);
    }
    if (ents) {
        d.has_ents = true;
        if (n >= 2) d.ents.push_back(Entity{0, 2, s.intern("PER"), 0.75f});
        if (n >= 4) d.ents.push_back(Entity{3, 1, s.intern("LOC"), 1.0f});
    }
    if (cats) {
        d.has_cats = true;
        d.cats.push_back(Category{s.intern("POSITIVE"), 0.9f});
        d.cats.push_back(Category{s.intern("NEGATIVE"), 0.1f});
    }
    if (spans && n >= 2) {
        SpanGroup g{s.intern("sc"), {}};
        g.spans.push_back(Span{0, 2, s.intern("PER"), 0.5f});
        g.spans.push_back(Span{1, 1, s.intern("X"), 1.0f});
        d.spans.push_back(g);
        d.spans.push_back(SpanGroup{s.intern("empty"), {}});
    }
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const fs::path out = argv[1];
    std::vector<std::pair<std::string, Container>> contents;
    auto ondc = [&](std::string name, std::string_view text, int ntok, bool e, bool c, bool s, bool crc) {
        Container k;
        k.crc = crc;
        k.docs.push_back(make_doc(k.strings, text, ntok, e, c, s));
        contents.emplace_back(std::move(name), std::move(k));
    };
    ondc("empty", "", 0, false, false, false, false);
    ondc("ascii", "Hello big world, again.", 6, true, false, false, false);
    ondc("crc-all", "Joe met Ann in Rome.", 6, true, true, true, true);
    ondc("non-bmp", "\xF0\x9F\x98\x80 caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC", 5, true, true, false, false);
    // One token: its sentence byte is mostly padding, so a changed byte soon reaches R20's checks.
    ondc("one-token", "a", 1, false, false, false, false);
    ondc("lone-surrogate", "a\xED\xA0\x80 b \xED\xBF\xBF", 3, false, false, true, true);
    // 100 tokens in 299 units (the tokens harness's text lengths stop at 300): runs of varints
    // long enough for the widest fast paths (64-byte blocks, varint_bulk_x86.cpp), heads far apart.
    std::string words;
    for (int i = 0; i < 100; ++i) words += i ? " ab" : "ab";
    ondc("long", words, 100, true, false, false, false);
    contents.back().second.docs.edit(0, [](Doc& d) {
        for (std::int32_t i = 0; i < 100; ++i) d.tokens.head[static_cast<std::size_t>(i)] = i * 37 % 100;  // 2-byte deltas too
    });
    for (int docs : {0, 1, 3}) {
        Container k;
        k.format = Format::ondb;
        k.crc = docs == 3;
        for (int i = 0; i < docs; ++i) k.docs.push_back(make_doc(k.strings, i == 1 ? "x \xF0\x9F\x98\x80 y z" : "Some more text here", 4 + i, i != 0, false, false));
        contents.emplace_back("bin-" + std::to_string(docs), std::move(k));
    }

    const char* whole[] = {"container", "differential", "roundtrip", "doc_bin", "stream", "api", "noexcept"};
    Buf stream;
    for (auto& [name, c] : contents) {
        const Buf b = to_buf(encode(c));
        for (const char* h : whole) write(out / h, name + (c.format == Format::ondc ? ".ondc" : ".ondb"), b);
        write(out / "header", name, cat(b, suffix({{0, 1}, {0, 1}})));
        if (c.format == Format::ondc) stream = cat(stream, b);
        const std::size_t body_end = b.size() - (c.crc ? 4 : 0);
        auto secs = sections_of(b, 12, body_end);
        const std::uint32_t table_count = c.strings.size() > 1 ? static_cast<std::uint32_t>(c.strings.size() - 1) : 0;
        write(out / "string_table", name, cat(secs[1], suffix({{0, 1}})));
        if (c.format == Format::ondb) {
            write(out / "records", name, Buf(b.begin() + 12, b.begin() + static_cast<std::ptrdiff_t>(body_end)));
            continue;
        }
        const DocSlice d = c.docs[0];
        const std::uint32_t n = static_cast<std::uint32_t>(d.tokens.size());
        write(out / "text", name, cat(secs[2], suffix({{0, 1}})));
        // tokens: origin, table size (0..20), text length (0..300).
        write(out / "tokens", name, cat(secs[3], suffix({{0, 1}, {std::min<std::uint32_t>(table_count, 20), 1}, {d.text_utf16_length, 2}})));
        if (secs.count(4)) write(out / "entities", name, cat(secs[4], suffix({{0, 1}, {std::min<std::uint32_t>(table_count, 12), 1}, {n, 1}})));
        if (secs.count(6)) write(out / "categories", name, cat(secs[6], suffix({{0, 1}, {std::min<std::uint32_t>(table_count, 12), 1}})));
        if (secs.count(7)) write(out / "span_groups", name, cat(secs[7], suffix({{0, 1}, {std::min<std::uint32_t>(table_count, 12), 1}, {n, 1}})));
        // Strings: the table's strings one after another.
        Buf strings = secs[1];
        strings.erase(strings.begin());  // the count (below 128 here)
        write(out / "string", name, cat(strings, suffix({{0, 1}})));
    }
    write(out / "stream", "all-ondc.stream", stream);
    write(out / "noexcept", "all-ondc.stream", stream);  // it reads every input as a stream too
    // tokens: the largest count R17 allows (2^25) in a short section, refused for its bytes
    // (tokens.count-exceeds-bytes); one more is tokens.count-too-large.
    write(out / "tokens", "count-limit", cat(Buf{0x80, 0x80, 0x80, 0x10, 0x00, 0x01, 0x00, 0x00, 0x00}, suffix({{0, 1}, {0, 1}, {1, 2}})));
    // varints: small, 2-byte, 5-byte, overlong.
    write(out / "varint", "unsigned", cat(Buf{0x00, 0x7F, 0x80, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x80, 0x00}, suffix({{0, 1}, {0, 1}})));
    write(out / "varint", "signed", cat(Buf{0x00, 0x01, 0x02, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F}, suffix({{1, 1}, {0, 1}})));
    // writer: choices for ContentBuilder (any bytes do; these pick a few shapes).
    write(out / "writer", "zeros", Buf(16, 0));
    write(out / "writer", "ones", Buf(64, 1));
    Buf mixed;
    for (int i = 0; i < 256; ++i) mixed.push_back(static_cast<std::uint8_t>(i * 37 + 11));
    write(out / "writer", "mixed", mixed);
    write(out / "roundtrip", "choices", mixed);
    std::printf("seeds written to %s\n", out.string().c_str());
    return 0;
}
