// Shared helpers for the codec's unit tests (and the cli tests): a small byte builder that writes the format's
// primitives straight from the spec (not through the codec), container framing with an
// independent CRC-32, and assertions that run every reading path on the same bytes.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ond/hex.hpp"
#include "ond/inspect.hpp"
#include "ond/ond.hpp"
#include "ref_crc32.hpp"

namespace ond::test {

// ---- bytes ------------------------------------------------------------------------------

inline std::uint32_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
inline float bits_float(std::uint32_t u) { return std::bit_cast<float>(u); }

// Appends the format's primitives. Every method returns *this so fields chain in spec order;
// `size()` before a call gives the offset of the field about to be written.
class B {
public:
    B() = default;
    B(std::initializer_list<std::uint8_t> raw) : b_(raw) {}

    B& u8(std::uint32_t v) {
        b_.push_back(static_cast<std::uint8_t>(v));
        return *this;
    }
    B& raw(std::initializer_list<std::uint8_t> bytes) {
        b_.insert(b_.end(), bytes.begin(), bytes.end());
        return *this;
    }
    B& raw(const std::vector<std::uint8_t>& bytes) {
        b_.insert(b_.end(), bytes.begin(), bytes.end());
        return *this;
    }
    B& raw(std::string_view bytes) {
        for (char c : bytes) b_.push_back(static_cast<std::uint8_t>(c));
        return *this;
    }
    B& append(const B& other) { return raw(other.b_); }
    B& u16(std::uint32_t v) { return u8(v & 0xFF).u8((v >> 8) & 0xFF); }
    B& u32(std::uint32_t v) { return u8(v & 0xFF).u8((v >> 8) & 0xFF).u8((v >> 16) & 0xFF).u8(v >> 24); }
    // Minimal LEB128.
    B& varint(std::uint64_t v) {
        do {
            std::uint8_t byte = static_cast<std::uint8_t>(v & 0x7F);
            v >>= 7;
            if (v) byte |= 0x80;
            b_.push_back(byte);
        } while (v);
        return *this;
    }
    // Zig-zag over 32 bits, then LEB128.
    B& svarint(std::int32_t v) {
        const std::uint32_t u = (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
        return varint(u);
    }
    B& f32(float f) { return u32(float_bits(f)); }
    // A string stored as UTF-8 (flag 0): varint h = 2 * bytes, then the bytes.
    B& str(std::string_view utf8) {
        varint(static_cast<std::uint64_t>(utf8.size()) << 1);
        return raw(utf8);
    }
    // A string stored as UTF-16LE code units (flag 1).
    B& str16(std::u16string_view units) {
        varint((static_cast<std::uint64_t>(units.size()) * 2) << 1 | 1);
        for (char16_t u : units) u16(u);
        return *this;
    }
    // A section: id, u32 length, content.
    B& section(std::uint32_t id, const B& content) {
        u8(id).u32(static_cast<std::uint32_t>(content.size()));
        return append(content);
    }

    std::size_t size() const { return b_.size(); }
    const std::vector<std::uint8_t>& vec() const { return b_; }
    std::vector<std::uint8_t>& vec() { return b_; }
    std::uint8_t& operator[](std::size_t i) { return b_[i]; }
    Bytes bytes() const { return as_bytes(b_.data(), b_.size()); }

private:
    std::vector<std::uint8_t> b_;
};

// ---- containers ---------------------------------------------------------------------------

inline constexpr std::size_t kHeader = 12;
inline constexpr std::size_t kFrame = 5;  // section id + u32 length

// Builds a container: header, then sections appended in the order given. `add` returns the
// absolute offset of the section's first content byte, `at()` the absolute offset of the next
// byte to be appended to the body.
class Ctr {
public:
    explicit Ctr(std::string_view magic = "ONDC") : magic_(magic) {}

    std::size_t add(std::uint32_t id, const B& content) {
        body_.section(id, content);
        return kHeader + body_.size() - content.size();
    }
    // Raw bytes appended to the body (for frames that are deliberately broken).
    std::size_t add_raw(const B& bytes) {
        std::size_t at = kHeader + body_.size();
        body_.append(bytes);
        return at;
    }
    std::size_t at() const { return kHeader + body_.size(); }
    B& body() { return body_; }

