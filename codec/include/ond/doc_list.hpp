// A container's documents stored column by column (DocList), and the read-only slices of one
// document (DocSlice, TokenSlice) that readers of the model use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ond/column.hpp"
#include "ond/doc.hpp"
#include "ond/unicode.hpp"

namespace ond {

namespace detail {
// True when a call on this thread raised an ond::Error that a non-throwing form has not taken
// yet: only in the library built without exceptions (ond::codec_noexcept), where a failed
// call returns instead of throwing; always false in ond::codec. For this header's inline
// code, which must stop where a throw would have.
bool error_pending() noexcept;
}  // namespace detail

// The token columns of every document of a container, back to back: document d's tokens are
// rows [begin, begin + count) of its DocList entry.
struct TokenColumns {
    Column<std::uint32_t> start;  // UTF-16 units from the start of the document's text
    Column<std::uint32_t> length;
    // 2 bytes an id while the container's string table is small (IdColumn).
    std::array<IdColumn, token_column_count> attrs;
    Column<std::int32_t> head;  // token index within the document
    Column<Sentence> sent;
    // A value per row, or none at all: a list keeps no confidences until one of its tokens has
    // one other than 1.0 (4 bytes a token saved), and every confidence is 1.0 while it is empty.
    // conf_at reads either way.
    Column<float> conf;

    std::size_t size() const noexcept { return start.size(); }
    float conf_at(std::size_t row) const noexcept { return conf.empty() ? 1.0f : conf[row]; }
    void resize(std::size_t n);  // new rows are left unset (default-initialised); conf only when kept
    void reserve(std::size_t n);
    std::size_t capacity() const noexcept { return start.capacity(); }
};

// One document's confidences, read-only: size() values, each 1.0 when its list keeps none
// (TokenColumns::conf), so conf[i] reads alike either way.
class Confidences {
public:
    Confidences() = default;
    Confidences(const float* stored, std::size_t n) noexcept : p_(stored), n_(n) {}
    std::size_t size() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    float operator[](std::size_t i) const noexcept { return p_ ? p_[i] : 1.0f; }
    // The values as stored, or nullptr when none is (every one is 1.0).
    const float* stored() const noexcept { return p_; }
    using iterator = detail::SubscriptIterator<Confidences, float>;
    iterator begin() const noexcept { return iterator(this, 0); }
    iterator end() const noexcept { return iterator(this, n_); }

private:
    const float* p_ = nullptr;
    std::size_t n_ = 0;
};

// One document's tokens as read-only spans into its container's columns:
// the same names as Tokens, so reading code reads alike.
struct TokenSlice {
    std::span<const std::uint32_t> start, length;
    std::array<Ids, token_column_count> attrs;  // 2 or 4 bytes an id as stored (IdColumn)
    std::span<const std::int32_t> head;
    std::span<const Sentence> sent;
    Confidences conf;

    std::size_t size() const noexcept { return start.size(); }
    Ids column(TokenColumn c) const noexcept { return attrs[static_cast<std::size_t>(c)]; }
};

struct SpanGroupSlice {
    StringId name = 0;
    std::span<const Span> spans;
};

// One document of a container, read-only: its part of the container's buffers, with Doc's
// member names. It is a handful of spans, valid until the container changes; its members are
// const, so writing through one fails to compile (edit with DocList::edit or a Doc instead).
struct DocSlice {
    const std::string_view text;
    const std::uint32_t text_utf16_length;
    const TokenSlice tokens;
    const bool has_ents;
    const std::span<const Entity> ents;
    const bool has_cats;
    const std::span<const Category> cats;
    // Its span groups: spans[g].name, spans[g].spans.
    class Groups {
    public:
        Groups(std::span<const StringId> names, std::span<const std::uint64_t> bounds, const Span* all) noexcept
            : names_(names), bounds_(bounds), all_(all) {}
        std::size_t size() const noexcept { return names_.size(); }
        bool empty() const noexcept { return names_.empty(); }
        SpanGroupSlice operator[](std::size_t g) const noexcept {
            return {names_[g], std::span<const Span>(all_ + bounds_[g], all_ + bounds_[g + 1])};
        }
        using iterator = detail::SubscriptIterator<Groups, SpanGroupSlice>;
        iterator begin() const noexcept { return iterator(this, 0); }
        iterator end() const noexcept { return iterator(this, size()); }

