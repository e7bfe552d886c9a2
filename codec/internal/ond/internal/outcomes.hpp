// What the codec makes of some bytes, through the non-throwing API only (ond/result.hpp and the
// listings), in lines that pin the outcome down: for a refusal its code, offset, path and
// detail; for an acceptance a digest of what was read. Compiled against either codec: with
// exceptions against ond::codec, with -fno-exceptions against ond::codec_noexcept (or its
// renamed copy in the `noexcept` fuzz harness), so everything here has internal linkage: two
// translation units of one program may compile it against different codecs.
//
// The bytes are read by: try_validate; try_decode, then try_encode and try_pack into a bin of
// what it decoded; try_decode_into a reused container; a DocBinReader (try_open, try_next per
// record), two stepping with try_skip and try_next in turn, one try_skip past every record; a
// BinIndex (try_index, try_decode of all records, try_decode_into of each); a StreamReader from
// memory (try_next per container) and one fed in small pieces (try_skip_next); the listing and
// the stream listings. After a refusal a reader is asked once more (a reader that failed stays
// failed: the second answer is printed too).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ond/listing.hpp"
#include "ond/ond.hpp"

namespace {

// FNV-1a, 64 bits.
class Fnv {
public:
    void bytes(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i) {
            h_ ^= p[i];
            h_ *= 0x100000001b3ULL;
        }
    }
    void u64(std::uint64_t v) {
        unsigned char b[8];
        for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
        bytes(b, sizeof b);
    }
    void f32(float f) { u64(std::bit_cast<std::uint32_t>(f)); }
    void str(std::string_view s) {  // length first, so that "ab","c" and "a","bc" differ
        u64(s.size());
        bytes(s.data(), s.size());
    }
    std::uint64_t value() const { return h_; }

private:
    std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

std::string hex64(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string fnv_of(ond::Bytes b) {
    Fnv h;
    h.bytes(b.data(), b.size());
    return hex64(h.value());
}

// A detail or path as one printable line: bytes outside 0x20-0x7e, and the backslash, escaped.
std::string escaped(std::string_view s) {
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += ch;
        } else {
            char buf[5];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out;
}

std::string describe(const ond::Error& e) {
    std::string s = "err ";
    s += e.code();
    s += " offset=";
    s += e.offset() == ond::no_offset ? std::string("none") : std::to_string(e.offset());
    s += " path=" + escaped(e.path());
    s += " detail=" + escaped(e.detail());
    return s;
}

// One document by value: its text, every token column (strings by value, floats by bits), its
// entities, categories and span groups.
void digest_doc(Fnv& h, const ond::DocSlice& d, const ond::StringStore& strings) {
    h.str(d.text);
    h.u64(d.text_utf16_length);
    const ond::TokenSlice& t = d.tokens;
    h.u64(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
        h.u64(t.start[i]);
        h.u64(t.length[i]);
        for (const auto& column : t.attrs) h.str(strings.view(column[i]));
        h.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(t.head[i])));
        h.u64(static_cast<std::uint64_t>(t.sent[i]));
        h.f32(t.conf[i]);
    }
    h.u64(d.has_ents);
    h.u64(d.ents.size());
    for (const ond::Entity& e : d.ents) {
        h.u64(e.start);
        h.u64(e.length);
        h.str(strings.view(e.label));
        h.f32(e.conf);
    }
    h.u64(d.has_cats);
    h.u64(d.cats.size());
    for (const ond::Category& c : d.cats) {
        h.str(strings.view(c.label));
        h.f32(c.score);
    }
    h.u64(d.spans.size());
    for (const ond::SpanGroupSlice g : d.spans) {
        h.str(strings.view(g.name));
        h.u64(g.spans.size());
        for (const ond::Span& s : g.spans) {
            h.u64(s.start);
            h.u64(s.length);
            h.str(strings.view(s.label));
            h.f32(s.conf);
        }
    }
}

