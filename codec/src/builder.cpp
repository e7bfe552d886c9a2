// DocBuilder: a document from its text and words (include/ond/builder.hpp).
#include "ond/builder.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "ond/error.hpp"
#include "ond/unicode.hpp"
#include "ond/internal/doc_list_build.hpp"
#include "ond/internal/fault.hpp"

namespace ond {

namespace {

using detail::refuse;  // the builder's refusals (fault.hpp): check sites `return refuse(...)`

std::string item_path(const char* list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

bool in_unit_range(float v) { return !std::isnan(v) && v >= 0.0f && v <= 1.0f; }

bool ascii_word_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

}  // namespace

template <class F>
void DocBuilder::run(F&& work) {
    if (error_) return;  // a no_throw builder stopped at its first error
    if (!no_throw_) return work();
    // The work leaves at its first error (a throw, or OND_BAIL without exceptions); the builder keeps it.
    if (auto e = detail::capture(std::forward<F>(work))) error_ = std::move(*e);
}

// ---- tokens --------------------------------------------------------------------------------

// The field's path as the writer spells it: "doc.tokens[3]" in an ONDC, "docs[2].tokens[3]" in a bin.
std::string DocBuilder::path(const char* list, std::size_t i) const {
    return (c_->format == Format::ondc ? std::string("doc.") : item_path("docs", doc_index_) + ".") + item_path(list, i);
}

void DocBuilder::check_still_there() const {
    if (doc_index_ >= c_->docs.size() || c_->docs.removals() != removals_)
        detail::raise_logic<std::logic_error>("DocBuilder: document " + std::to_string(doc_index_) +
                                              " is no longer in the container");
}

DocSlice DocBuilder::doc() const {
    check_still_there();
    return c_->docs[doc_index_];
}

DocList& DocBuilder::last() {
    check_still_there();  // not removed, even if another document took its index
    if (doc_index_ + 1 != c_->docs.size())
        detail::raise_logic<std::logic_error>("DocBuilder: document " + std::to_string(doc_index_) +
                                              " is no longer the container's last; a builder grows only the last document");
    return c_->docs;
}

// A TokenBuilder of a no_throw builder that has failed does nothing: each setter runs through run().
TokenBuilder& TokenBuilder::attr(TokenColumn c, std::string_view value) {
    b_->run([&] {
        const StringId id = b_->intern(value);
        detail::build(b_->last()).set_attr(i_, c, id);
    });
    return *this;
}

TokenBuilder& TokenBuilder::head(std::size_t index) {
    b_->run([&] {
        if (index > 0x7FFFFFFF)
            return void(refuse(Errc::content_head_out_of_range, b_->path("tokens", i_) + ".head", "a head must be a token index"));
        detail::build(b_->last()).token_rows().head[i_] = static_cast<std::int32_t>(index);
    });
    return *this;
}

TokenBuilder& TokenBuilder::sent(Sentence s) {
    b_->run([&] { detail::build(b_->last()).token_rows().sent[i_] = s; });
    return *this;
}

TokenBuilder& TokenBuilder::conf(float c) {
    b_->run([&] {
        if (!in_unit_range(c))
            return void(refuse(Errc::content_confidence_out_of_range, b_->path("tokens", i_) + ".conf",
                               "a confidence must be in [0, 1]"));
        auto list = detail::build(b_->last());
        if (float* rows = list.token_rows().conf)
            rows[i_] = c;
        else if (c != 1.0f)  // 1.0 is what a list without confidences reads
            list.conf_rows()[i_] = c;
    });
    return *this;
}

DocBuilder::DocBuilder(Container& c, std::string_view text)
    : c_(&c), doc_index_(c.docs.size()), removals_(c.docs.removals()) {
    open(text);
}

DocBuilder::DocBuilder(Container& c, std::string_view text, NoThrow)
    : c_(&c), doc_index_(c.docs.size()), removals_(c.docs.removals()), no_throw_(true) {
    run([&] { open(text); });
}

void DocBuilder::open(std::string_view text) {
    // Checked before the document is added: a refused text leaves the container as it was.
    const auto units = unicode::wtf8_utf16_length(text);
    if (!units) return void(refuse(Errc::content_invalid_string, "text", "the text is not valid WTF-8"));
    if (*units > 0xFFFFFFFFull)
        return void(refuse(Errc::content_too_large, "text", "the text is longer than 2^32 - 1 UTF-16 code units"));
    detail::DocListBuild docs(c_->docs);
    docs.open_doc();
    docs.text_buffer().append(text);
    docs.close_text(static_cast<std::uint32_t>(*units));
}

TokenBuilder DocBuilder::token(std::string_view word) {
    std::size_t i = 0;
    run([&] {
        const std::size_t at = find_word(word);
        OND_BAIL();
        i = add_token(at, word.size());
    });
    return TokenBuilder(*this, i);
}

// The next occurrence of `word` after the previous token that starts a whole token.
std::size_t DocBuilder::find_word(std::string_view word) {
    const std::size_t i = last().back().tokens.size();
    if (word.empty()) return refuse(Errc::content_token_empty, path("tokens", i), "a token's word is empty");
    const std::string_view text = last().back().text;
    const bool starts_word = ascii_word_char(word.front());
    std::size_t at = text.find(word, byte_end_);
    while (at != std::string_view::npos && starts_word && at > byte_end_ && ascii_word_char(text[at - 1]))
        at = text.find(word, at + 1);  // inside a word: "a" in "played"
    if (at == std::string_view::npos) {
        std::string why = "\"";  // built by appends: g++ 12 at -O3 warns falsely on `"\"" + std::string(word)`
        why.append(word).append("\" does not occur as a whole token in the text after byte ").append(std::to_string(byte_end_));
        return refuse(Errc::content_token_out_of_text, path("tokens", i), why);
    }
    return at;
}

TokenBuilder DocBuilder::token_at(std::size_t byte_start, std::size_t byte_length) {
    std::size_t i = 0;
    run([&] { i = add_token(byte_start, byte_length); });
    return TokenBuilder(*this, i);
}

std::size_t DocBuilder::add_token(std::size_t byte_start, std::size_t byte_length) {
    const DocSlice d = last().back();
    const std::size_t i = d.tokens.size();
    const std::string_view text = d.text;
    auto span = [&] { return "bytes [" + std::to_string(byte_start) + ", " + std::to_string(byte_start + byte_length) + ")"; };
    if (byte_length == 0) return refuse(Errc::content_token_empty, path("tokens", i), "a token has length 0");
    if (byte_start > text.size() || byte_length > text.size() - byte_start)
        return refuse(Errc::content_token_out_of_text, path("tokens", i),
                      span() + " end past the text's " + std::to_string(text.size()) + " bytes");
    if (byte_start < byte_end_)
        return refuse(Errc::content_token_order, path("tokens", i),
                      span() + " start before the previous token ends (byte " + std::to_string(byte_end_) + ")");
    // The units from the previous token's end: counted over the bytes in between only, so
    // adding every token in order walks the text once. A span that cuts a character leaves a
    // piece that is not valid WTF-8.
    const auto gap = unicode::wtf8_utf16_length(text.substr(byte_end_, byte_start - byte_end_));
    const auto units = unicode::wtf8_utf16_length(text.substr(byte_start, byte_length));
    if (!gap || !units) return refuse(Errc::content_invalid_string, path("tokens", i), span() + " cut a character");
    const std::uint64_t start = unit_end_ + *gap;
    const detail::TokenRows t = detail::build(last()).resize_tokens(i + 1);
    t.start[i] = static_cast<std::uint32_t>(start);
    t.length[i] = static_cast<std::uint32_t>(*units);
    for (std::size_t c = 0; c < token_column_count; ++c)
        t.wide_attrs[c] ? void(t.wide_attrs[c][i] = 0) : void(t.narrow_attrs[c][i] = 0);
    t.head[i] = static_cast<std::int32_t>(i);
    t.sent[i] = Sentence::unset;
    if (t.conf) t.conf[i] = 1.0f;
    byte_end_ = byte_start + byte_length;
    unit_end_ = start + *units;
    return i;
}

TokenBuilder DocBuilder::at(std::size_t i) {
    if (i >= size()) detail::raise_logic<std::out_of_range>("DocBuilder::at(" + std::to_string(i) + "): no such token yet");
    return TokenBuilder(*this, i);
}

// ---- entities, categories, span groups ------------------------------------------------------

DocBuilder& DocBuilder::entity(std::size_t first, std::size_t n, std::string_view label, float conf) {
    run([&] {
        const DocSlice d = last().back();
        const std::string field = path("ents", d.ents.size());
        if (n == 0) return void(refuse(Errc::content_entity_empty, field, "an entity has length 0"));
        if (first > d.tokens.size() || n > d.tokens.size() - first)
            return void(refuse(Errc::content_entity_out_of_range, field, "ends past the last token added"));
        if (!d.ents.empty() && first < std::size_t{d.ents.back().start} + d.ents.back().length)
            return void(refuse(Errc::content_entity_order, field, "overlaps or precedes the previous entity"));
        if (label.empty()) return void(refuse(Errc::content_label_empty, field + ".label", "a label must not be empty"));
        if (!in_unit_range(conf))
            return void(refuse(Errc::content_confidence_out_of_range, field + ".conf", "a confidence must be in [0, 1]"));
        const Entity e{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(n), intern(label), conf};
        detail::build(last()).add_entity(e);
        detail::build(last()).set_has_ents(true);
    });
    return *this;
}

DocBuilder& DocBuilder::entities_annotated() {
    run([&] { detail::build(last()).set_has_ents(true); });
    return *this;
}

void DocBuilder::no_extras_in_bin(const char* what) {
    if (c_->format == Format::ondb)
        return void(refuse(Errc::content_bin_extras, item_path("docs", doc_index_), std::string("a bin's records cannot carry ") + what));
}

DocBuilder& DocBuilder::category(std::string_view label, float score) {
    run([&] {
        no_extras_in_bin("categories");
        OND_BAIL();
        const DocSlice d = last().back();
        const std::string field = path("cats", d.cats.size());
        if (label.empty()) return void(refuse(Errc::content_label_empty, field + ".label", "a label must not be empty"));
        for (const Category& c : d.cats)
            if (c_->strings.view(c.label) == label)
                return void(refuse(Errc::content_duplicate_category, field + ".label",
                                   "the category \"" + std::string(label) + "\" is there already"));
        if (!in_unit_range(score))
            return void(refuse(Errc::content_score_out_of_range, field + ".score", "a category score must be in [0, 1]"));
        const Category cat{intern(label), score};
        detail::build(last()).add_category(cat);
        detail::build(last()).set_has_cats(true);
    });
    return *this;
}

DocBuilder& DocBuilder::categories_annotated() {
    run([&] {
        no_extras_in_bin("categories");
        OND_BAIL();
        detail::build(last()).set_has_cats(true);
    });
    return *this;
}

std::size_t DocBuilder::group_index(std::string_view name) {
    no_extras_in_bin("span groups");
    OND_BAIL({});
    const DocSlice d = last().back();
    for (std::size_t g = 0; g < d.spans.size(); ++g)
        if (c_->strings.view(d.spans[g].name) == name) return g;
    if (name.empty())
        return refuse(Errc::content_label_empty, path("spans", d.spans.size()) + ".name", "a group name must not be empty");
    const StringId id = intern(name);
    detail::build(last()).add_span_group(id);
    return d.spans.size();
}

DocBuilder& DocBuilder::span_group(std::string_view name) {
    run([&] { (void)group_index(name); });
    return *this;
}

DocBuilder& DocBuilder::span(std::string_view group, std::size_t first, std::size_t n, std::string_view label, float conf) {
    run([&] {
        const std::size_t g = group_index(group);
        OND_BAIL();
        const DocSlice d = last().back();
        const std::span<const Span> spans = d.spans[g].spans;
        const std::string field = path("spans", g) + item_path(".spans", spans.size());
        if (n == 0) return void(refuse(Errc::content_span_empty, field, "a span has length 0"));
        if (first > d.tokens.size() || n > d.tokens.size() - first)
            return void(refuse(Errc::content_span_out_of_range, field, "ends past the last token added"));
        if (label.empty()) return void(refuse(Errc::content_label_empty, field + ".label", "a label must not be empty"));
        if (!in_unit_range(conf))
            return void(refuse(Errc::content_confidence_out_of_range, field + ".conf", "a confidence must be in [0, 1]"));
        const Span s{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(n), intern(label), conf};
        detail::build(last()).add_span(g, s);
    });
    return *this;
}

}  // namespace ond