    // The whole container. `length` overrides the declared body length, `version`/`flags` the
    // header fields; with crc, a trailer of the bytes before it is appended (flag bit 0 is set
    // unless `flags` is given).
    std::vector<std::uint8_t> build(bool crc = false, std::optional<std::uint32_t> length = {},
                                    std::uint32_t version = 1, std::optional<std::uint32_t> flags = {}) const {
        B out;
        out.raw(magic_);
        out.u16(version);
        out.u16(flags ? *flags : (crc ? 1u : 0u));
        out.u32(length ? *length : static_cast<std::uint32_t>(body_.size()));
        out.append(body_);
        if (crc) out.u32(ref_crc32(out.vec().data(), out.size()));
        return out.vec();
    }

private:
    std::string magic_;
    B body_;
};

inline Bytes view(const std::vector<std::uint8_t>& v) { return as_bytes(v.data(), v.size()); }

// ---- section content builders (spec order, minimal varints) ----------------------------

// String table content: count, then each string as UTF-8.
inline B strings_content(std::initializer_list<std::string_view> strs) {
    B b;
    b.varint(strs.size());
    for (auto s : strs) b.str(s);
    return b;
}
// Text content, UTF-8 (encoding byte 0).
inline B text_content(std::string_view utf8) { return B{}.u8(0).raw(utf8); }

struct Tok {
    std::uint32_t gap = 0;
    std::uint32_t len = 1;
    std::array<std::uint32_t, 6> attrs{};  // norm, lemma, pos, tag, dep, morph
    std::int32_t head_delta = 0;
    std::uint8_t sent = 0;
};

// Offsets (relative to the section content) of the fields of a tokens section built by
// tokens_content, so that tests can name the exact byte a fault is at.
struct TokLayout {
    std::size_t count = 0;
    std::vector<std::size_t> gap, len;
    std::array<std::vector<std::size_t>, 6> attrs;
    std::vector<std::size_t> head;
    std::size_t sent = 0;  // first sentence byte
    std::size_t mode = 0;
    std::vector<std::size_t> conf;
    std::size_t end = 0;
};

// Tokens content. With confs, mode 1 and one float per token; otherwise mode 0.
inline B tokens_content(const std::vector<Tok>& toks, const std::optional<std::vector<float>>& confs = {},
                        TokLayout* layout = nullptr) {
    TokLayout l;
    B b;
    l.count = b.size();
    b.varint(toks.size());
    for (const auto& t : toks) {
        l.gap.push_back(b.size());
        b.varint(t.gap);
        l.len.push_back(b.size());
        b.varint(t.len);
    }
    for (std::size_t c = 0; c < 6; ++c)
        for (const auto& t : toks) {
            l.attrs[c].push_back(b.size());
            b.varint(t.attrs[c]);
        }
    for (const auto& t : toks) {
        l.head.push_back(b.size());
        b.svarint(t.head_delta);
    }
    l.sent = b.size();
    for (std::size_t i = 0; i < toks.size(); i += 4) {
        std::uint32_t byte = 0;
        for (std::size_t k = 0; k < 4 && i + k < toks.size(); ++k) byte |= static_cast<std::uint32_t>(toks[i + k].sent & 3) << (2 * k);
        b.u8(byte);
    }
    l.mode = b.size();
    if (confs) {
        b.u8(1);
        for (float f : *confs) {
            l.conf.push_back(b.size());
            b.f32(f);
        }
    } else {
        b.u8(0);
    }
    l.end = b.size();
    if (layout) *layout = l;
    return b;
}

struct Ent {
    std::uint32_t gap = 0, len = 1, label = 1;
    float conf = 1.0f;
};
inline B entities_content(const std::vector<Ent>& ents) {
    B b;
    b.varint(ents.size());
    for (const auto& e : ents) b.varint(e.gap).varint(e.len).varint(e.label).f32(e.conf);
    return b;
}

struct Cat {
    std::uint32_t label = 1;
    float score = 1.0f;
};
inline B categories_content(const std::vector<Cat>& cats) {
    B b;
    b.varint(cats.size());
    for (const auto& c : cats) b.varint(c.label).f32(c.score);
    return b;
}

struct Sp {
    std::uint32_t start = 0, len = 1, label = 1;
    float conf = 1.0f;
};
struct Grp {
    std::uint32_t name = 1;
    std::vector<Sp> spans;
};
inline B span_groups_content(const std::vector<Grp>& groups) {
    B b;
    b.varint(groups.size());
    for (const auto& g : groups) {
        b.varint(g.name).varint(g.spans.size());
        for (const auto& s : g.spans) b.varint(s.start).varint(s.len).varint(s.label).f32(s.conf);
    }
    return b;
}

// The document most tests start from: text "Hello world", two tokens (0..5, 6..11), no
// attributes, token 0 is the root and the head of token 1, sentence start + inside, mode 0.
// One record of an ONDB (sections 2 and 3, and 4 when asked), and an ONDB of records with a
// string table: the bins the bin reader and index tests build.
inline B bin_record(std::string_view text, const std::vector<Tok>& toks, const std::vector<Ent>& ents = {}, bool with_ents = false) {
    B r;
    r.section(2, text_content(text));
    r.section(3, tokens_content(toks));
    if (with_ents) r.section(4, entities_content(ents));
    return r;
}

inline Ctr bin_container(const std::vector<B>& records, std::initializer_list<std::string_view> strs = {"PER", "LOC"}) {
    Ctr c("ONDB");
    c.add(1, strings_content(strs));
    B s5;
    s5.u32(static_cast<std::uint32_t>(records.size()));
    for (const auto& r : records) s5.u32(static_cast<std::uint32_t>(r.size())).append(r);
    c.add(5, s5);
    return c;
}

inline std::vector<Tok> hello_tokens() {
    Tok a{0, 5, {}, 0, 1};
    Tok b{1, 5, {}, -1, 2};
    return {a, b};
}

// An ONDC with the given string table, text "Hello world" and the two hello tokens, to which a
// test appends its own sections. Offsets of the pieces are recorded.
struct HelloOndc {
    Ctr c{"ONDC"};
    std::size_t strings_at = 0, text_at = 0, tokens_at = 0;
    TokLayout tok;
    explicit HelloOndc(std::initializer_list<std::string_view> strs = {}) {
        strings_at = c.add(1, strings_content(strs));
        text_at = c.add(2, text_content("Hello world"));
        tokens_at = c.add(3, tokens_content(hello_tokens(), {}, &tok));
    }
};

// ---- assertions -----------------------------------------------------------------------------

struct Caught {
    std::string code;
    std::uint64_t offset = 0;
    std::string what;
};

inline std::optional<Caught> catch_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return Caught{std::string(e.code()), e.offset(), e.what()};
    }
    return std::nullopt;
}

