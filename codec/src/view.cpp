// The parts of the views (include/ond/view.hpp) that walk text or search.
#include "ond/view.hpp"

namespace ond {

std::string_view TokenView::text() const noexcept { return at_.covering_view(start(), length()); }

std::optional<std::string_view> TokenView::exact_text() const noexcept { return at_.view(start(), length()); }

std::string_view SpanView::text() const noexcept {
    const std::size_t last = std::size_t{first_} + length_;
    if (length_ == 0 || last > p_.tokens) return {};
    const TokenColumns& t = *p_.cols;
    const std::uint64_t start = t.start[p_.base + first_];
    const std::uint64_t end = std::uint64_t{t.start[p_.base + last - 1]} + t.length[p_.base + last - 1];
    return at_.covering_view(start, end > start ? end - start : 0);
}

TokenTexts::TokenTexts(const DocRef& doc) : text_(doc.text()) {
    bounds_.reserve(2 * doc.size());
    for (const TokenView t : doc.tokens()) {
        const std::string_view v = t.text();
        const std::size_t b = v.empty() ? 0 : static_cast<std::size_t>(v.data() - text_.data());
        bounds_.push_back(b);
        bounds_.push_back(b + v.size());
    }
}

Doc DocRef::to_doc() const {
    Doc d = slice().to_doc();
    d.origin = strings_->id();
    return d;
}

std::optional<float> DocRef::category(std::string_view label) const noexcept {
    for (const Category& c : slice().cats)
        if (str(c.label) == label) return c.score;
    return std::nullopt;
}

std::optional<SpanGroupView> DocRef::span_group(std::string_view name) const noexcept {
    const DocSlice s = slice();
    for (std::size_t g = 0; g < s.spans.size(); ++g)
        if (str(s.spans[g].name) == name) return SpanGroupView(as_view(), g);
    return std::nullopt;
}

namespace detail {

CategoryView category_at(const DocView& d, std::size_t i) {
    const Category& c = d.slice().cats[i];
    return CategoryView{d.str(c.label), c.score};
}

}  // namespace detail

std::string_view to_string(Format f) noexcept { return f == Format::ondb ? "ONDB" : "ONDC"; }

}  // namespace ond
