// A container's documents in columns (include/ond/doc_list.hpp).
#include "ond/doc_list.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include "ond/error.hpp"
#include "ond/unicode.hpp"
#include "ond/internal/fault.hpp"

namespace ond {

bool detail::error_pending() noexcept { return detail::faulted(); }

namespace {
// Every column the list keeps: the confidences only once they are stored (TokenColumns::conf).
template <class F>
void for_each_kept_column(TokenColumns& t, F&& f) {
    const bool keeps_conf = !t.conf.empty();
    detail::for_each_token_column(t, [&](auto& column) {
        if (static_cast<const void*>(&column) != &t.conf || keeps_conf) f(column);
    });
}
}  // namespace

void TokenColumns::resize(std::size_t n) {
    for_each_kept_column(*this, [n](auto& column) { column.resize(n); });
}

void TokenColumns::reserve(std::size_t n) {
    for_each_kept_column(*this, [n](auto& column) { column.reserve(n); });
}

// ---- DocSlice ----------------------------------------------------------------------------------

std::optional<std::string_view> DocSlice::token_text(std::size_t i) const {
    if (i >= tokens.size()) return std::nullopt;
    return unicode::Utf16Offsets(text, text_utf16_length).view(tokens.start[i], tokens.length[i]);
}

Doc DocSlice::to_doc() const {
    Doc d;
    d.text.assign(text);
    Tokens& t = d.tokens;
    t.start.assign(tokens.start.begin(), tokens.start.end());
    t.length.assign(tokens.length.begin(), tokens.length.end());
    for (std::size_t c = 0; c < token_column_count; ++c)
        tokens.attrs[c].visit([&](auto ids) { t.attrs[c].assign(ids.begin(), ids.end()); });
    t.head.assign(tokens.head.begin(), tokens.head.end());
    t.sent.assign(tokens.sent.begin(), tokens.sent.end());
    if (const float* c = tokens.conf.stored())
        t.conf.assign(c, c + tokens.size());
    else
        t.conf.assign(tokens.size(), 1.0f);
    d.has_ents = has_ents;
    d.ents.assign(ents.begin(), ents.end());
    d.has_cats = has_cats;
    d.cats.assign(cats.begin(), cats.end());
    for (SpanGroupSlice g : spans) d.spans.push_back(SpanGroup{g.name, std::vector<Span>(g.spans.begin(), g.spans.end())});
    d.origin = origin;
    return d;
}

// ---- DocList -----------------------------------------------------------------------------------

namespace {
// walker_at's locks, one of a few per list address: building an index takes O(text) once, a
// lookup a moment; lists on other stripes do not wait.
std::mutex& text_index_lock(const void* list) noexcept {
    static std::array<std::mutex, 16> locks;
    return locks[(reinterpret_cast<std::uintptr_t>(list) >> 6) % locks.size()];
}
}  // namespace

unicode::Utf16Offsets DocList::walker_at(std::size_t i, std::uint64_t units) const noexcept {
    const Entry& e = docs_[i];
    const std::string_view text = std::string_view(text_).substr(e.text.begin, e.text.count);
    if (text.size() == e.text_utf16_length) return unicode::Utf16Offsets(text, e.text_utf16_length);  // ASCII
    const std::lock_guard<std::mutex> hold(text_index_lock(this));
    auto& index = text_indexes_.by_doc[i];
    if (!index || index->bytes() != text.size()) index = std::make_unique<const unicode::Utf16Index>(text);
    return index->walker(text, e.text_utf16_length, units);
}

void DocList::open_doc() {
    // Filled in place: an Entry built aside and copied in was read back in 16-byte pieces just
    // after its 8-byte fields were written, which the store buffer cannot forward.
    Entry& e = docs_.emplace_back();
    e.text.begin = text_.size();
    e.tokens.begin = tokens_.size();
    e.ents.begin = ents_.size();
    e.cats.begin = cats_.size();
    e.groups.begin = group_names_.size();
}

void DocList::close_text(std::uint32_t utf16_length) noexcept {
    Entry& e = docs_.back();
    e.text.count = text_.size() - e.text.begin;
    e.text_utf16_length = utf16_length;
}

DocList::TokenRows DocList::token_rows() noexcept {
    const std::size_t b = docs_.back().tokens.begin;
    TokenRows r{tokens_.start.data() + b, tokens_.length.data() + b, {}, {}, tokens_.head.data() + b,
                tokens_.sent.data() + b, tokens_.conf.empty() ? nullptr : tokens_.conf.data() + b};
    for (std::size_t c = 0; c < token_column_count; ++c) {
        r.narrow_attrs[c] = tokens_.attrs[c].narrow_rows(b);
        r.wide_attrs[c] = tokens_.attrs[c].wide_rows(b);
    }
    return r;
}

void DocList::fit_ids(StringId max) {
    for (IdColumn& column : tokens_.attrs) column.fit(max);
}

void DocList::set_attr_row(std::size_t token, TokenColumn c, StringId id) {
    tokens_.attrs[static_cast<std::size_t>(c)].set(docs_.back().tokens.begin + token, id);
}

void DocList::keep_conf() {
    if (!tokens_.conf.empty()) return;
    tokens_.conf.resize(tokens_.size());
    std::fill(tokens_.conf.begin(), tokens_.conf.end(), 1.0f);
}

float* DocList::conf_rows() {
    keep_conf();
    return tokens_.conf.data() + docs_.back().tokens.begin;
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
        return void(detail::raise(Error(Errc::content_inconsistent, no_offset,
                                        "token columns differ in size (" + std::to_string(n) + " starts)", "tokens")));
}
}  // namespace

