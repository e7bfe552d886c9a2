#include "ond/model.hpp"

#include <algorithm>
#include <cstring>

#include "ond/error.hpp"
#include "ond/unicode.hpp"

namespace ond {

StringStore::StringStore() : offsets_{0, 0} {}

void StringStore::clear() {
    bytes_.clear();
    offsets_.assign({0, 0});
    index_.clear();
    indexed_ = 0;
}

StringId StringStore::append(std::string_view wtf8) {
    // Views into bytes_ held by index_ would dangle if bytes_ reallocates.
    const char* before = bytes_.data();
    bytes_.append(wtf8);
    offsets_.push_back(bytes_.size());
    if (bytes_.data() != before) {
        index_.clear();
        indexed_ = 0;
    }
    return static_cast<StringId>(size() - 1);
}

StringId StringStore::intern(std::string_view wtf8) {
    if (wtf8.empty()) return 0;
    for (; indexed_ < size(); ++indexed_) index_.emplace(view(static_cast<StringId>(indexed_)), static_cast<StringId>(indexed_));
    if (auto it = index_.find(wtf8); it != index_.end()) return it->second;
    StringId id = append(wtf8);
    for (; indexed_ < size(); ++indexed_) index_.emplace(view(static_cast<StringId>(indexed_)), static_cast<StringId>(indexed_));
    return id;
}

void Tokens::resize(std::size_t n) {
    conf.resize(n, 1.0f);  // first: a new token's confidence is 1.0, not the 0 the others get
    detail::for_each_token_column(*this, [n](auto& column) { column.resize(n); });
}

void Tokens::reserve(std::size_t n) {
    detail::for_each_token_column(*this, [n](auto& column) { column.reserve(n); });
}

void Tokens::clear() { resize(0); }

void Doc::set_text(std::string_view wtf8) {
    auto len = unicode::wtf8_utf16_length(wtf8);
    if (!len) throw Error(Errc::content_invalid_string, no_offset, "the text is not valid WTF-8", "text");
    if (*len > 0xFFFFFFFFull) throw Error(Errc::content_too_large, no_offset, "the text is longer than 2^32 - 1 UTF-16 code units", "text");
    text.assign(wtf8);
    text_utf16_length = static_cast<std::uint32_t>(*len);
}

namespace {
bool same_bits(float a, float b) {
    std::uint32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
}
bool same_str(StringId a, const StringStore& sa, StringId b, const StringStore& sb) {
    if (!sa.contains(a) || !sb.contains(b)) return false;
    return sa.view(a) == sb.view(b);
}
}  // namespace

bool same_doc(const DocSlice& a, const StringStore& sa, const DocSlice& b, const StringStore& sb) {
    if (a.text != b.text) return false;
    const TokenSlice& ta = a.tokens;
    const TokenSlice& tb = b.tokens;
    const std::size_t n = ta.size();
    if (tb.size() != n) return false;
    auto same = [](auto x, auto y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
    if (!same(ta.start, tb.start) || !same(ta.length, tb.length) || !same(ta.head, tb.head) || !same(ta.sent, tb.sent))
        return false;
    for (std::size_t c = 0; c < token_column_count; ++c)
        for (std::size_t i = 0; i < n; ++i)
            if (!same_str(ta.attrs[c][i], sa, tb.attrs[c][i], sb)) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (!same_bits(ta.conf[i], tb.conf[i])) return false;
    // R22: without tokens there is no entity annotation, so has_ents then carries no content.
    if ((a.has_ents != b.has_ents && n > 0) || a.ents.size() != b.ents.size()) return false;
    for (std::size_t i = 0; i < a.ents.size(); ++i) {
        const Entity &x = a.ents[i], &y = b.ents[i];
        if (x.start != y.start || x.length != y.length || !same_str(x.label, sa, y.label, sb) || !same_bits(x.conf, y.conf))
            return false;
    }
    if (a.has_cats != b.has_cats || a.cats.size() != b.cats.size()) return false;
    for (std::size_t i = 0; i < a.cats.size(); ++i)
        if (!same_str(a.cats[i].label, sa, b.cats[i].label, sb) || !same_bits(a.cats[i].score, b.cats[i].score))
            return false;
    if (a.spans.size() != b.spans.size()) return false;
    for (std::size_t g = 0; g < a.spans.size(); ++g) {
        const SpanGroupSlice x = a.spans[g], y = b.spans[g];
        if (!same_str(x.name, sa, y.name, sb) || x.spans.size() != y.spans.size()) return false;
        for (std::size_t i = 0; i < x.spans.size(); ++i) {
            const Span &p = x.spans[i], &q = y.spans[i];
            if (p.start != q.start || p.length != q.length || !same_str(p.label, sa, q.label, sb) || !same_bits(p.conf, q.conf))
                return false;
        }
    }
    return true;
}

bool same_content(const Container& a, const Container& b) {
    if (a.format != b.format || a.crc != b.crc || a.docs.size() != b.docs.size()) return false;
    for (std::size_t i = 0; i < a.docs.size(); ++i)
        if (!same_doc(a.docs[i], a.strings, b.docs[i], b.strings)) return false;
    return true;
}

}  // namespace ond
