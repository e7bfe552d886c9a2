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
    start.resize(n);
    length.resize(n);
    for (auto& c : attrs) c.resize(n);
    head.resize(n);
    sent.resize(n);
    conf.resize(n, 1.0f);
}

void Tokens::reserve(std::size_t n) {
    start.reserve(n);
    length.reserve(n);
    for (auto& c : attrs) c.reserve(n);
    head.reserve(n);
    sent.reserve(n);
    conf.reserve(n);
}

void Tokens::clear() { resize(0); }

void Doc::set_text(std::string_view wtf8) {
    auto len = unicode::wtf8_utf16_length(wtf8);
    if (!len) throw Error(Errc::content_invalid_string, no_offset, "the text is not valid WTF-8", "text");
    if (*len > 0xFFFFFFFFull) throw Error(Errc::content_too_large, no_offset, "the text is longer than 2^32 - 1 UTF-16 code units", "text");
    text.assign(wtf8);
    text_utf16_length = static_cast<std::uint32_t>(*len);
}

void TokenColumns::resize(std::size_t n) {
    start.resize(n);
    length.resize(n);
    for (auto& c : attrs) c.resize(n);
    head.resize(n);
    sent.resize(n);
    conf.resize(n);
}

void TokenColumns::reserve(std::size_t n) {
    start.reserve(n);
    length.reserve(n);
    for (auto& c : attrs) c.reserve(n);
    head.reserve(n);
    sent.reserve(n);
    conf.reserve(n);
}

// ---- DocSlice ----------------------------------------------------------------------------------

std::optional<std::string_view> DocSlice::token_text(std::size_t i) const {
    if (i >= tokens.size()) return std::nullopt;
    return unicode::Utf16Offsets(text).view(tokens.start[i], tokens.length[i]);
}

Doc DocSlice::to_doc() const {
    Doc d;
    d.text.assign(text);
    d.text_utf16_length = text_utf16_length;
    const std::size_t n = tokens.size();
    Tokens& t = d.tokens;
    t.start.assign(tokens.start.begin(), tokens.start.end());
    t.length.assign(tokens.length.begin(), tokens.length.end());
    for (std::size_t c = 0; c < token_column_count; ++c) t.attrs[c].assign(tokens.attrs[c].begin(), tokens.attrs[c].end());
    t.head.assign(tokens.head.begin(), tokens.head.end());
    t.sent.assign(tokens.sent.begin(), tokens.sent.end());
    t.conf.assign(tokens.conf.begin(), tokens.conf.end());
    (void)n;
    d.has_ents = has_ents;
    d.ents.assign(ents.begin(), ents.end());
    d.has_cats = has_cats;
    d.cats.assign(cats.begin(), cats.end());
    for (SpanGroupSlice g : spans) d.spans.push_back(SpanGroup{g.name, std::vector<Span>(g.spans.begin(), g.spans.end())});
    return d;
}

// ---- DocList -----------------------------------------------------------------------------------

DocSlice DocList::operator[](std::size_t i) const noexcept {
    const Entry& e = docs_[i];
    const std::size_t b = e.tokens.begin, n = e.tokens.count;
    TokenSlice t{{tokens_.start.data() + b, n}, {tokens_.length.data() + b, n}, {}, {tokens_.head.data() + b, n},
                 {tokens_.sent.data() + b, n}, {tokens_.conf.data() + b, n}};
    for (std::size_t c = 0; c < token_column_count; ++c) t.attrs[c] = {tokens_.attrs[c].data() + b, n};
    return DocSlice{std::string_view(text_).substr(e.text.begin, e.text.count),
                    e.text_utf16_length,
                    t,
                    e.has_ents,
                    {ents_.data() + e.ents.begin, e.ents.count},
                    e.has_cats,
                    {cats_.data() + e.cats.begin, e.cats.count},
                    DocSlice::Groups({group_names_.data() + e.groups.begin, e.groups.count},
                                     {group_bounds_.data() + e.groups.begin, e.groups.count + 1}, spans_.data())};
}

void DocList::open_doc() {
    Entry e;
    e.text.begin = text_.size();
    e.tokens.begin = tokens_.size();
    e.ents.begin = ents_.size();
    e.cats.begin = cats_.size();
    e.groups.begin = group_names_.size();
    docs_.push_back(e);
}

void DocList::close_text(std::uint32_t utf16_length) noexcept {
    Entry& e = docs_.back();
    e.text.count = text_.size() - e.text.begin;
    e.text_utf16_length = utf16_length;
}

DocList::TokenRows DocList::token_rows() noexcept {
    const std::size_t b = docs_.back().tokens.begin;
    TokenRows r{tokens_.start.data() + b, tokens_.length.data() + b, {}, tokens_.head.data() + b,
                tokens_.sent.data() + b, tokens_.conf.data() + b};
    for (std::size_t c = 0; c < token_column_count; ++c) r.attrs[c] = tokens_.attrs[c].data() + b;
    return r;
}