    private:
        std::span<const StringId> names_;
        std::span<const std::uint64_t> bounds_;  // size() + 1 offsets into all_
        const Span* all_;
    };
    const Groups spans;

    // Token i's text as a view of `text` (token offsets count UTF-16 units, `text` is WTF-8):
    // nullopt when the token starts or ends between the two halves of a surrogate pair, or lies
    // outside the text. It walks the text from its start; to take every token's text, range over
    // a DocView's tokens (ond/view.hpp), which walks the text once.
    std::optional<std::string_view> token_text(std::size_t i) const;
    // A copy in vectors of its own, to edit or keep (its origin is this slice's).
    Doc to_doc() const;

    // The StringStore::id() of the store its ids index (0 for a DocList outside a Container).
    const std::uint64_t origin;
};

namespace detail {
class DocListBuild;  // the readers' and DocBuilder's access to a list's last document (not installed)
// The last document's token rows, as pointers into the columns.
struct TokenRows {
    std::uint32_t* start;
    std::uint32_t* length;
    // Per column, the one of its width (the other null; both may be null when there are no
    // rows): a reader fits the columns to its table first (DocListBuild::fit_ids), so every id
    // it writes fits the width.
    std::array<std::uint16_t*, token_column_count> narrow_attrs;
    std::array<StringId*, token_column_count> wide_attrs;
    std::int32_t* head;
    Sentence* sent;
    float* conf;  // nullptr while the list keeps no confidences (DocListBuild::conf_rows makes them)
};
}  // namespace detail

struct Container;

// A container's documents, stored column by column: one text buffer, one buffer per token
// column, one for entities, categories, span groups and spans, for all documents together.
// Reading one into a container reuses every buffer's capacity. doc[i] is a DocSlice; whole
// documents are added with push_back and changed with edit.
//
// The list of a Container checks every Doc it is given against the container's strings: a Doc
// whose origin is another store, or with an id its container's store never handed out, is
// refused with content.bad-string-id (path e.g. "tokens[3].pos") and the list is left as it
// was. To add a document of another container, use Container::append, which re-interns it.
// A DocList on its own (not a Container's) has no strings to check against and checks no ids.
class DocList {
public:
    DocList() = default;

    std::size_t size() const noexcept { return docs_.size(); }
    bool empty() const noexcept { return docs_.empty(); }
    // A slice views this list's buffers, so none is taken from a temporary list (it would
    // dangle at the end of the statement): `ond::decode(b).docs[0]` does not compile.
    // A DocSlice holds ids, not strings (c.docs[0].tokens.attrs[...] are StringIds of
    // c.strings); Container::doc(i), one character away, is the DocView that reads them as
    // strings.
    DocSlice operator[](std::size_t i) const& noexcept;
    DocSlice operator[](std::size_t i) const&& = delete;
    DocSlice front() const& noexcept { return (*this)[0]; }
    DocSlice front() const&& = delete;
    DocSlice back() const& noexcept { return (*this)[size() - 1]; }
    DocSlice back() const&& = delete;

    using iterator = detail::SubscriptIterator<DocList, DocSlice>;
    iterator begin() const noexcept { return iterator(this, 0); }
    iterator end() const noexcept { return iterator(this, size()); }

    // Whole documents. push_back copies a Doc's content into the columns (its ids checked as
    // said above; its text's UTF-16 length is taken from the text); edit copies document i
    // out, lets `change` edit the copy and puts it back (O(the documents after i)); to_doc
    // copies one out. push_back, edit and replace throw ond::Error(content.inconsistent, path
    // "tokens") when the Doc's token vectors differ in size, and then leave the list as it was.
    void push_back(const Doc& d);
    template <class Change>
    void edit(std::size_t i, Change&& change) {
        Doc d = (*this)[i].to_doc();
        change(d);
        if (detail::error_pending()) return;  // change failed: the list stays as it was
        replace(i, d);
    }
    void replace(std::size_t i, const Doc& d);
    Doc to_doc(std::size_t i) const { return (*this)[i].to_doc(); }
    // Every document through `change(Doc&)` (or `change(std::size_t i, Doc&)`), the list rebuilt
    // once: O(all documents), where an edit of each would be O(n^2). If a call throws, or a
    // changed Doc is refused (as push_back refuses), the list is left as it was.
    template <class Change>
    void edit_all(Change&& change);