// Runs every buffer reading path on the bytes (decode, validate, inspect and, for ONDB,
// DocBinReader record by record) and checks that each refuses them with this code and offset.
inline ::testing::AssertionResult Rejects(const std::vector<std::uint8_t>& bytes, std::string_view code,
                                          std::uint64_t offset) {
    const Bytes in = view(bytes);
    struct Path {
        const char* name;
        std::function<void()> run;
    };
    std::vector<Path> paths = {
        {"decode", [&] { (void)decode(in); }},
        {"validate", [&] { (void)validate(in); }},
        {"inspect", [&] { inspect(in, [](const InspectEvent&) {}); }},
    };
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "ONDB", 4) == 0)
        paths.push_back({"DocBinReader", [&] {
                             DocBinReader r(in);
                             Doc d;
                             while (r.next(d)) {
                             }
                         }});
    for (const auto& p : paths) {
        auto got = catch_error(p.run);
        if (!got) return ::testing::AssertionFailure() << p.name << " accepted the input; expected " << code << " at " << offset;
        if (got->code != code || got->offset != offset)
            return ::testing::AssertionFailure() << p.name << ": expected " << code << " at " << offset << ", got " << got->code
                                                 << " at " << got->offset << " (" << got->what << ")";
    }
    return ::testing::AssertionSuccess();
}

