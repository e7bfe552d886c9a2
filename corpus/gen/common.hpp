// Shared helpers of the area files: a few base documents and "base plus one change" edits.
#pragma once

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

#include "build.hpp"
#include "case.hpp"
#include "raw_doc.hpp"

namespace ond::corpus::gen {

using namespace ond::corpus::build;
namespace raw = ond::corpus::raw;
using raw::SV;
using raw::V;

// The canonical bytes of the content, from the raw writer (the generator checks they equal
// ond::encode for every valid case).
inline Buf canonical(const Container& c) { return raw::bytes(raw::canon(c)); }

// Canonical picture of `c`, changed by `f`, serialised.
inline Buf edit(const Container& c, const std::function<void(raw::Canon&)>& f) {
    raw::Canon k = raw::canon(c);
    f(k);
    return raw::bytes(k);
}

// The body's framed sections (ONDC: 1, 2, 3, ...; ONDB: 1, 5), changed by `f`; `g` may change
// the header or trailer.
inline Buf edit_sections(const Container& c, const std::function<void(raw::Sections&)>& f,
                         const std::function<void(raw::ContainerSpec&)>& g = {}) {
    raw::Canon k = raw::canon(c);
    raw::Sections s = c.format == Format::ondc ? raw::ondc_sections(k) : raw::ondb_sections(k, raw::ondb_records(k));
    f(s);
    raw::ContainerSpec spec = raw::spec_for(k);
    if (g) g(spec);
    return raw::bytes_from(spec, s);
}

// An ONDB whose records (and table) are changed by `f`.
inline Buf edit_records(const Container& c, const std::function<void(raw::Canon&, raw::RRecords&)>& f,
                        const std::function<void(raw::ContainerSpec&)>& g = {}) {
    raw::Canon k = raw::canon(c);
    raw::RRecords r = raw::ondb_records(k);
    f(k, r);
    raw::ContainerSpec spec = raw::spec_for(k);
    if (g) g(spec);
    return raw::bytes_from(spec, raw::ondb_sections(k, r));
}

// Header/trailer changes only.
inline Buf edit_spec(const Container& c, const std::function<void(raw::ContainerSpec&)>& g) {
    return edit_sections(c, [](raw::Sections&) {}, g);
}

// A copy of one-document content `c` with its document changed by `f` (ids stay valid: `f` may
// only reuse the store's ids, 0 included).
inline Container with(Container c, const std::function<void(Doc&)>& f) {
    if (c.docs.empty()) throw std::out_of_range("with: the content has no document");
    c.docs.edit(0, f);
    return c;
}

inline Buf with_byte(Buf b, std::size_t at, std::uint8_t v) {
    b.at(at) = v;
    return b;
}

inline raw::RSection* find_section(raw::Sections& s, std::uint8_t id) {
    for (auto& x : s)
        if (x.id == id) return &x;
    return nullptr;
}

inline raw::RStr rstr(Buf bytes, bool utf16) {
    raw::RStr s;
    s.bytes = std::move(bytes);
    s.utf16 = utf16;
    return s;
}

inline std::uint32_t bits(float f) { return raw::float_bits(f); }

// A short document: "Hi there." as two tokens, all columns set, one sentence.
inline Container tiny(bool crc = false) { return plain("Hi there.", crc); }

// A document with no tokens and empty text.
inline Container empty_doc(bool crc = false) {
    Container c = ondc(crc);
    add_doc(c, "");
    return c;
}

// A document of n tokens over "w0 w1 w2 ..." without attributes (so the table stays empty
// unless a case adds to it), each token its own root, one sentence.
inline Container counted(std::uint32_t n, bool crc = false) {
    std::string text;
    for (std::uint32_t i = 0; i < n; ++i) text += (i ? " w" : "w") + std::to_string(i % 10);
    return plain(text, crc, Annot{false, false, true, false, 1});
}

// The CRC trailer of a container's bytes, read as the little-endian u32 it is (R7).
inline std::uint32_t trailer_of(const Buf& b) {
    const std::size_t n = b.size();
    return std::uint32_t{b[n - 4]} | (std::uint32_t{b[n - 3]} << 8) | (std::uint32_t{b[n - 2]} << 16) |
           (std::uint32_t{b[n - 1]} << 24);
}

// A u32 with its byte order reversed (a trailer stored big-endian, as a faulty writer would).
inline std::uint32_t bswap(std::uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

}  // namespace ond::corpus::gen
