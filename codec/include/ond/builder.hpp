// Building a document from its text and words, with no UTF-16 offsets counted by hand.
//
//     ond::Container c;                // ONDC unless c.format says otherwise
//     ond::DocBuilder b(c, "Apple buys a startup.");
//     b.token("Apple").pos("PROPN");   // the next occurrence after the previous token
//     b.token("buys").pos("VERB");
//     b.entity(0, 1, "ORG").category("news", 0.9f);
//
// Each call checks what it can check at once and throws ond::Error (offset no_offset, a
// content.* code, the field's path) when the content could not be written: a word not found,
// a byte span off the text or inside a character, a token before the previous one, an empty
// or overlapping entity, a repeated category. What depends on tokens added later (a head) is
// left to the writer's check.
//
// Without exceptions, a builder made with `ond::no_throw` keeps the first such error instead of
// throwing it (as a stream keeps its fail state): every call after it does nothing, and
// status() returns it. The document keeps what was added before the error (none is added when
// the text itself is refused). A program built with -fno-exceptions (ond::codec_noexcept) uses
// this form: there a throwing builder's first error stops the program.
//
//     ond::DocBuilder b(c, text, ond::no_throw);
//     b.token("Apple").pos("PROPN");
//     if (ond::Status s = b.status(); !s) report(s.error());
//
// Misuse stays an exception in both modes: std::logic_error for a builder whose document is no
// longer the container's last, std::out_of_range from at() (preconditions, as with a vector;
// without exceptions they stop the program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/result.hpp"

namespace ond {

class DocBuilder;

// Selects a DocBuilder that keeps its first error instead of throwing it.
struct NoThrow {
    explicit NoThrow() = default;
};
inline constexpr NoThrow no_throw{};

// One token of a DocBuilder, for setting its fields; each setter returns *this.
class TokenBuilder {
public:
    TokenBuilder& attr(TokenColumn c, std::string_view value);
    TokenBuilder& norm(std::string_view v) { return attr(TokenColumn::norm, v); }
    TokenBuilder& lemma(std::string_view v) { return attr(TokenColumn::lemma, v); }
    TokenBuilder& pos(std::string_view v) { return attr(TokenColumn::pos, v); }
    TokenBuilder& tag(std::string_view v) { return attr(TokenColumn::tag, v); }
    TokenBuilder& dep(std::string_view v) { return attr(TokenColumn::dep, v); }
    TokenBuilder& morph(std::string_view v) { return attr(TokenColumn::morph, v); }
    // The head's absolute token index; it may name a token not added yet. A new token is a root
    // (its own head) until this is called.
    TokenBuilder& head(std::size_t index);
    TokenBuilder& sent(Sentence s);
    TokenBuilder& conf(float c);  // in [0, 1]

    std::size_t index() const noexcept { return i_; }

private:
    friend class DocBuilder;
    TokenBuilder(DocBuilder& b, std::size_t i) noexcept : b_(&b), i_(i) {}
    DocBuilder* b_;
    std::size_t i_;
};

class DocBuilder {
public:
    // Adds a document with this text to `c`, interning strings into c.strings. A container
    // stores its documents in shared columns, so a builder grows the container's last document:
    // once another document is added after it, or documents are removed (even if one is added
    // again at its index), its calls throw std::logic_error.
    DocBuilder(Container& c, std::string_view text);
    // The same, keeping the first error instead of throwing it (see the top of this header).
    DocBuilder(Container& c, std::string_view text, NoThrow);
    // Success, or the first error of a no_throw builder (a throwing builder is always ok).
    Status status() const { return error_ ? Status(*error_) : Status(); }

    // A token over the next occurrence of `word` at or after the end of the previous token, as a
    // whole token: an occurrence that starts inside a word is passed over (token("a") in "He
    // played a game" is the "a" after "played"). Inside a word means: just after an ASCII letter
    // or digit, when `word` starts with one, and not at the previous token's end (so "do" then
    // "n't" split "don't"). content.token-out-of-text when there is none; content.token-empty
    // for "".
    TokenBuilder token(std::string_view word);
    // A token over bytes [byte_start, byte_start + byte_length) of the text; the span must lie
    // in the text (content.token-out-of-text), on character boundaries (content.invalid-string),
    // not before the end of the previous token (content.token-order) and not be empty.
    TokenBuilder token_at(std::size_t byte_start, std::size_t byte_length);
    // Token i, added before, to set more of its fields (std::out_of_range when there is none).
    TokenBuilder at(std::size_t i);

    // An entity over tokens [first, first + n) (tokens already added), after the previous one.
    // Sets has_ents.
    DocBuilder& entity(std::size_t first, std::size_t n, std::string_view label, float conf = 1.0f);
    // Declares the entity annotation present even if no entity is added ("annotated, none found").
    DocBuilder& entities_annotated();
    // A category with its score in [0, 1]; labels must differ. Sets has_cats. Not in a bin.
    DocBuilder& category(std::string_view label, float score);
    // Declares the categories present even if none is added.
    DocBuilder& categories_annotated();
    // A span over tokens [first, first + n) in the group of this name (made on first use).
    // Not in a bin.
    DocBuilder& span(std::string_view group, std::size_t first, std::size_t n, std::string_view label,
                     float conf = 1.0f);
    // Declares a span group, possibly left empty.
    DocBuilder& span_group(std::string_view name);

    // The document so far (std::logic_error once it is no longer in the container).
    DocSlice doc() const;
    const StringStore& strings() const noexcept { return c_->strings; }
    DocView view() const { return (void)doc(), c_->doc(doc_index_); }
    std::size_t size() const { return doc().tokens.size(); }  // tokens so far

private:
    friend class TokenBuilder;
    StringId intern(std::string_view s) { return c_->strings.intern(s); }
    DocList& last();  // the container's documents, checked to end with this builder's
    void check_still_there() const;  // std::logic_error once the document was removed
    void no_extras_in_bin(const char* what);
    void open(std::string_view text);
    std::size_t find_word(std::string_view word);
    std::size_t add_token(std::size_t byte_start, std::size_t byte_length);
    // Runs one call's work unless an earlier call of a no_throw builder failed; a no_throw
    // builder keeps the ond::Error it raises.
    template <class F>
    void run(F&& work);
    std::string path(const char* list, std::size_t i) const;
    std::size_t group_index(std::string_view name);

    Container* c_;
    std::size_t doc_index_;
    std::uint64_t removals_;  // the container's count when the document was added
    std::size_t byte_end_ = 0;   // where the previous token ends, in bytes
    std::uint64_t unit_end_ = 0;  // and in UTF-16 units
    bool no_throw_ = false;
    std::optional<Error> error_;  // a no_throw builder's first error
};

}  // namespace ond
