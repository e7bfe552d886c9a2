// The content model's parts: the string store, the annotation items, and a standalone Doc.
//
// Strings (text, attributes, labels) are sequences of UTF-16 code units, lone surrogates
// included. The model keeps them as WTF-8: UTF-8 in which a lone surrogate is written as its
// 3-byte form and a valid pair always as one 4-byte sequence. That is a one-to-one encoding of
// UTF-16 code-unit sequences, so two strings are equal exactly when their WTF-8 bytes are equal,
// and a well-formed string is plain UTF-8 with no conversion at all.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ond/lifetime.hpp"

namespace ond {

using StringId = std::uint32_t;  // index into a StringStore; 0 is the empty string ("not set")

class StringStore;
namespace detail {
// Every string of the store back to back (the writer checks them for ASCII in one pass).
std::string_view store_bytes(const StringStore& s) noexcept;
}  // namespace detail

// Interned strings of one container, stored back to back in one buffer.
// A store made by the reader is the container's string table as read (duplicates and all), so
// compare strings by value (`view`), never by id, across stores or for non-canonical input.
//
// An id means something only in the store that handed it out. Each store has an id() of its
// own (never reused in the process), which a Doc copied out of a container records (Doc::origin)
// so that adding it to another container is refused instead of silently relabelling it. Ids are
// only ever added, so a copy of a store shares the ids [0, size()) of its source: it remembers
// that of its last few sources, and a Doc from one of them is accepted while its ids are in that
// shared part. clear() and assignment start a new id.
class StringStore {
public:
    StringStore();
    // Copies and moves rebuild the lookup index lazily: its views point into the source's buffer
    // (and a moved short string does not keep its address), so they are never carried over.
    StringStore(const StringStore& o) : bytes_(o.bytes_), offsets_(o.offsets_), id_(fresh_id()), distinct_(o.distinct_) {
        inherit(o);
    }
    StringStore(StringStore&& o) noexcept
        : bytes_(std::move(o.bytes_)), offsets_(std::move(o.offsets_)), id_(o.id_), sources_(o.sources_),
          distinct_(o.distinct_) {
        o.clear();
    }
    StringStore& operator=(const StringStore& o) {
        if (this != &o) {
            bytes_ = o.bytes_;
            offsets_ = o.offsets_;
            index_.clear();
            indexed_ = 0;
            id_ = fresh_id();
            distinct_ = o.distinct_;
            inherit(o);
        }
        return *this;
    }
    StringStore& operator=(StringStore&& o) noexcept {
        if (this != &o) {
            bytes_ = std::move(o.bytes_);
            offsets_ = std::move(o.offsets_);
            index_.clear();
            indexed_ = 0;
            id_ = o.id_;
            sources_ = o.sources_;
            distinct_ = o.distinct_;
            o.clear();
        }
        return *this;
    }

    std::size_t size() const noexcept { return offsets_.size() - 1; }  // ids 0..size()-1
    // The string of `id`; an id the store never handed out reads as "" (never out of bounds).
    // Not on a temporary store (the view would dangle at the end of the statement).
    std::string_view view(StringId id) const& noexcept OND_LIFETIMEBOUND {
        if (id >= size()) [[unlikely]]
            return {};
        return std::string_view(bytes_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]);
    }
    std::string_view view(StringId id) const&& = delete;
    bool contains(StringId id) const noexcept { return id < size(); }

    // Returns the id of an equal string, adding it if absent. "" is always id 0.
    StringId intern(std::string_view wtf8);
    // Appends without looking for an equal string (the reader's table may hold duplicates).
    StringId append(std::string_view wtf8);
    void clear();
    // Room for `strings` more strings of `bytes` bytes in all, as vector::reserve.
    void reserve(std::size_t strings, std::size_t bytes);

    // True when every string came through intern(), so no two ids hold the same value. False
    // after an append(), which may have added a duplicate (the writer then compares values).
    bool distinct() const noexcept { return distinct_; }

    // This store's identity (never 0, never reused); a Doc's origin names it.
    std::uint64_t id() const noexcept { return id_; }
    // How many of a Doc's ids from store `origin` mean the same here: size() for this store,
    // the shared part for a store this one was copied from (directly or within a few copies),
    // 0 for any other.
    std::size_t ids_shared_with(std::uint64_t origin) const noexcept;

    bool operator==(const StringStore& o) const noexcept {
        return bytes_ == o.bytes_ && offsets_ == o.offsets_;
    }

private:
    friend std::string_view detail::store_bytes(const StringStore& s) noexcept;
    static std::uint64_t fresh_id() noexcept;
    void inherit(const StringStore& source) noexcept;  // records source's ids as shared
    StringId push(std::string_view wtf8);                // append() without clearing distinct_

