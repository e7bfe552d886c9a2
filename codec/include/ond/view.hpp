// Read-only views of a container's documents that know their string table: a document's text,
// its tokens with their text and attributes as string views, its entities, categories and span
// groups. A view is a few pointers and indexes into the container's buffers; it is valid while
// the container is alive and unchanged.
//
//     for (ond::DocView doc : container.doc_views())
//         for (ond::TokenView tok : doc.tokens())
//             std::cout << tok.text() << '/' << tok.pos() << '\n';
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ond/model.hpp"
#include "ond/unicode.hpp"

namespace ond {

class DocView;


// One token. Its text is a view of the document's text: start/length count UTF-16 units and
// the text is WTF-8, so the view is found by walking the text. A token taken from a token
// range starts that walk where the range's walk is (walking every token in order is O(text));
// one taken by index (DocRef::token) starts it from the document's text index, at most 64 units
// back. It reads its container's columns at
// row base + index, so it is valid while the container is alive and unchanged.
class TokenView {
public:
    TokenView(const TokenColumns& cols, std::uint64_t base, const StringStore& strings, std::size_t index,
              unicode::Utf16Offsets at) noexcept
        : cols_(&cols), strings_(&strings), row_(base + index), i_(index), at_(at) {}

    std::size_t index() const noexcept { return i_; }
    std::uint32_t start() const noexcept { return cols_->start[row_]; }    // UTF-16 units
    std::uint32_t length() const noexcept { return cols_->length[row_]; }  // UTF-16 units

    // The token's text. A token whose start or end falls between the two halves of a surrogate
    // pair has no exact substring in WTF-8 (the pair is one 4-byte sequence): text() then gives
    // the whole characters it touches, pair included, and exact_text() gives nullopt. The part
    // of a token past the end of the text (only in hand-built, unwritable content) is left out.
    std::string_view text() const noexcept;
    std::optional<std::string_view> exact_text() const noexcept;

    StringId attr_id(TokenColumn c) const noexcept { return cols_->attrs[static_cast<std::size_t>(c)][row_]; }
    std::string_view attr(TokenColumn c) const noexcept { return strings_->view(attr_id(c)); }
    std::string_view norm() const noexcept { return attr(TokenColumn::norm); }
    std::string_view lemma() const noexcept { return attr(TokenColumn::lemma); }
    std::string_view pos() const noexcept { return attr(TokenColumn::pos); }
    std::string_view tag() const noexcept { return attr(TokenColumn::tag); }
    std::string_view dep() const noexcept { return attr(TokenColumn::dep); }
    std::string_view morph() const noexcept { return attr(TokenColumn::morph); }

    // The head as an absolute token index; a root is its own head.
    std::size_t head_index() const noexcept { return static_cast<std::size_t>(cols_->head[row_]); }
    // The head token. Precondition: head_index() < the doc's token count (always so after a read).
    // Its walk starts from this token's (a head after it costs only the distance between them).
    TokenView head() const noexcept { return TokenView(*cols_, row_ - i_, *strings_, head_index(), at_); }
    bool is_root() const noexcept { return head_index() == i_; }
    Sentence sent() const noexcept { return cols_->sent[row_]; }
    bool starts_sentence() const noexcept { return sent() == Sentence::start; }
    float conf() const noexcept { return cols_->conf_at(row_); }

private:
    const TokenColumns* cols_;
    const StringStore* strings_;
    std::uint64_t row_;  // in the container's columns
    std::size_t i_;      // in the document
    mutable unicode::Utf16Offsets at_;  // a copy: text() moves only its own walk
};

// What the token, span and group views share of one document: its container's token columns,
// its first row there, its token count, its text and the string table.
struct DocPlace {
    const TokenColumns* cols = nullptr;
    std::uint64_t base = 0;
    std::size_t tokens = 0;
    std::string_view text;
    const StringStore* strings = nullptr;
    std::uint64_t text_units = 0;  // the text's UTF-16 length (equal to its bytes: ASCII, no walk)