DocList::TokenRows DocList::resize_tokens(std::size_t n) {
    Entry& e = docs_.back();
    tokens_.resize(e.tokens.begin + n);
    e.tokens.count = n;
    return token_rows();
}

void DocList::add_entity(const Entity& x) {
    ents_.push_back(x);
    ++docs_.back().ents.count;
}

void DocList::add_category(const Category& x) {
    cats_.push_back(x);
    ++docs_.back().cats.count;
}

void DocList::add_span_group(StringId name) {
    group_names_.push_back(name);
    group_bounds_.push_back(spans_.size());
    ++docs_.back().groups.count;
}

void DocList::add_span(std::size_t group, const Span& s) {
    // The last document's groups are the last ones, so only its later groups' spans move.
    const std::size_t g = docs_.back().groups.begin + group;
    spans_.insert(spans_.begin() + static_cast<std::ptrdiff_t>(group_bounds_[g + 1]), s);
    for (std::size_t k = g + 1; k < group_bounds_.size(); ++k) ++group_bounds_[k];
}

void DocList::reserve_more(std::size_t tokens, std::size_t text_bytes) {
    if (tokens_.capacity() < tokens_.size() + tokens) tokens_.reserve(tokens_.size() + tokens);
    if (text_.capacity() < text_.size() + text_bytes) text_.reserve(text_.size() + text_bytes);
}

namespace {
// A Doc's token vectors must agree in size to become rows of the columns.
void check_shape(const Doc& d) {
    const Tokens& t = d.tokens;
    const std::size_t n = t.size();
    bool sizes_ok = t.length.size() == n && t.head.size() == n && t.sent.size() == n && t.conf.size() == n;
    for (const auto& col : t.attrs) sizes_ok = sizes_ok && col.size() == n;
    if (!sizes_ok)
        throw Error(Errc::content_inconsistent, no_offset, "token columns differ in size (" + std::to_string(n) + " starts)",
                    "tokens");
}
}  // namespace

void DocList::push_back(const Doc& d) {
    check_shape(d);  // before anything is added: a refused Doc leaves the list as it was
    const Tokens& t = d.tokens;
    const std::size_t n = t.size();
    open_doc();
    text_.append(d.text);
    // The length is taken from the text, so a stale text_utf16_length cannot disagree with it
    // (0 for text that is not WTF-8, which the writer refuses).
    close_text(static_cast<std::uint32_t>(std::min<std::uint64_t>(unicode::wtf8_utf16_length(d.text).value_or(0), 0xFFFFFFFFu)));
    TokenRows r = resize_tokens(n);
    std::copy_n(t.start.begin(), n, r.start);
    std::copy_n(t.length.begin(), n, r.length);
    for (std::size_t c = 0; c < token_column_count; ++c) std::copy_n(t.attrs[c].begin(), n, r.attrs[c]);
    std::copy_n(t.head.begin(), n, r.head);
    std::copy_n(t.sent.begin(), n, r.sent);
    std::copy_n(t.conf.begin(), n, r.conf);
    set_has_ents(d.has_ents);
    for (const Entity& x : d.ents) add_entity(x);
    set_has_cats(d.has_cats);
    for (const Category& x : d.cats) add_category(x);
    for (const SpanGroup& g : d.spans) {
        add_span_group(g.name);
        for (const Span& s : g.spans) add_span(docs_.back().groups.count - 1, s);
    }
}

void DocList::pop_back() {
    const Entry e = docs_.back();
    docs_.pop_back();
    text_.resize(e.text.begin);
    tokens_.resize(e.tokens.begin);
    ents_.resize(e.ents.begin);
    cats_.resize(e.cats.begin);
    group_names_.resize(e.groups.begin);
    group_bounds_.resize(e.groups.begin + 1);
    spans_.resize(group_bounds_.back());
}

void DocList::resize(std::size_t n) {
    while (size() > n) pop_back();
    while (size() < n) open_doc();
}

void DocList::clear() noexcept {
    docs_.clear();
    text_.clear();
    tokens_.resize(0);
    ents_.clear();
    cats_.clear();
    group_names_.clear();
    group_bounds_.resize(1);
    spans_.clear();
}

void DocList::replace(std::size_t i, const Doc& d) {
    // The documents after i move behind the new one: copied out, cut, and added back.
    check_shape(d);
    std::vector<Doc> after;
    after.reserve(size() - i - 1);
    for (std::size_t k = i + 1; k < size(); ++k) after.push_back((*this)[k].to_doc());
    resize(i);
    push_back(d);
    for (const Doc& x : after) push_back(x);
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