// Every id of the Doc must index this list's store, and mean there what it meant where the Doc
// came from: its origin is this store, or a store this one is a copy of (ids in the shared part).
void DocList::check_ids(const Doc& d) const {
    const StringStore* store = strings_.store;
    if (!store) return;
    const std::size_t limit = d.origin == 0 ? store->size() : store->ids_shared_with(d.origin);
    if (d.origin != 0 && limit == 0)
        return void(detail::raise(Error(Errc::content_bad_string_id, no_offset,
                                        "the document's string ids index another container's strings (Container::append "
                                        "re-interns them)",
                                        "")));
    // False when it refused the id (without exceptions: with them it threw).
    auto check = [&](StringId id, auto&& path) -> bool {
        if (id < limit) [[likely]]
            return true;
        return detail::raise(Error(Errc::content_bad_string_id, no_offset,
                                   "string id " + std::to_string(id) +
                                       (d.origin == 0 ? " is not in the container's string store"
                                                      : " is past the strings this container shares with the document's origin"),
                                   path()));
    };
    const Tokens& t = d.tokens;
    for (std::size_t c = 0; c < token_column_count; ++c)
        for (std::size_t i = 0; i < t.attrs[c].size(); ++i)
            if (!check(t.attrs[c][i], [&] { return "tokens[" + std::to_string(i) + "]." + token_column_names[c]; })) return;
    for (std::size_t i = 0; i < d.ents.size(); ++i)
        if (!check(d.ents[i].label, [&] { return "ents[" + std::to_string(i) + "].label"; })) return;
    for (std::size_t i = 0; i < d.cats.size(); ++i)
        if (!check(d.cats[i].label, [&] { return "cats[" + std::to_string(i) + "].label"; })) return;
    for (std::size_t g = 0; g < d.spans.size(); ++g) {
        if (!check(d.spans[g].name, [&] { return "spans[" + std::to_string(g) + "].name"; })) return;
        for (std::size_t i = 0; i < d.spans[g].spans.size(); ++i)
            if (!check(d.spans[g].spans[i].label,
                       [&] { return "spans[" + std::to_string(g) + "].spans[" + std::to_string(i) + "].label"; }))
                return;
    }
}