std::string digest_doc(const ond::DocRef& d) {
    Fnv h;
    digest_doc(h, d.slice(), d.strings());
    return "tokens=" + std::to_string(d.size()) + " fnv=" + hex64(h.value());
}

// A whole container: format, crc, its string table in order, its documents.
std::string digest(const ond::Container& c) {
    Fnv h;
    h.u64(static_cast<std::uint64_t>(c.format));
    h.u64(c.crc);
    h.u64(c.strings.size());
    for (std::size_t i = 0; i < c.strings.size(); ++i) h.str(c.strings.view(static_cast<ond::StringId>(i)));
    std::uint64_t tokens = 0;
    for (const ond::DocSlice d : c.docs) {
        digest_doc(h, d, c.strings);
        tokens += d.tokens.size();
    }
    return std::string(ond::to_string(c.format)) + " crc=" + std::to_string(c.crc) + " docs=" + std::to_string(c.docs.size()) +
           " tokens=" + std::to_string(tokens) + " strings=" + std::to_string(c.strings.size()) + " fnv=" + hex64(h.value());
}

// Appends "<name> <stage>: <what>" lines to a text.
class Out {
public:
    Out(std::string& text, std::string_view name) : text_(text), name_(name) {}
    void line(std::string_view stage, const std::string& what) {
        text_ += name_;
        text_ += ' ';
        text_ += stage;
        text_ += ": ";
        text_ += what;
        text_ += '\n';
    }

private:
    std::string& text_;
    std::string_view name_;
};

std::string outcome(const ond::Status& s, const std::string& ok) { return s ? "ok " + ok : describe(s.error()); }

// What a reader says when asked again after a refusal.
template <class T>
std::string again(const ond::Result<T>& first, const ond::Result<T>& second) {
    if (!second) {
        const ond::Error& a = first.error();
        const ond::Error& b = second.error();
        if (a.errc() == b.errc() && a.offset() == b.offset() && a.path() == b.path() && a.detail() == b.detail())
            return "same error";
        return describe(b);
    }
    return "ok " + std::to_string(*second);
}

// The bin, record by record.
void read_bin(Out& out, ond::Bytes b) {
    ond::Result<ond::DocBinReader> r = ond::try_open(b);
    if (!r) return out.line("bin", describe(r.error()));
    out.line("bin", "open count=" + std::to_string(r->count()) + " crc=" + std::to_string(r->crc()) +
                        " strings=" + std::to_string(r->strings().size()));
    std::size_t records = 0;
    for (;;) {
        ond::Result<bool> more = ond::try_next(*r);
        if (!more) {
            out.line("bin", "after " + std::to_string(records) + " records " + describe(more.error()));
            out.line("bin", "again " + again(more, ond::try_next(*r)));
            return;
        }
        if (!*more) break;
        const ond::RecordView& rec = r->doc();
        out.line("bin", "record " + std::to_string(rec.index()) + " " + digest_doc(rec.view()));
        ++records;
    }
    out.line("bin", "end records=" + std::to_string(records));
}

// The bin, stepping past one record (framing only) and reading one in turn, skipping first or
// reading first, over a copy of the bytes the reader keeps; then stepping past all at once.
void skip_bin(Out& out, ond::Bytes b) {
    for (const bool skip_first : {true, false}) {
        ond::Result<ond::DocBinReader> r = ond::try_open(std::vector<std::byte>(b.begin(), b.end()));
        if (!r) return;  // the same refusal as read_bin's
        std::size_t skipped = 0, read = 0;
        Fnv h;
        std::string end;
        for (bool skip = skip_first; end.empty(); skip = !skip) {
            if (skip) {
                ond::Result<std::size_t> s = ond::try_skip(*r, 1);
                if (!s) {
                    end = describe(s.error());
                } else if (*s == 0) {
                    end = "end";
                } else {
                    ++skipped;
                }
            } else {
                ond::Result<bool> more = ond::try_next(*r);
                if (!more) {
                    end = describe(more.error());
                } else if (!*more) {
                    end = "end";
                } else {
                    h.u64(r->doc().index());
                    digest_doc(h, r->doc().view().slice(), r->strings());
                    ++read;
                }
            }
        }
        out.line(skip_first ? "bin-skip-next" : "bin-next-skip",
                 "skipped=" + std::to_string(skipped) + " read=" + std::to_string(read) + " fnv=" + hex64(h.value()) + " " + end);
    }

    ond::Result<ond::DocBinReader> all = ond::try_open(b);
    if (!all) return;
    ond::Result<std::size_t> passed = ond::try_skip(*all, static_cast<std::size_t>(-1));
    out.line("bin-skip-all", passed ? "passed=" + std::to_string(*passed) : describe(passed.error()));
    if (passed) {
        ond::Result<bool> more = ond::try_next(*all);
        out.line("bin-skip-all", "then " + (more ? std::string(*more ? "record" : "end") : describe(more.error())));
    }
}