    // ---- edits in place: O(1) per value, shape kept (documents, tokens, items stay) ----
    // Each checks its indexes (std::out_of_range), and a string id against the container's
    // store, a head, sentence value or confidence as the writer would (ond::Error, content.*
    // code, path as push_back's), and changes nothing when it refuses.
    void set_attr(std::size_t doc, std::size_t token, TokenColumn c, StringId id);
    void set_head(std::size_t doc, std::size_t token, std::size_t head);
    void set_sent(std::size_t doc, std::size_t token, Sentence s);
    void set_conf(std::size_t doc, std::size_t token, float conf);
    void set_entity_label(std::size_t doc, std::size_t ent, StringId label);
    void set_entity_conf(std::size_t doc, std::size_t ent, float conf);
    void set_category_score(std::size_t doc, std::size_t cat, float score);
    void set_span_label(std::size_t doc, std::size_t group, std::size_t span, StringId label);
    void pop_back();
    void resize(std::size_t n);  // cuts, or appends empty documents
    void clear() noexcept;       // keeps every buffer's capacity
    // How many times documents were removed (pop_back, a cutting resize, clear of a non-empty
    // list; replace and edit put every document back and do not count): a DocBuilder checks it
    // to know that the last document is still the one it added.
    std::uint64_t removals() const noexcept { return removals_; }

    // The buffers, read-only, for code that walks every document's tokens at once.
    // (Neither on a temporary list: they would dangle.)
    const TokenColumns& token_columns() const& noexcept OND_LIFETIMEBOUND { return tokens_; }
    const TokenColumns& token_columns() const&& = delete;
    std::uint64_t first_token(std::size_t i) const noexcept { return docs_[i].tokens.begin; }
    const std::string& texts() const& noexcept OND_LIFETIMEBOUND { return text_; }
    const std::string& texts() const&& = delete;
    // A walk over document i's text starting at most Utf16Index::step UTF-16 units before
    // `units`, so that a token's text taken by index is O(1): an ASCII text needs no walk; for
    // any other, an index of the text (8 bytes per 64 units) is built in one pass the first time
    // and kept until the document is removed or replaced. Safe from many threads at once, as
    // every read is. Precondition: i < size().
    unicode::Utf16Offsets walker_at(std::size_t i, std::uint64_t units) const noexcept;

    bool operator==(const DocList&) const = delete;  // compare with same_content

private:
    friend class detail::DocListBuild;
    friend struct Container;
    using TokenRows = detail::TokenRows;

    // ---- building the last document in place (through detail::DocListBuild) ----
    void open_doc();  // appends an empty document: no text, no tokens, no annotation
    // The text buffer, to append the last document's text to (nothing else may be changed);
    // close_text then records it with its length in UTF-16 units.
    std::string& text_buffer() noexcept { return text_; }
    void close_text(std::uint32_t utf16_length) noexcept;
    // Sets the last document's token count to n (new rows unset) and returns its rows' columns.
    TokenRows resize_tokens(std::size_t n);
    TokenRows token_rows() noexcept;  // the last document's, as they are
    // The last document's confidences, the list's column made first (1.0 for every row) when
    // it kept none.
    float* conf_rows();
    void keep_conf();  // makes the confidence column (1.0 for every row) if the list kept none
    void fit_ids(StringId max);  // every id column takes ids up to max (IdColumn::fit)
    void set_attr_row(std::size_t token, TokenColumn c, StringId id);  // the last document's, unchecked
    void set_has_ents(bool v) noexcept { docs_.back().has_ents = v; }
    void add_entity(const Entity& e);
    void set_has_cats(bool v) noexcept { docs_.back().has_cats = v; }
    void add_category(const Category& c);
    void add_span_group(StringId name);
    void add_span(std::size_t group, const Span& s);  // to the last document's group `group`
    // Reserves for about this many more tokens and text bytes (a reader's estimate).
    void reserve_more(std::size_t tokens, std::size_t text_bytes);