void DocList::push_back(const Doc& d) {
    check_shape(d);  // before anything is added: a refused Doc leaves the list as it was
    OND_BAIL();
    check_ids(d);
    OND_BAIL();
    const Tokens& t = d.tokens;
    const std::size_t n = t.size();
    open_doc();
    text_.append(d.text);
    // The length is counted from the text (0 for text that is not WTF-8, which the writer refuses).
    close_text(d.text_utf16_length());
    TokenRows r = resize_tokens(n);
    std::copy_n(t.start.begin(), n, r.start);
    std::copy_n(t.length.begin(), n, r.length);
    for (std::size_t c = 0; c < token_column_count; ++c) tokens_.attrs[c].assign(docs_.back().tokens.begin, t.attrs[c]);
    std::copy_n(t.head.begin(), n, r.head);
    std::copy_n(t.sent.begin(), n, r.sent);
    // Confidences of 1.0 need no column: one is made at the first other value.
    if (r.conf || std::any_of(t.conf.begin(), t.conf.end(), [](float c) { return c != 1.0f; }))
        std::copy_n(t.conf.begin(), n, conf_rows());
    set_has_ents(d.has_ents || !d.ents.empty());  // one fact: entities mean the annotation is there
    for (const Entity& x : d.ents) add_entity(x);
    set_has_cats(d.has_cats || !d.cats.empty());
    for (const Category& x : d.cats) add_category(x);
    for (const SpanGroup& g : d.spans) {
        add_span_group(g.name);
        for (const Span& s : g.spans) add_span(docs_.back().groups.count - 1, s);
    }
}

void DocList::pop_back() {
    ++removals_;
    cut_last();
}

void DocList::cut_last() {
    const Entry e = docs_.back();
    docs_.pop_back();
    if (!text_indexes_.by_doc.empty()) text_indexes_.by_doc.erase(docs_.size());
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
    if (!docs_.empty()) ++removals_;
    docs_.clear();
    text_indexes_.by_doc.clear();
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
    OND_BAIL();
    check_ids(d);
    OND_BAIL();
    std::vector<Doc> after;
    after.reserve(size() - i - 1);
    for (std::size_t k = i + 1; k < size(); ++k) after.push_back((*this)[k].to_doc());
    // Not a removal: every document comes back at its index (a builder of a later one goes on).
    while (size() > i) cut_last();
    push_back(d);  // checked above: not refused now
    OND_BAIL();
    for (const Doc& x : after) {
        push_back(x);
        OND_BAIL();
    }
}

}  // namespace ond