// The bin through an index: every record at once, then each one into a reused container.
void index_bin(Out& out, ond::Bytes b, ond::Container& reuse) {
    ond::Result<ond::BinIndex> index = ond::try_index(b);
    if (!index) return out.line("index", describe(index.error()));
    Fnv frames;
    for (const ond::RecordSpan& s : index->records()) {
        frames.u64(s.offset);
        frames.u64(s.length);
    }
    out.line("index", "records=" + std::to_string(index->size()) + " crc=" + std::to_string(index->crc()) +
                          " frames=" + hex64(frames.value()));
    ond::Result<ond::Container> all = ond::try_decode(*index, 0, index->size());
    out.line("index", "all " + (all ? "ok " + digest(*all) : describe(all.error())));
    for (std::size_t i = 0; i < index->size(); ++i) {
        ond::Status s = ond::try_decode_into(*index, i, i + 1, reuse);
        out.line("index", "record " + std::to_string(i) + " " + (s ? "ok " + digest(reuse) : describe(s.error())));
    }
}

// The stream from memory, container by container into one reused container.
void read_stream(Out& out, ond::Bytes b, ond::Container& reuse) {
    ond::StreamReader r(b);
    for (;;) {
        ond::Result<bool> more = ond::try_next(r, reuse);
        if (!more) {
            out.line("stream", "after " + std::to_string(r.containers_read()) + " containers " + describe(more.error()));
            out.line("stream", "again " + again(more, ond::try_next(r, reuse)));
            return;
        }
        if (!*more) break;
        out.line("stream", "container " + std::to_string(r.containers_read()) + " offset=" + std::to_string(r.offset()) + " " +
                               digest(reuse));
    }
    out.line("stream", "end containers=" + std::to_string(r.containers_read()) + " offset=" + std::to_string(r.offset()));
}

// A byte source handing out the bytes in pieces of 1, 7, 64 and 4093 bytes in turn.
ond::ReadFn pieces(ond::Bytes b) {
    return [b, pos = std::size_t{0}, turn = std::size_t{0}](std::byte* dst, std::size_t max) mutable {
        static constexpr std::size_t sizes[] = {1, 7, 64, 4093};
        const std::size_t n = std::min({max, sizes[turn++ % 4], b.size() - pos});
        if (n) std::memcpy(dst, b.data() + pos, n);
        pos += n;
        return n;
    };
}

// The stream as it arrives in pieces, checked only.
void skip_stream(Out& out, ond::Bytes b) {
    ond::StreamReader r(pieces(b));
    ond::StreamReader::Skipped checked;
    for (;;) {
        ond::Result<bool> more = ond::try_skip_next(r, checked);
        if (!more) {
            out.line("stream-skip", "after " + std::to_string(r.containers_read()) + " containers " + describe(more.error()));
            out.line("stream-skip", "again " + again(more, ond::try_skip_next(r)));
            return;
        }
        if (!*more) break;
        out.line("stream-skip", "container " + std::to_string(r.containers_read()) + " offset=" + std::to_string(r.offset()) +
                                    " tokens=" + std::to_string(checked.tokens) + " crc=" + std::to_string(checked.crc));
    }
    out.line("stream-skip", "end containers=" + std::to_string(r.containers_read()) + " offset=" + std::to_string(r.offset()));
}

