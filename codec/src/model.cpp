#include "ond/model.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "ond/error.hpp"
#include "ond/reader.hpp"
#include "ond/unicode.hpp"
#include "ond/internal/fault.hpp"

namespace ond {

StringStore::StringStore() : offsets_{0, 0}, id_(fresh_id()) {}

std::string_view detail::store_bytes(const StringStore& s) noexcept { return s.bytes_; }

std::uint64_t StringStore::fresh_id() noexcept {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

void StringStore::inherit(const StringStore& source) noexcept {
    // Nearest first; the oldest is forgotten (a Doc from it is then refused, never relabelled).
    sources_[0] = Source{source.id_, source.size()};
    for (std::size_t k = 1; k < sources_.size(); ++k) sources_[k] = source.sources_[k - 1];
}

std::size_t StringStore::ids_shared_with(std::uint64_t origin) const noexcept {
    if (origin == id_) return size();
    for (const Source& s : sources_)
        if (s.id != 0 && s.id == origin) return static_cast<std::size_t>(std::min<std::uint64_t>(s.shared, size()));
    return 0;
}

void StringStore::clear() {
    bytes_.clear();
    offsets_.assign({0, 0});
    index_.clear();
    indexed_ = 0;
    id_ = fresh_id();  // the old ids mean nothing any more
    sources_ = {};
    distinct_ = true;
}

void StringStore::reserve(std::size_t strings, std::size_t bytes) {
    // Reallocating bytes_ would leave index_'s views dangling: it is rebuilt, as in push().
    if (bytes_.size() + bytes > bytes_.capacity()) {
        index_.clear();
        indexed_ = 0;
    }
    bytes_.reserve(bytes_.size() + bytes);
    offsets_.reserve(offsets_.size() + strings);
}

StringId StringStore::append(std::string_view wtf8) {
    distinct_ = false;
    return push(wtf8);
}

StringId StringStore::push(std::string_view wtf8) {
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
    StringId id = push(wtf8);
    for (; indexed_ < size(); ++indexed_) index_.emplace(view(static_cast<StringId>(indexed_)), static_cast<StringId>(indexed_));
    return id;
}

void Tokens::resize(std::size_t n) {
    conf.resize(n, 1.0f);  // first: a new token's confidence is 1.0, not the 0 the others get
    std::size_t had = head.size();
    detail::for_each_token_column(*this, [n](auto& column) { column.resize(n); });
    for (; had < n; ++had) head[had] = static_cast<std::int32_t>(had);  // a new token is a root, as DocBuilder makes it
}

void Tokens::reserve(std::size_t n) {
    detail::for_each_token_column(*this, [n](auto& column) { column.reserve(n); });
}

void Tokens::clear() { resize(0); }

void Doc::set_text(std::string_view wtf8) {
    auto len = unicode::wtf8_utf16_length(wtf8);
    if (!len) return void(detail::raise(Error(Errc::content_invalid_string, no_offset, "the text is not valid WTF-8", "text")));
    if (*len > 0xFFFFFFFFull)
        return void(detail::raise(
            Error(Errc::content_too_large, no_offset, "the text is longer than 2^32 - 1 UTF-16 code units", "text")));
    text.assign(wtf8);
}

std::uint32_t Doc::text_utf16_length() const noexcept {
    // Saturated at the largest length a document may have (the writer refuses a longer text).
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(unicode::wtf8_utf16_length(text).value_or(0), 0xFFFFFFFFu));
}

// ---- adding documents of other containers -----------------------------------------------------

namespace {
// Calls f on every string id a Doc holds.
template <class F>
void for_each_id(Doc& d, F&& f) {
    for (auto& column : d.tokens.attrs)
        for (StringId& id : column) f(id);
    for (Entity& e : d.ents) f(e.label);
    for (Category& c : d.cats) f(c.label);
    for (SpanGroup& g : d.spans) {
        f(g.name);
        for (Span& s : g.spans) f(s.label);
    }
}

// Moves Docs' ids from one store to another, each distinct string interned once per target.
// Its table is the size of `from` and made once, however many targets (split) it serves.
class Reinterner {
public:
    explicit Reinterner(const StringStore& from) : from_(from) {}
    void retarget() noexcept { ++generation_; }  // the next Docs go to another store
    void operator()(Doc& d, StringStore& to) {
        if (&from_ == &to) return;
        if (map_.empty()) {
            map_.resize(from_.size());
            seen_.assign(from_.size(), 0);
        }
        for_each_id(d, [&](StringId& id) {
            if (id >= map_.size()) return;  // not in `from`: left for push_back to refuse
            if (seen_[id] != generation_) {
                map_[id] = to.intern(from_.view(id));
                seen_[id] = generation_;
            }
            id = map_[id];
        });
        d.origin = to.id();
    }

private:
    const StringStore& from_;
    std::vector<StringId> map_;
    std::vector<std::uint32_t> seen_;  // map_[id] holds for the target of this generation
    std::uint32_t generation_ = 1;
};

// One Doc: each id looked up by its string (no table the size of `from`).
void reintern_one(Doc& d, const StringStore& from, StringStore& to) {
    if (&from == &to) return;
    if (d.origin != 0 && from.ids_shared_with(d.origin) == 0)
        return void(detail::raise(Error(Errc::content_bad_string_id, no_offset,
                                        "the document's string ids do not index the store given with it", "")));
    // Every id is checked before any is mapped: a stand-in for an unknown id could become a real id
    // once a later string is interned, and the document would then be accepted with a wrong string.
    bool known = true;
    for_each_id(d, [&](StringId& id) { known = known && from.contains(id); });
    if (!known)
        return void(detail::raise(Error(Errc::content_bad_string_id, no_offset,
                                        "a string id of the document is not in the store given with it", "")));
    for_each_id(d, [&](StringId& id) { id = to.intern(from.view(id)); });
    d.origin = to.id();
}
}  // namespace

void Container::append(const DocRef& doc) {
    Doc d = doc.to_doc();  // a copy first: `doc` may view this container, whose buffers grow
    reintern_one(d, doc.strings(), strings);
    OND_BAIL();
    docs.push_back(d);
}

void Container::append(const RecordView& record) { append(record.view()); }

void Container::append(const Doc& doc, const StringStore& from) {
    Doc d = doc;
    reintern_one(d, from, strings);
    OND_BAIL();
    docs.push_back(d);
}

void merge(Container& into, const Container& from) {
    Reinterner reintern(from.strings);
    Doc d;
    const std::size_t n = from.docs.size();  // merging a container into itself doubles it once
    for (std::size_t i = 0; i < n; ++i) {
        d = from.docs[i].to_doc();
        reintern(d, into.strings);
        into.docs.push_back(d);
        OND_BAIL();
    }
}

Container pack(std::span<const Container> parts, Format format) {
    Container out;
    out.format = format;
    for (const Container& p : parts) {
        merge(out, p);
        OND_BAIL({});
    }
    return out;
}

std::vector<Container> split(const Container& from, std::size_t docs_per_part, Format format) {
    if (docs_per_part == 0) docs_per_part = 1;
    std::vector<Container> parts;
    parts.reserve((from.docs.size() + docs_per_part - 1) / docs_per_part);
    Reinterner reintern(from.strings);
    Doc d;
    for (std::size_t i = 0; i < from.docs.size(); i += docs_per_part) {
        Container& part = parts.emplace_back();
        part.format = format;
        part.crc = from.crc;
        reintern.retarget();
        for (std::size_t k = i; k < std::min(from.docs.size(), i + docs_per_part); ++k) {
            d = from.docs[k].to_doc();
            reintern(d, part.strings);
            part.docs.push_back(d);
            OND_BAIL({});
        }
    }
    return parts;
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
