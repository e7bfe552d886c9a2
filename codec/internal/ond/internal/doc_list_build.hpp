// The readers' and DocBuilder's access to a DocList's last document: the hooks that fill it in
// place, private in the public header (ond/doc_list.hpp) so that no user can leave a document
// half written. Not installed.
#pragma once

#include <cstddef>
#include <string>

#include "ond/doc_list.hpp"

namespace ond::detail {

class DocListBuild {
public:
    explicit DocListBuild(DocList& l) noexcept : l_(&l) {}

    void open_doc() { l_->open_doc(); }
    std::string& text_buffer() noexcept { return l_->text_buffer(); }
    void close_text(std::uint32_t utf16_length) noexcept { l_->close_text(utf16_length); }
    TokenRows resize_tokens(std::size_t n) { return l_->resize_tokens(n); }
    TokenRows token_rows() noexcept { return l_->token_rows(); }
    float* conf_rows() { return l_->conf_rows(); }
    // Before resize_tokens: every id column takes ids up to max (a reader's table count).
    void fit_ids(StringId max) { l_->fit_ids(max); }
    // Sets the last document's token `token` (a row that exists), the column widened if need be.
    void set_attr(std::size_t token, TokenColumn c, StringId id) { l_->set_attr_row(token, c, id); }
    void set_has_ents(bool v) noexcept { l_->set_has_ents(v); }
    void add_entity(const Entity& e) { l_->add_entity(e); }
    void set_has_cats(bool v) noexcept { l_->set_has_cats(v); }
    void add_category(const Category& c) { l_->add_category(c); }
    void add_span_group(StringId name) { l_->add_span_group(name); }
    void add_span(std::size_t group, const Span& s) { l_->add_span(group, s); }
    void reserve_more(std::size_t tokens, std::size_t text_bytes) { l_->reserve_more(tokens, text_bytes); }
    // Makes `strings` the store the list's Docs come from and are checked against (a reader's
    // list of one record, over the reader's strings). The store must outlive the list.
    void bind(const StringStore& strings) noexcept { l_->strings_.store = &strings; }

private:
    DocList* l_;
};

inline DocListBuild build(DocList& l) noexcept { return DocListBuild(l); }
inline DocListBuild build(DocList* l) noexcept { return DocListBuild(*l); }

}  // namespace ond::detail