    unicode::Utf16Offsets walker() const noexcept { return unicode::Utf16Offsets(text, text_units); }
    TokenView token(std::size_t i, unicode::Utf16Offsets at) const noexcept { return TokenView(*cols, base, *strings, i, at); }
    std::uint32_t start(std::size_t i) const noexcept { return cols->start[base + i]; }
};

// Tokens [first, last) of a document. Its iterator carries the walk over the text from one
// token to the next; a token before the previous one restarts it from the start (right, but
// O(text) for that step).
class TokenRange {
public:
    class iterator : public detail::IndexStep<iterator> {
    public:
        using value_type = TokenView;
        iterator() = default;
        iterator(const DocPlace& p, std::size_t i) noexcept : IndexStep(i), p_(p), at_(p.walker()) {}
        TokenView operator*() const noexcept {
            at_.to_bytes_rounded(p_.start(i_), false);  // brings the walk up to this token
            return p_.token(i_, at_);
        }

    private:
        DocPlace p_;
        mutable unicode::Utf16Offsets at_{std::string_view()};
    };

    TokenRange(const DocPlace& p, std::size_t first, std::size_t last) noexcept : p_(p), first_(first), last_(last) {}
    iterator begin() const noexcept { return iterator(p_, first_); }
    iterator end() const noexcept { return iterator(p_, last_); }
    std::size_t size() const noexcept { return last_ - first_; }
    bool empty() const noexcept { return first_ == last_; }

private:
    DocPlace p_;
    std::size_t first_, last_;
};

// A labelled run of tokens: an entity, or a span of a span group.
class SpanView {
public:
    SpanView(const DocPlace& p, std::uint32_t first, std::uint32_t length, StringId label, float conf,
             unicode::Utf16Offsets at) noexcept
        : p_(p), first_(first), length_(length), label_(label), conf_(conf), at_(at) {}
    SpanView(const DocPlace& p, std::uint32_t first, std::uint32_t length, StringId label, float conf) noexcept
        : SpanView(p, first, length, label, conf, p.walker()) {}

    std::string_view label() const noexcept { return p_.strings->view(label_); }
    float conf() const noexcept { return conf_; }
    std::size_t first_token() const noexcept { return first_; }
    std::size_t size() const noexcept { return length_; }  // in tokens
    TokenRange tokens() const noexcept { return TokenRange(p_, first_, std::size_t{first_} + length_); }
    // From the start of its first token to the end of its last, as TokenView::text() takes them
    // (empty when its tokens are not in the doc: only in hand-built, unwritable content). Like a
    // token's, the walk goes on from the range's when the span came from one.
    std::string_view text() const noexcept;

private:
    DocPlace p_;
    std::uint32_t first_, length_;
    StringId label_;
    float conf_;
    mutable unicode::Utf16Offsets at_;
};
using EntityView = SpanView;

// A document's entities, or one group's spans, carrying the walk over the text from one to the
// next as TokenRange does.
template <class Item>  // Entity or Span
class SpanRange {
public:
    class iterator : public detail::IndexStep<iterator> {
    public:
        using value_type = SpanView;
        iterator() = default;
        iterator(const DocPlace& p, std::span<const Item> items, std::size_t i) noexcept
            : detail::IndexStep<iterator>(i), p_(p), items_(items), at_(p.walker()) {}
        SpanView operator*() const noexcept {
            const Item& item = items_[this->i_];
            if (item.start < p_.tokens) at_.to_bytes_rounded(p_.start(item.start), false);
            return SpanView(p_, item.start, item.length, item.label, item.conf, at_);
        }

    private:
        DocPlace p_;
        std::span<const Item> items_;
        mutable unicode::Utf16Offsets at_{std::string_view()};
    };