namespace ond {

// ---- edits in place ----------------------------------------------------------------------------

namespace {
std::string at(std::size_t doc, const char* list, std::size_t i) {
    return "docs[" + std::to_string(doc) + "]." + list + "[" + std::to_string(i) + "]";
}
void check_unit(float v, Errc e, const std::string& path) {
    if (!(v >= 0.0f && v <= 1.0f)) return void(detail::raise(Error(e, no_offset, "must be in [0, 1]", path)));
}
}  // namespace

const DocList::Entry& DocList::entry(std::size_t doc) const {
    if (doc >= docs_.size()) detail::raise_logic<std::out_of_range>("DocList: no document " + std::to_string(doc));
    return docs_[doc];
}

std::uint64_t DocList::row(std::size_t doc, std::size_t token) const {
    const Entry& e = entry(doc);
    if (token >= e.tokens.count)
        detail::raise_logic<std::out_of_range>("DocList: document " + std::to_string(doc) + " has no token " + std::to_string(token));
    return e.tokens.begin + token;
}

void DocList::check_id(StringId id, const std::string& path) const {
    if (strings_.store && !strings_.store->contains(id))
        return void(detail::raise(Error(Errc::content_bad_string_id, no_offset,
                                        "string id " + std::to_string(id) + " is not in the container's string store", path)));
}

void DocList::set_attr(std::size_t doc, std::size_t token, TokenColumn c, StringId id) {
    const std::uint64_t r = row(doc, token);
    check_id(id, at(doc, "tokens", token) + "." + token_column_names[static_cast<std::size_t>(c)]);
    OND_BAIL();
    tokens_.attrs[static_cast<std::size_t>(c)].set(r, id);
}

void DocList::set_head(std::size_t doc, std::size_t token, std::size_t head) {
    const std::uint64_t r = row(doc, token);
    if (head >= docs_[doc].tokens.count)
        return void(detail::raise(Error(Errc::content_head_out_of_range, no_offset,
                                        "head " + std::to_string(head) + " is not a token of the document",
                                        at(doc, "tokens", token) + ".head")));
    tokens_.head[r] = static_cast<std::int32_t>(head);
}

void DocList::set_sent(std::size_t doc, std::size_t token, Sentence s) {
    const std::uint64_t r = row(doc, token);
    if (static_cast<unsigned>(s) > 2)
        return void(detail::raise(
            Error(Errc::content_bad_sentence_value, no_offset, "a sentence value is 0, 1 or 2", at(doc, "tokens", token) + ".sent")));
    tokens_.sent[r] = s;
}

void DocList::set_conf(std::size_t doc, std::size_t token, float conf) {
    const std::uint64_t r = row(doc, token);
    check_unit(conf, Errc::content_confidence_out_of_range, at(doc, "tokens", token) + ".conf");
    OND_BAIL();
    if (tokens_.conf.empty() && conf == 1.0f) return;  // what it reads already
    keep_conf();
    tokens_.conf[r] = conf;
}

void DocList::set_entity_label(std::size_t doc, std::size_t ent, StringId label) {
    const Entry& e = entry(doc);
    if (ent >= e.ents.count)
        detail::raise_logic<std::out_of_range>("DocList: document " + std::to_string(doc) + " has no entity " + std::to_string(ent));
    check_id(label, at(doc, "ents", ent) + ".label");
    OND_BAIL();
    ents_[e.ents.begin + ent].label = label;
}

void DocList::set_entity_conf(std::size_t doc, std::size_t ent, float conf) {
    const Entry& e = entry(doc);
    if (ent >= e.ents.count)
        detail::raise_logic<std::out_of_range>("DocList: document " + std::to_string(doc) + " has no entity " + std::to_string(ent));
    check_unit(conf, Errc::content_confidence_out_of_range, at(doc, "ents", ent) + ".conf");
    OND_BAIL();
    ents_[e.ents.begin + ent].conf = conf;
}

void DocList::set_category_score(std::size_t doc, std::size_t cat, float score) {
    const Entry& e = entry(doc);
    if (cat >= e.cats.count)
        detail::raise_logic<std::out_of_range>("DocList: document " + std::to_string(doc) + " has no category " + std::to_string(cat));
    check_unit(score, Errc::content_score_out_of_range, at(doc, "cats", cat) + ".score");
    OND_BAIL();
    cats_[e.cats.begin + cat].score = score;
}

void DocList::set_span_label(std::size_t doc, std::size_t group, std::size_t span, StringId label) {
    const Entry& e = entry(doc);
    if (group >= e.groups.count)
        detail::raise_logic<std::out_of_range>("DocList: document " + std::to_string(doc) + " has no span group " +
                                               std::to_string(group));
    const std::size_t g = e.groups.begin + group;
    if (span >= group_bounds_[g + 1] - group_bounds_[g])
        detail::raise_logic<std::out_of_range>("DocList: no span " + std::to_string(span) + " in that group");
    check_id(label, at(doc, "spans", group) + ".spans[" + std::to_string(span) + "].label");
    OND_BAIL();
    spans_[group_bounds_[g] + span].label = label;
}

}  // namespace ond