std::string listing_outcome(bool ok, const std::string& text) {
    const auto lines = std::count(text.begin(), text.end(), '\n');
    std::string s = "ok=" + std::to_string(ok) + " lines=" + std::to_string(lines) +
                    " fnv=" + fnv_of(ond::as_bytes(text.data(), text.size()));
    if (!ok && text.size() > 1) {  // the fault's line, last
        const std::size_t from = text.rfind('\n', text.size() - 2);
        const std::size_t begin = from == std::string::npos ? 0 : from + 1;
        s += " last=" + escaped(std::string_view(text).substr(begin, text.size() - 1 - begin));
    }
    return s;
}

void listings(Out& out, ond::Bytes b) {
    bool ok = false;
    std::string text = ond::format_listing(b, ok);
    out.line("listing", listing_outcome(ok, text));
    text = ond::format_stream_listing(b, ok);
    out.line("stream-listing", listing_outcome(ok, text));
    std::string arrived;
    ok = ond::write_stream_listing(pieces(b), [&](std::string_view piece) { arrived.append(piece); });
    out.line("stream-listing-arriving", listing_outcome(ok, arrived));
}

struct Reused {
    ond::Container decode, index, stream;
};

// Appends the lines of `b`, named `name`, to `text`. The reused containers keep what the last
// call left in them.
void characterise(std::string& text, std::string_view name, ond::Bytes b, Reused& reused) {
    Out out(text, name);
    out.line("bytes", std::to_string(b.size()) + " fnv=" + fnv_of(b));

    ond::Result<ond::Summary> v = ond::try_validate(b);
    out.line("validate", v ? "ok " + ond::to_string(*v) + " docs=" + std::to_string(v->docs) +
                                 " tokens=" + std::to_string(v->tokens) + " strings=" + std::to_string(v->strings)
                           : describe(v.error()));

    ond::Result<ond::Container> c = ond::try_decode(b);
    out.line("decode", c ? "ok " + digest(*c) : describe(c.error()));
    if (c) {
        ond::Result<std::vector<std::byte>> enc = ond::try_encode(*c);
        out.line("encode", enc ? "ok bytes=" + std::to_string(enc->size()) + " fnv=" + fnv_of(*enc) +
                                     " same=" + std::to_string(std::equal(enc->begin(), enc->end(), b.begin(), b.end()))
                               : describe(enc.error()));
        ond::Result<ond::Container> packed = ond::try_pack(std::span<const ond::Container>(&*c, 1), ond::Format::ondb);
        out.line("pack", packed ? "ok " + digest(*packed) : describe(packed.error()));
        if (packed) {
            std::vector<std::byte> bin;
            ond::Status s = ond::try_encode_append(*packed, bin);
            out.line("pack-encode", outcome(s, "bytes=" + std::to_string(bin.size()) + " fnv=" + fnv_of(bin)));
        }
    }

    ond::Status into = ond::try_decode_into(b, reused.decode);
    out.line("decode-into", into ? "ok " + digest(reused.decode)
                                 : describe(into.error()) + " docs-left=" + std::to_string(reused.decode.docs.size()));

    read_bin(out, b);
    skip_bin(out, b);
    index_bin(out, b, reused.index);
    read_stream(out, b, reused.stream);
    skip_stream(out, b);
    listings(out, b);
}

// The lines of one input on its own (fresh reused containers), named "input". Inline: a unit
// that does not call it (outcomes_main.cpp) gets no unused-function warning.
inline std::string describe_outcomes(std::span<const std::byte> bytes) {
    std::string text;
    Reused reused;
    characterise(text, "input", bytes, reused);
    return text;
}

}  // namespace