    SpanRange(const DocPlace& p, std::span<const Item> items) noexcept : p_(p), items_(items) {}
    iterator begin() const noexcept { return iterator(p_, items_, 0); }
    iterator end() const noexcept { return iterator(p_, items_, items_.size()); }
    std::size_t size() const noexcept { return items_.size(); }
    bool empty() const noexcept { return items_.empty(); }
    SpanView operator[](std::size_t i) const noexcept {
        const Item& item = items_[i];
        return SpanView(p_, item.start, item.length, item.label, item.conf);
    }

private:
    DocPlace p_;
    std::span<const Item> items_;
};

struct CategoryView {
    std::string_view label;
    float score;
};

// Items [0, n) of a parent, each made on the fly by make(parent, i).
template <class Parent, class View, View (*make)(const Parent&, std::size_t)>
class IndexRange {
public:
    class iterator : public detail::IndexStep<iterator> {
    public:
        using value_type = View;
        iterator() = default;
        iterator(const Parent& p, std::size_t i) noexcept : detail::IndexStep<iterator>(i), p_(p) {}
        View operator*() const { return make(p_, this->i_); }

    private:
        Parent p_;  // a copy (views are small): a range may outlive the view it came from
    };
    IndexRange(const Parent& p, std::size_t n) noexcept : p_(p), n_(n) {}
    iterator begin() const noexcept { return iterator(p_, 0); }
    iterator end() const noexcept { return iterator(p_, n_); }
    std::size_t size() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    View operator[](std::size_t i) const { return make(p_, i); }

private:
    Parent p_;
    std::size_t n_;
};

namespace detail {
CategoryView category_at(const DocView& d, std::size_t i);
}  // namespace detail

class SpanGroupView;
class DocView;

// One document and the string table its ids index, to read: what DocView (a container's
// document) and RecordView (a DocBinReader's record, ond/reader.hpp) share. A function that
// reads a document from either takes a `const ond::DocRef&`. It cannot be copied: a record
// changes at the reader's next step, so a copy kept in a vector would silently show the last
// record in every slot. A DocView, which stays valid while its container is alive and
// unchanged, is the copyable kind; to keep a record, copy its content (to_doc,
// Container::append).
class DocRef {
public:
    // The document's part of the container's buffers, with the model's member names.
    DocSlice slice() const noexcept { return (*docs_)[i_]; }
    // Its index in its list (0 for a reader's record, whose list holds only it).
    std::size_t index() const noexcept { return i_; }
    const StringStore& strings() const noexcept { return *strings_; }
    const DocList& list() const noexcept { return *docs_; }
    // A copy in vectors of its own, to edit or keep; its origin is strings(), so only this
    // view's container takes it back by push_back (any container takes it by append).
    Doc to_doc() const;
    std::string_view str(StringId id) const noexcept { return strings_->view(id); }

    std::string_view text() const noexcept { return slice().text; }
    std::size_t size() const noexcept { return slice().tokens.size(); }  // tokens
    bool empty() const noexcept { return size() == 0; }
    TokenRange tokens() const noexcept {
        const DocPlace p = place();
        return TokenRange(p, 0, p.tokens);
    }
    // Token i. Precondition: i < size(). Its text() is O(1) for every text: an ASCII text needs
    // no walk, any other is walked from a sample of an index built once per document, on first
    // use (DocList::walker_at).
    TokenView token(std::size_t i) const noexcept {
        const DocPlace p = place();
        if (p.text.size() == p.text_units) return p.token(i, p.walker());
        return p.token(i, docs_->walker_at(i_, p.start(i)));
    }
    TokenView operator[](std::size_t i) const noexcept { return token(i); }

    // Whether the doc carries an entity annotation (section 4), even an empty one.
    bool has_ents() const noexcept { return slice().has_ents; }
    SpanRange<Entity> ents() const noexcept { return SpanRange<Entity>(place(), slice().ents); }
    bool has_cats() const noexcept { return slice().has_cats; }
    inline IndexRange<DocView, CategoryView, detail::category_at> cats() const noexcept;
    // The score of the category with this label, if there is one.
    std::optional<float> category(std::string_view label) const noexcept;
    std::size_t span_group_count() const noexcept { return slice().spans.size(); }
    SpanGroupView span_group(std::size_t g) const noexcept;
    // The group with this name, if there is one.
    std::optional<SpanGroupView> span_group(std::string_view name) const noexcept;