    struct Source {
        std::uint64_t id = 0;
        std::uint64_t shared = 0;  // ids [0, shared) of store `id` mean the same here
    };
    std::string bytes_;
    std::vector<std::uint64_t> offsets_;  // offsets_[id] .. offsets_[id + 1]; 64-bit: the bytes may pass 4 GiB
    std::unordered_map<std::string_view, StringId> index_;  // built lazily by intern()
    std::size_t indexed_ = 0;                               // ids [0, indexed_) are in index_
    std::uint64_t id_;
    std::array<Source, 4> sources_{};  // the stores this one is a copy of, nearest first
    bool distinct_ = true;             // see distinct()
};

enum class Format : std::uint8_t { ondc, ondb };

// The six attribute columns, in the order the tokens section stores them.
enum class TokenColumn : std::uint8_t { norm, lemma, pos, tag, dep, morph };
inline constexpr std::size_t token_column_count = 6;
// Their names, as content JSON keys, listings and messages spell them.
inline constexpr std::array<const char*, token_column_count> token_column_names = {"norm", "lemma", "pos",
                                                                                   "tag",  "dep",   "morph"};

enum class Sentence : std::uint8_t { unset = 0, start = 1, inside = 2 };

struct Entity {
    std::uint32_t start = 0;   // first token
    std::uint32_t length = 0;  // in tokens, >= 1
    StringId label = 0;
    float conf = 1.0f;
};

struct Category {
    StringId label = 0;
    float score = 0.0f;
};

struct Span {
    std::uint32_t start = 0;
    std::uint32_t length = 0;
    StringId label = 0;
    float conf = 1.0f;
};

struct SpanGroup {
    StringId name = 0;
    std::vector<Span> spans;
};

// A document on its own, in vectors of its own: what one fills by hand or with a DocBuilder
// over a standalone Doc, edits, and adds to a container (which stores it in its columns, see
// DocList). Token data is columnar: column i of every vector belongs to token i.
struct Tokens {
    std::vector<std::uint32_t> start;   // UTF-16 code units from the start of the text
    std::vector<std::uint32_t> length;  // UTF-16 code units, >= 1
    std::array<std::vector<StringId>, token_column_count> attrs;
    std::vector<std::int32_t> head;     // absolute token index (a root is its own head)
    std::vector<Sentence> sent;
    std::vector<float> conf;            // always n values (1.0 under confidence mode 0)

    std::size_t size() const noexcept { return start.size(); }
    std::vector<StringId>& column(TokenColumn c) & OND_LIFETIMEBOUND { return attrs[static_cast<std::size_t>(c)]; }
    const std::vector<StringId>& column(TokenColumn c) const& OND_LIFETIMEBOUND { return attrs[static_cast<std::size_t>(c)]; }
    std::vector<StringId> column(TokenColumn c) && { return std::move(attrs[static_cast<std::size_t>(c)]); }  // a temporary's: moved out
    // New tokens are roots (their own head) with confidence 1.0 and every other field 0, as
    // DocBuilder adds them.
    void resize(std::size_t n);
    void reserve(std::size_t n);
    void clear();
};

namespace detail {
// Calls f on each token column of a Tokens or a TokenColumns (ond/doc_list.hpp), which share
// their member names.
template <class T, class F>
void for_each_token_column(T& t, F&& f) {
    f(t.start);
    f(t.length);
    for (auto& c : t.attrs) f(c);
    f(t.head);
    f(t.sent);
    f(t.conf);
}
}  // namespace detail

struct Doc {
    std::string text;                  // WTF-8
    Tokens tokens;
    // has_ents says the entity annotation is present even with no entity ("annotated, none
    // found"); entities are that fact too: a container takes a Doc with ents as annotated
    // whatever has_ents says, so the two can never disagree in it. The same for has_cats/cats.
    bool has_ents = false;             // section 4 present ("entity annotation set")
    std::vector<Entity> ents;
    bool has_cats = false;             // section 6 present (ONDC only)
    std::vector<Category> cats;
    std::vector<SpanGroup> spans;      // section 7 (ONDC only)
    // The StringStore::id() of the store whose ids this Doc holds: set by every to_doc() and by
    // DocBinReader::next(Doc&); 0 for a Doc built by hand, whose ids must then come from the
    // store of the container it is added to. A container refuses a Doc from another store
    // (content.bad-string-id); Container::append(DocView) re-interns one instead.
    std::uint64_t origin = 0;

    // Sets text, checked: throws ond::Error(content.invalid-string) if it is not WTF-8.
    void set_text(std::string_view wtf8);
    // The text's length in UTF-16 code units, counted from `text` at each call (one pass), so
    // it never disagrees with the text; 0 for a text that is not WTF-8 (which the writer refuses).
    // (A DocSlice's text_utf16_length is a value: the list keeps it with the text.)
    std::uint32_t text_utf16_length() const noexcept;
};

}  // namespace ond
