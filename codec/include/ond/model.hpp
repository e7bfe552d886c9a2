// The content model: what a container holds, independent of its bytes.
//
// This header has the whole model: ond/doc.hpp (strings, items, a standalone Doc),
// ond/doc_list.hpp (a container's documents in columns), the Container below, and the views
// of ond/view.hpp.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ond/doc.hpp"
#include "ond/doc_list.hpp"

namespace ond {

class DocRef;
class DocView;
class DocViewRange;
class RecordView;

// Threads: a Container, and every view of it, may be read from any number of threads at once
// while none changes it; a change (push_back, append, an edit, a decode into it) needs the
// container to itself. Distinct containers are independent.
struct Container {
    Format format = Format::ondc;
    bool crc = false;                  // a CRC-32 trailer is present / wanted
    StringStore strings;
    DocList docs;                      // exactly one for ONDC; checks what it is given against `strings`

    Container() { docs.strings_.store = &strings; }
    Container(const Container& o) : format(o.format), crc(o.crc), strings(o.strings), docs(o.docs) {
        docs.strings_.store = &strings;
    }
    Container(Container&& o) noexcept
        : format(o.format), crc(o.crc), strings(std::move(o.strings)), docs(std::move(o.docs)) {
        docs.strings_.store = &strings;
    }
    Container& operator=(const Container&) = default;  // docs stays bound to this container's strings
    Container& operator=(Container&&) noexcept = default;

    // Document i as a view that knows this container's strings (ond/view.hpp); precondition:
    // i < docs.size(). doc_views() ranges over them all: `for (ond::DocView d : c.doc_views())`.
    // Not on a temporary container (the view would outlive it).
    // Two kinds, one character apart: c.doc(i) is a DocView (labels as strings: tok.pos() is
    // "NOUN"; token texts; entity texts), c.docs[i] is a DocSlice (the stored columns: string
    // ids to look up in c.strings, UTF-16 offsets). Read with doc(i); edit through docs.
    DocView doc(std::size_t i) const& noexcept;
    DocView doc(std::size_t i) const&& = delete;
    DocViewRange doc_views() const& noexcept;
    DocViewRange doc_views() const&& = delete;

    // Adds a document of any container (this one included, or a DocBinReader's record): its
    // strings are interned into this container's store, so its labels read back the same.
    // Throws as DocList::push_back does (and then adds nothing).
    void append(const DocRef& doc);  // a DocView, or a RecordView through view()
    void append(const RecordView& record);  // a DocBinReader's record (ond/reader.hpp)
    // The same for a Doc whose ids index `from` (e.g. DocBinReader::next(Doc&) with the
    // reader's strings()).
    void append(const Doc& doc, const StringStore& from);

    // Edits in place by value (DocList's set_* take ids): the string is interned first.
    void set_attr(std::size_t doc, std::size_t token, TokenColumn c, std::string_view value) {
        docs.set_attr(doc, token, c, strings.intern(value));
    }
    // Every value of column `c` in every document becomes fn(value) (anything a std::string is
    // made from); fn is called once per distinct string: O(tokens + distinct strings).
    template <class F>
    void rewrite_attr(TokenColumn c, F&& fn);
};

template <class F>
void Container::rewrite_attr(TokenColumn c, F&& fn) {
    constexpr StringId unmapped = ~StringId{0};
    auto& column = docs.tokens_.attrs[static_cast<std::size_t>(c)];
    std::vector<StringId> map(strings.size(), unmapped);
    for (std::size_t row = 0; row < column.size(); ++row) {
        const StringId id = column[row];
        if (id >= map.size()) continue;  // never so: ids are checked on the way in
        if (map[id] == unmapped) {
            const std::string value(fn(strings.view(id)));  // a copy: interning may move the bytes
            map[id] = strings.intern(value);
        }
        column.set(row, map[id]);  // widens the column at the first new id past its width
    }
}

// Appends every document of `from` to `into`, re-interning their strings (each distinct string
// once). Format and crc of `into` stay. Merging two bins, or a bin and an ONDC, is one call.
void merge(Container& into, const Container& from);
// One bin (or, with Format::ondc, one container) holding every document of `parts` in order:
// packing decoded ONDC files into a bin. The writer refuses an ONDC document's categories or
// span groups in a bin (content.bin-extras), as it would for any bin.
Container pack(std::span<const Container> parts, Format format = Format::ondb);
// `from`'s documents cut into containers of `format` holding at most `docs_per_part` each (at
// least 1), each with only the strings its documents use and `from`'s crc: splitting a bin into
// smaller bins, or with Format::ondc and 1, into one ONDC per record.
std::vector<Container> split(const Container& from, std::size_t docs_per_part, Format format);

// "ONDC" or "ONDB".
std::string_view to_string(Format f) noexcept;

// Structural equality by value: strings are compared through their stores (so ids may differ),
// floats by bit pattern (so -0.0 != 0.0, as a round trip must keep the sign).
bool same_doc(const DocSlice& a, const StringStore& sa, const DocSlice& b, const StringStore& sb);
bool same_content(const Container& a, const Container& b);

}  // namespace ond

#include "ond/view.hpp"  // the views Container::doc() returns (after the model they view)