    DocPlace place() const noexcept {
        const DocSlice s = slice();
        return DocPlace{&docs_->token_columns(), docs_->first_token(i_), s.tokens.size(), s.text, strings_,
                        s.text_utf16_length};
    }

protected:
    DocRef() = default;
    DocRef(const DocList& docs, std::size_t index, const StringStore& strings) noexcept
        : docs_(&docs), i_(index), strings_(&strings) {}
    DocRef(const DocRef&) = default;  // DocView's only
    DocRef& operator=(const DocRef&) = default;
    ~DocRef() = default;

private:
    inline DocView as_view() const noexcept;
    const DocList* docs_ = nullptr;
    std::size_t i_ = 0;
    const StringStore* strings_ = nullptr;
};

// One document of a container and the string table its ids index: a pointer to the
// container's documents, an index and a pointer to the strings. Valid while the container is
// alive and unchanged; copy it freely.
class DocView : public DocRef {
public:
    DocView() = default;  // views nothing; for iterators
    DocView(const DocList& docs, std::size_t index, const StringStore& strings) noexcept : DocRef(docs, index, strings) {}
    DocView(const DocView&) = default;
    DocView& operator=(const DocView&) = default;
};

inline DocView DocRef::as_view() const noexcept { return DocView(*docs_, i_, *strings_); }
inline IndexRange<DocView, CategoryView, detail::category_at> DocRef::cats() const noexcept {
    return {as_view(), slice().cats.size()};
}

class SpanGroupView {
public:
    SpanGroupView() = default;  // views nothing; for iterators
    SpanGroupView(const DocView& doc, std::size_t g) noexcept : doc_(doc), g_(g) {}
    std::string_view name() const noexcept { return doc_.str(group().name); }
    std::size_t size() const noexcept { return group().spans.size(); }
    SpanRange<Span> spans() const noexcept { return SpanRange<Span>(doc_.place(), group().spans); }
    SpanView operator[](std::size_t i) const noexcept { return spans()[i]; }

    SpanGroupSlice group() const noexcept { return doc_.slice().spans[g_]; }
    // Its document (a DocRef: the group may be a reader's record's).
    const DocRef& doc() const& noexcept OND_LIFETIMEBOUND { return doc_; }
    DocView doc() const&& noexcept { return doc_; }  // of a temporary group: a copy

private:
    DocView doc_;
    std::size_t g_ = 0;
};

// Every token's text of one document, found in one walk over its text: the same as taking
// token(i).text() for each i (which is O(1) too), kept as byte bounds. It views the document's
// text: valid while its container is alive and unchanged.
class TokenTexts {
public:
    explicit TokenTexts(const DocRef& doc);
    std::size_t size() const noexcept { return bounds_.size() / 2; }
    // What TokenView::text() gives for token i. Precondition: i < size().
    std::string_view operator[](std::size_t i) const noexcept {
        return text_.substr(bounds_[2 * i], bounds_[2 * i + 1] - bounds_[2 * i]);
    }

private:
    std::string_view text_;
    std::vector<std::size_t> bounds_;  // token i: bytes [bounds_[2i], bounds_[2i + 1])
};

inline SpanGroupView DocRef::span_group(std::size_t g) const noexcept { return SpanGroupView(as_view(), g); }

inline DocView Container::doc(std::size_t i) const& noexcept { return DocView(docs, i, strings); }

// Every document of a container, as DocViews.
class DocViewRange {
public:
    class iterator : public detail::IndexStep<iterator> {
    public:
        using value_type = DocView;
        iterator() = default;
        explicit iterator(const Container* c, std::size_t i) noexcept : IndexStep(i), c_(c) {}
        DocView operator*() const noexcept { return c_->doc(i_); }

    private:
        const Container* c_ = nullptr;
    };
    explicit DocViewRange(const Container& c) noexcept : c_(&c) {}
    iterator begin() const noexcept { return iterator(c_, 0); }
    iterator end() const noexcept { return iterator(c_, c_->docs.size()); }
    std::size_t size() const noexcept { return c_->docs.size(); }
    DocView operator[](std::size_t i) const noexcept { return c_->doc(i); }

private:
    const Container* c_;
};

inline DocViewRange Container::doc_views() const& noexcept { return DocViewRange(*this); }

}  // namespace ond