    struct Part {
        std::uint64_t begin = 0;
        std::uint64_t count = 0;
    };
    struct Entry {
        Part text;
        std::uint32_t text_utf16_length = 0;
        Part tokens;
        Part ents;
        Part cats;
        Part groups;
        bool has_ents = false;
        bool has_cats = false;
    };
    // The store of the Container this list belongs to, which its Docs' ids are checked against.
    // Never copied or moved: a list keeps the store it was bound to (a copy starts unbound, and
    // a Container binds its own).
    struct StoreLink {
        const StringStore* store = nullptr;
        StoreLink() = default;
        StoreLink(const StoreLink&) noexcept {}
        StoreLink& operator=(const StoreLink&) noexcept { return *this; }
    };
    void cut_last();  // pop_back without counting a removal
    const Entry& entry(std::size_t doc) const;  // std::out_of_range past the end
    std::uint64_t row(std::size_t doc, std::size_t token) const;  // the token's row, checked
    void check_id(StringId id, const std::string& path) const;
    void check_ids(const Doc& d) const;
    std::uint64_t origin() const noexcept { return strings_.store ? strings_.store->id() : 0; }

    std::vector<Entry> docs_;
    std::uint64_t removals_ = 0;
    std::string text_;
    TokenColumns tokens_;
    std::vector<Entity> ents_;
    std::vector<Category> cats_;
    std::vector<StringId> group_names_;
    std::vector<std::uint64_t> group_bounds_{0};  // group g's spans: [bounds[g], bounds[g + 1])
    std::vector<Span> spans_;
    StoreLink strings_;
    // walker_at's indexes by document, built lazily under a lock. Never copied or moved (a copy
    // or move starts empty, and a moved-from list forgets its own: its documents went).
    struct TextIndexes {
        std::unordered_map<std::size_t, std::unique_ptr<const unicode::Utf16Index>> by_doc;
        TextIndexes() = default;
        TextIndexes(const TextIndexes&) noexcept {}
        TextIndexes(TextIndexes&& o) noexcept { o.by_doc.clear(); }
        TextIndexes& operator=(const TextIndexes&) noexcept {
            by_doc.clear();
            return *this;
        }
        TextIndexes& operator=(TextIndexes&& o) noexcept {
            by_doc.clear();
            o.by_doc.clear();
            return *this;
        }
        ~TextIndexes() = default;
    };
    mutable TextIndexes text_indexes_;
};

template <class Change>
void DocList::edit_all(Change&& change) {
    DocList out;
    out.strings_.store = strings_.store;
    out.removals_ = removals_;  // every document comes back at its index: not a removal
    Doc d;
    for (std::size_t i = 0; i < size(); ++i) {
        d = (*this)[i].to_doc();
        if constexpr (std::is_invocable_v<Change&, std::size_t, Doc&>)
            change(i, d);
        else
            change(d);
        if (detail::error_pending()) return;  // change failed: the list stays as it was
        out.push_back(d);
        if (detail::error_pending()) return;  // refused: the same
    }
    *this = std::move(out);  // keeps this list's store
}

// Inline: the writer and the views take a slice several times per document.
inline DocSlice DocList::operator[](std::size_t i) const& noexcept {
    const Entry& e = docs_[i];
    const std::size_t b = e.tokens.begin, n = e.tokens.count;
    TokenSlice t{{tokens_.start.data() + b, n}, {tokens_.length.data() + b, n}, {}, {tokens_.head.data() + b, n},
                 {tokens_.sent.data() + b, n}, Confidences(tokens_.conf.empty() ? nullptr : tokens_.conf.data() + b, n)};
    for (std::size_t c = 0; c < token_column_count; ++c) t.attrs[c] = tokens_.attrs[c].ids(b, n);
    return DocSlice{std::string_view(text_).substr(e.text.begin, e.text.count),
                    e.text_utf16_length,
                    t,
                    e.has_ents,
                    {ents_.data() + e.ents.begin, e.ents.count},
                    e.has_cats,
                    {cats_.data() + e.cats.begin, e.cats.count},
                    DocSlice::Groups({group_names_.data() + e.groups.begin, e.groups.count},
                                     {group_bounds_.data() + e.groups.begin, e.groups.count + 1}, spans_.data()),
                    origin()};
}

}  // namespace ond