// Byte-exact comparison that reports the first difference with a little hex context.
inline ::testing::AssertionResult SameBytes(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
    if (got == want) return ::testing::AssertionSuccess();
    std::size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
    auto hex = [&](const std::vector<std::uint8_t>& v) {
        std::string s;
        const std::size_t from = i >= 8 ? i - 8 : 0;
        for (std::size_t k = from; k < v.size() && k < i + 16; ++k) {
            if (k == i) s += '[';
            hex::append(s, v[k], 2);
            if (k == i) s += ']';
            s += ' ';
        }
        return s;
    };
    return ::testing::AssertionFailure() << "bytes differ at offset " << i << " (sizes " << got.size() << " and "
                                         << want.size() << ")\n  got:  " << hex(got) << "\n  want: " << hex(want);
}

// Decodes (and validates: same verdict) bytes that must be accepted.
inline Container Accept(const std::vector<std::uint8_t>& bytes) {
    const Bytes in = view(bytes);
    EXPECT_NO_THROW((void)validate(in));
    return decode(in);
}

// A writer refusal: the exact content.* code and path, no offset.
inline ::testing::AssertionResult Refuses(const Container& c, std::string_view code, std::string_view path) {
    try {
        (void)encode(c);
    } catch (const Error& e) {
        if (e.code() != code || e.path() != path)
            return ::testing::AssertionFailure() << "expected " << code << " at " << path << ", got " << e.code() << " at "
                                                 << e.path() << " (" << e.what() << ")";
        if (e.offset() != no_offset) return ::testing::AssertionFailure() << "a writer error carries an offset: " << e.offset();
        try {
            check_writable(c);
        } catch (const Error& e2) {
            if (e2.code() != code || e2.path() != path)
                return ::testing::AssertionFailure() << "check_writable disagrees with encode: " << e2.what();
            return ::testing::AssertionSuccess();
        }
        return ::testing::AssertionFailure() << "check_writable accepted what encode refused";
    }
    return ::testing::AssertionFailure() << "encode accepted the content; expected " << code << " at " << path;
}

inline std::vector<std::uint8_t> to_u8(const std::vector<std::byte>& v) {
    std::vector<std::uint8_t> out(v.size());
    if (!v.empty()) std::memcpy(out.data(), v.data(), v.size());
    return out;
}

// The canonical bytes of content, as a plain byte vector.
inline std::vector<std::uint8_t> Encode(const Container& c) { return to_u8(encode(c)); }

// ---- content builders ----------------------------------------------------------------------

// A one-document ONDC container holding the text, with no tokens yet.
inline Container ondc(std::string_view text_wtf8) {
    Container c;
    c.format = Format::ondc;
    Doc d;
    d.set_text(text_wtf8);
    c.docs.push_back(d);
    return c;
}

// Appends a token with its attributes given as strings (interned into the container's store).
inline void add_token(Container& c, Doc& d, std::uint32_t start, std::uint32_t length, std::int32_t head,
                      std::array<std::string_view, 6> attrs = {}, Sentence sent = Sentence::unset, float conf = 1.0f) {
    auto& t = d.tokens;
    t.start.push_back(start);
    t.length.push_back(length);
    for (std::size_t k = 0; k < 6; ++k) t.attrs[k].push_back(c.strings.intern(attrs[k]));
    t.head.push_back(head);
    t.sent.push_back(sent);
    t.conf.push_back(conf);
}

// The same for document `doc` already in the container (the container's documents are read-only
// slices: this copies it out, appends the token and puts it back).
inline void add_token(Container& c, std::size_t doc, std::uint32_t start, std::uint32_t length, std::int32_t head,
                      std::array<std::string_view, 6> attrs = {}, Sentence sent = Sentence::unset, float conf = 1.0f) {
    c.docs.edit(doc, [&](Doc& d) { add_token(c, d, start, length, head, attrs, sent, conf); });
}

}  // namespace ond::test
