// The `api` harness's checks (api_checks.hpp): each operation against the same change made to
// plain copies, each refusal with its exact code and the content left as it was.
#include "api_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include "ond/internal/framing.hpp"
#include "ond/unicode.hpp"
#include "ond/internal/varint_level.hpp"

namespace ond::fuzz::api {

namespace {

// ond::Error with this code and no offset; the content is compared by the caller.
template <class F>
void refused(Errc code, F&& call, const char* what) {
    const Outcome r = capture(call);
    OND_FUZZ_CHECK_MSG(!r.ok && r.errc == code && r.offset == no_offset,
                       std::string(what) + ": expected " + std::string(error_info(code).code) + ", got " + r.describe());
}

template <class E, class F>
void throws(F&& call, const char* what) {
    bool thrown = false;
    try {
        call();
    } catch (const E&) {
        thrown = true;
    }
    OND_FUZZ_CHECK_MSG(thrown, what);
}

// Document i of `c` equals `d`, whose ids index `s`.
bool equals(const Container& c, std::size_t i, const Doc& d, const StringStore& s) {
    DocList one;  // a list of no container checks no ids
    one.push_back(d);
    return same_doc(one[0], s, c.docs[i], c.strings);
}

bool same_docs_except(const Container& a, const Container& b, std::size_t skip) {
    if (a.docs.size() != b.docs.size()) return false;
    for (std::size_t j = 0; j < a.docs.size(); ++j)
        if (j != skip && !same_doc(a.docs[j], a.strings, b.docs[j], b.strings)) return false;
    return true;
}

// A Doc whose ids index a store no container shares.
Doc foreign_doc() {
    static const StringStore other = [] {
        StringStore s;
        s.intern("foreign");
        return s;
    }();
    Doc d;
    d.set_text("x");
    d.origin = other.id();
    return d;
}

// The distinct non-empty values a document uses.
void used_values(const DocView& v, std::set<std::string>& out) {
    const Doc d = v.to_doc();
    auto add = [&](StringId id) {
        if (!v.str(id).empty()) out.emplace(v.str(id));
    };
    for (const auto& col : d.tokens.attrs)
        for (StringId id : col) add(id);
    for (const Entity& e : d.ents) add(e.label);
    for (const Category& k : d.cats) add(k.label);
    for (const SpanGroup& g : d.spans) {
        add(g.name);
        for (const Span& s : g.spans) add(s.label);
    }
}

}  // namespace

Choices::Choices(Bytes input) : state_(0x9E3779B97F4A7C15ull ^ input.size()) {
    for (std::byte b : input) state_ = (state_ ^ static_cast<std::uint8_t>(b)) * 0x100000001B3ull;
}

std::uint64_t Choices::next() noexcept {  // splitmix64
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void check_results(Bytes input) {
    const Outcome d = capture([&] { (void)decode(input); });
    Result<Container> r = try_decode(input);
    OND_FUZZ_CHECK(r.has_value() == d.ok && static_cast<bool>(r) == d.ok);
    Container fallback;
    fallback.crc = true;
    const Container got = r.value_or(fallback);
    OND_FUZZ_CHECK(d.ok || got.crc);
    const Status s = try_decode_into(input, fallback);
    OND_FUZZ_CHECK(s.has_value() == d.ok);
    if (d.ok) {
        s.value();
        OND_FUZZ_CHECK(same_content(r.value(), std::move(r).value()));
        return;
    }
    OND_FUZZ_CHECK(r.error().errc() == d.errc && r.error().offset() == d.offset && s.error().errc() == d.errc);
    const Result<Container>& cr = r;
    check_same(d, capture([&] { (void)r.value(); }), "decode", "Result::value() &");
    check_same(d, capture([&] { (void)cr.value(); }), "decode", "Result::value() const&");
    check_same(d, capture([&] { (void)std::move(r).value(); }), "decode", "Result::value() &&");
    check_same(d, capture([&] { s.value(); }), "decode", "Status::value");
    const Error bare(d.errc, d.offset, "");
    OND_FUZZ_CHECK(std::string_view(bare.what()).find(error_info(d.errc).summary) != std::string_view::npos);
    // A bin reader that threw throws the same error at every later call.
    Result<DocBinReader> opened = try_open(input);
    if (!opened.ok()) return;
    Result<bool> more = try_next(*opened);
    while (more.ok() && *more) more = try_next(*opened);
    if (more.ok()) return;
    const Result<bool> again = try_next(*opened);
    OND_FUZZ_CHECK(!again.ok() && again.error().errc() == more.error().errc() && again.error().offset() == more.error().offset());
}

void check_framing_helpers(Bytes input) {
    Choices pick(input);
    for (int k = 0; k < 4; ++k) {
        const auto v = static_cast<std::uint32_t>(pick.next() >> (k * 8));
        const std::string enc = framing::encode_varint(v);
        std::uint32_t back = 0;
        OND_FUZZ_CHECK(framing::varint_size_at(enc, 0, &back) == enc.size() && back == v);
        OND_FUZZ_CHECK(framing::varint_size_at(enc.substr(0, enc.size() - 1), 0) == 0);  // cut: no varint
        std::string le(6, '\0');
        framing::put_u32(le, 1, v);
        OND_FUZZ_CHECK(static_cast<std::uint32_t>(static_cast<unsigned char>(le[1])) == (v & 0xFF) && le[0] == 0 && le[5] == 0);
    }
    OND_FUZZ_CHECK(framing::varint_size_at("\xFF\xFF\xFF\xFF\x7F", 0) == 0);  // past 32 bits
    const std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
    if (auto layout = framing::Layout::parse_lenient(text)) {
        std::size_t expected = 0;
        for (const framing::Section& s : layout->sections) {
            if (!s.has_records) ++expected;
            for (const auto& r : s.records) expected += r.sections.size();
        }
        OND_FUZZ_CHECK(layout->leaves().size() == expected);
    }
    for (auto level : {detail::VarintLevel::scalar, detail::VarintLevel::sse41, detail::VarintLevel::avx2, detail::VarintLevel::avx512})
        OND_FUZZ_CHECK(detail::parse_varint_level(detail::varint_level_name(level)) == level);
    OND_FUZZ_CHECK(!detail::parse_varint_level("no-such-level"));
    OND_FUZZ_CHECK(find_error("no.such-code") == nullptr && !error_table().empty());
    // UTF-16 from any bytes: WTF-8 comes back as it was; each byte that starts no sequence is U+FFFD.
    const std::u16string units = unicode::utf16_from_wtf8(text);
    const auto length = unicode::wtf8_utf16_length(text);
    if (length) {
        OND_FUZZ_CHECK(units.size() == *length && unicode::wtf8_from_utf16(units) == text);
        std::string le;
        unicode::append_utf16le_from_wtf8(le, text);
        OND_FUZZ_CHECK(le.size() == 2 * units.size());
    }
    OND_FUZZ_CHECK(units.size() <= text.size());  // a byte gives one unit at most (a 4-byte sequence two)
}

void check_views(const Container& c) {
    OND_FUZZ_CHECK(to_string(c.format) == (c.format == Format::ondb ? "ONDB" : "ONDC"));
    const DocViewRange all = c.doc_views();
    OND_FUZZ_CHECK(all.size() == c.docs.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const DocView v = all[i];
        OND_FUZZ_CHECK(v.index() == i && &v.strings() == &c.strings && &v.list() == &c.docs && v.empty() == (v.size() == 0));
        OND_FUZZ_CHECK(v.to_doc().origin == c.strings.id());
        const DocSlice s = v.slice();
        const TokenTexts texts(v);
        OND_FUZZ_CHECK(texts.size() == v.size() && v.tokens().size() == v.size() && v.tokens().empty() == v.empty());
        for (std::size_t t = 0; t < v.size(); ++t) {
            const TokenView tok = v[t];
            OND_FUZZ_CHECK(texts[t] == tok.text());
            OND_FUZZ_CHECK(s.token_text(t) == tok.exact_text());
            OND_FUZZ_CHECK(tok.norm() == tok.attr(TokenColumn::norm) && tok.lemma() == tok.attr(TokenColumn::lemma) &&
                           tok.pos() == tok.attr(TokenColumn::pos) && tok.tag() == tok.attr(TokenColumn::tag) &&
                           tok.dep() == tok.attr(TokenColumn::dep) && tok.morph() == tok.attr(TokenColumn::morph));
            OND_FUZZ_CHECK(tok.head().index() == tok.head_index() && tok.is_root() == (tok.head_index() == t));
            OND_FUZZ_CHECK(tok.starts_sentence() == (tok.sent() == Sentence::start));
        }
        OND_FUZZ_CHECK(!s.token_text(v.size()));
        for (std::size_t e = 0; e < v.ents().size(); ++e) {
            const EntityView ent = v.ents()[e];
            OND_FUZZ_CHECK(ent.tokens().size() == ent.size() && ent.first_token() == s.ents[e].start);
        }
        for (std::size_t g = 0; g < v.span_group_count(); ++g) {
            const SpanGroupView group = v.span_group(g);
            OND_FUZZ_CHECK(group.size() == s.spans[g].spans.size() && group.doc().index() == i);
            for (std::size_t k = 0; k < group.size(); ++k)
                OND_FUZZ_CHECK(group[k].first_token() == s.spans[g].spans[k].start && group[k].label() == v.str(s.spans[g].spans[k].label));
        }
        OND_FUZZ_CHECK(!v.span_group(std::string_view("\xFF")) && !v.category("\xFF"));
    }
}

void check_edits(const Container& c, Choices& pick) {
    if (c.docs.empty()) return;
    const std::size_t i = pick.below(c.docs.size());
    Container e = c;
    Doc model = e.docs.to_doc(i);
    const std::size_t n = model.tokens.size();
    const std::size_t ids = e.strings.size();
    if (n > 0) {
        const std::size_t t = pick.below(n);
        const auto col = static_cast<TokenColumn>(pick.below(token_column_count));
        const auto id = static_cast<StringId>(pick.below(ids));
        e.docs.set_attr(i, t, col, id);
        model.tokens.column(col)[t] = id;
        const std::size_t h = pick.below(n);
        e.docs.set_head(i, t, h);
        model.tokens.head[t] = static_cast<std::int32_t>(h);
        const auto sent = static_cast<Sentence>(pick.below(3));
        e.docs.set_sent(i, t, sent);
        model.tokens.sent[t] = sent;
        const float conf = static_cast<float>(pick.below(1001)) / 1000.0f;
        e.docs.set_conf(i, t, conf);
        model.tokens.conf[t] = conf;
        const auto col2 = static_cast<TokenColumn>(pick.below(token_column_count));
        e.set_attr(i, t, col2, "api-value");
        model.tokens.column(col2)[t] = e.strings.intern("api-value");
    }
    if (!model.ents.empty()) {
        const std::size_t k = pick.below(model.ents.size());
        const auto id = static_cast<StringId>(pick.below(ids));
        e.docs.set_entity_label(i, k, id);
        model.ents[k].label = id;
        e.docs.set_entity_conf(i, k, 0.25f);
        model.ents[k].conf = 0.25f;
    }
    if (!model.cats.empty()) {
        const std::size_t k = pick.below(model.cats.size());
        e.docs.set_category_score(i, k, 0.75f);
        model.cats[k].score = 0.75f;
    }
    for (std::size_t g = 0; g < model.spans.size(); ++g) {
        if (model.spans[g].spans.empty()) continue;
        const std::size_t k = pick.below(model.spans[g].spans.size());
        const auto id = static_cast<StringId>(pick.below(ids));
        e.docs.set_span_label(i, g, k, id);
        model.spans[g].spans[k].label = id;
    }
    OND_FUZZ_CHECK_MSG(equals(e, i, model, e.strings), "an edit in place differs from the same change to a Doc");
    OND_FUZZ_CHECK_MSG(same_docs_except(e, c, i), "an edit in place changed another document");

    // Refused edits change nothing.
    const Container before = e;
    const auto bad_id = static_cast<StringId>(e.strings.size());
    if (n > 0) {
        refused(Errc::content_bad_string_id, [&] { e.docs.set_attr(i, 0, TokenColumn::pos, bad_id); }, "set_attr");
        refused(Errc::content_head_out_of_range, [&] { e.docs.set_head(i, 0, n); }, "set_head");
        refused(Errc::content_bad_sentence_value, [&] { e.docs.set_sent(i, 0, static_cast<Sentence>(3)); }, "set_sent");
        refused(Errc::content_confidence_out_of_range, [&] { e.docs.set_conf(i, 0, std::nanf("")); }, "set_conf");
        refused(Errc::content_confidence_out_of_range, [&] { e.docs.set_conf(i, 0, 1.5f); }, "set_conf");
    }
    throws<std::out_of_range>([&] { e.docs.set_head(i, n, 0); }, "set_head past the tokens");
    throws<std::out_of_range>([&] { e.docs.set_attr(e.docs.size(), 0, TokenColumn::norm, 0); }, "set_attr past the documents");
    throws<std::out_of_range>([&] { e.docs.set_entity_label(i, model.ents.size(), 0); }, "set_entity_label");
    throws<std::out_of_range>([&] { e.docs.set_entity_conf(i, model.ents.size(), 0.5f); }, "set_entity_conf");
    throws<std::out_of_range>([&] { e.docs.set_category_score(i, model.cats.size(), 0.5f); }, "set_category_score");
    throws<std::out_of_range>([&] { e.docs.set_span_label(i, model.spans.size(), 0, 0); }, "set_span_label (group)");
    if (!model.ents.empty()) {
        refused(Errc::content_bad_string_id, [&] { e.docs.set_entity_label(i, 0, bad_id); }, "set_entity_label");
        refused(Errc::content_confidence_out_of_range, [&] { e.docs.set_entity_conf(i, 0, -0.5f); }, "set_entity_conf");
    }
    if (!model.cats.empty())
        refused(Errc::content_score_out_of_range, [&] { e.docs.set_category_score(i, 0, 2.0f); }, "set_category_score");
    if (!model.spans.empty()) {
        throws<std::out_of_range>([&] { e.docs.set_span_label(i, 0, model.spans[0].spans.size(), 0); }, "set_span_label (span)");
        if (!model.spans[0].spans.empty())
            refused(Errc::content_bad_string_id, [&] { e.docs.set_span_label(i, 0, 0, bad_id); }, "set_span_label");
    }
    OND_FUZZ_CHECK_MSG(same_content(e, before), "a refused edit changed the content");

    // rewrite_attr: every value of the column becomes fn(value), fn once per distinct string.
    const auto col = static_cast<TokenColumn>(pick.below(token_column_count));
    Container r = c;
    std::size_t calls = 0;
    std::set<StringId> distinct;
    for (const DocSlice d : c.docs)
        for (StringId id : d.tokens.column(col)) distinct.insert(id);
    r.rewrite_attr(col, [&](std::string_view v) {
        ++calls;
        return std::string(v) + "~";
    });
    OND_FUZZ_CHECK(calls == distinct.size());
    for (std::size_t d = 0; d < c.docs.size(); ++d)
        for (std::size_t t = 0; t < c.doc(d).size(); ++t)
            OND_FUZZ_CHECK(r.doc(d).token(t).attr(col) == std::string(c.doc(d).token(t).attr(col)) + "~");
}

void check_whole_documents(const Container& c, Choices& pick) {
    Container e = c;
    e.docs.edit_all([](Doc&) {});
    OND_FUZZ_CHECK_MSG(same_content(e, c), "edit_all to the same documents changed the content");
    e.docs.edit_all([](std::size_t, Doc&) {});
    OND_FUZZ_CHECK(same_content(e, c));
    const std::uint64_t removals = e.docs.removals();
    if (!c.docs.empty()) {
        const std::size_t last = c.docs.size() - 1;
        refused(Errc::content_inconsistent, [&] { e.docs.edit_all([&](std::size_t k, Doc& d) { if (k == last) d.tokens.head.push_back(0); }); },
                "edit_all with a ragged document");
        const std::size_t i = pick.below(c.docs.size());
        Doc ragged = c.docs.to_doc(i);
        ragged.tokens.conf.push_back(1.0f);
        refused(Errc::content_inconsistent, [&] { e.docs.replace(i, ragged); }, "replace with a ragged document");
        refused(Errc::content_inconsistent, [&] { e.docs.edit(i, [](Doc& d) { d.tokens.sent.push_back(Sentence::start); }); },
                "edit to a ragged document");
        if (c.docs[i].tokens.size() != 0) {
            refused(Errc::content_bad_string_id,
                    [&] { e.docs.edit_all([&](Doc& d) { if (d.tokens.size()) d.tokens.attrs[0][0] = static_cast<StringId>(e.strings.size()); }); },
                    "edit_all with an id outside the store");
        }
        // replace with the same document keeps the list.
        e.docs.replace(i, c.docs.to_doc(i));
    }
    refused(Errc::content_bad_string_id, [&] { e.docs.push_back(foreign_doc()); }, "push_back of another store's document");
    if (!c.docs.empty()) {
        // A Doc of no origin: its ids are checked against the store, each kind of field.
        const auto bad = static_cast<StringId>(e.strings.size());
        Doc base = c.docs.to_doc(0);
        base.origin = 0;
        auto with = [&](auto&& change) {
            Doc d = base;
            change(d);
            return d;
        };
        const std::vector<Doc> bad_docs = {
            with([&](Doc& d) { d.tokens.resize(d.tokens.size() + 1); d.tokens.attrs[3].back() = bad; }),
            with([&](Doc& d) { d.ents.push_back({0, 1, bad, 1.0f}); }),
            with([&](Doc& d) { d.cats.push_back({bad, 1.0f}); }),
            with([&](Doc& d) { d.spans.push_back({bad, {}}); }),
            with([&](Doc& d) { d.spans.push_back({1, {{0, 1, bad, 1.0f}}}); }),
        };
        for (const Doc& d : bad_docs) refused(Errc::content_bad_string_id, [&] { e.docs.push_back(d); }, "push_back of an id outside the store");
        // A Doc of c's store with an id past the ones e shares with it.
        Doc late = with([&](Doc& d) { d.cats.push_back({static_cast<StringId>(c.strings.size()), 1.0f}); });
        late.origin = c.strings.id();
        refused(Errc::content_bad_string_id, [&] { e.docs.push_back(late); }, "push_back of an id past the shared ones");
        // append re-interns a Doc's ids from the store given with it; one outside that store is
        // refused, also when categories and span groups follow it (their new strings must not turn
        // the stray id into a real one), and the container is left as it was.
        const Doc stray = with([&](Doc& d) { d.ents.push_back({0, 1, static_cast<StringId>(c.strings.size()), 1.0f}); });
        Container a;
        refused(Errc::content_bad_string_id, [&] { a.append(stray, c.strings); }, "append of an id outside its store");
        OND_FUZZ_CHECK_MSG(a.docs.empty() && a.strings.size() == Container{}.strings.size(), "a refused append changed the container");
    }
    const Status st = try_push_back(e, foreign_doc());
    OND_FUZZ_CHECK(!st.ok() && st.error().errc() == Errc::content_bad_string_id);
    OND_FUZZ_CHECK_MSG(same_content(e, c) && e.docs.removals() == removals, "a refused whole-document change changed the content");
    if (!c.docs.empty()) {
        OND_FUZZ_CHECK(try_push_back(e, c.docs.to_doc(0)).ok());
        OND_FUZZ_CHECK(e.docs.size() == c.docs.size() + 1 && equals(e, c.docs.size(), c.docs.to_doc(0), c.strings));
    }
    e.docs.clear();
    OND_FUZZ_CHECK(e.docs.empty() && e.docs.removals() == removals + (c.docs.empty() ? 0 : 1));
}

void check_merge_pack_split(const Container& c, Choices& pick) {
    const std::size_t n = c.docs.size();
    Container m;
    m.format = Format::ondb;
    merge(m, c);
    merge(m, c);
    merge(m, m);  // into itself: doubled once
    OND_FUZZ_CHECK(m.docs.size() == 4 * n);
    for (std::size_t k = 0; k < m.docs.size(); ++k)
        OND_FUZZ_CHECK_MSG(same_doc(m.docs[k], m.strings, c.docs[k % n], c.strings), "merge changed a document");
    const std::vector<Container> parts{c, c};
    const Container packed = pack(parts);
    OND_FUZZ_CHECK(packed.format == Format::ondb && packed.docs.size() == 2 * n);
    for (std::size_t k = 0; k < packed.docs.size(); ++k) OND_FUZZ_CHECK(same_doc(packed.docs[k], packed.strings, c.docs[k % n], c.strings));

    const std::size_t per = pick.below(4);  // 0 is taken as 1
    const std::size_t step = per == 0 ? 1 : per;
    const std::vector<Container> cut = split(c, per, Format::ondb);
    OND_FUZZ_CHECK(cut.size() == (n + step - 1) / step);
    std::size_t k = 0;
    for (const Container& part : cut) {
        OND_FUZZ_CHECK(part.format == Format::ondb && part.crc == c.crc && part.docs.size() <= step);
        std::set<std::string> used;
        for (std::size_t j = 0; j < part.docs.size(); ++j, ++k) {
            OND_FUZZ_CHECK_MSG(same_doc(part.docs[j], part.strings, c.docs[k], c.strings), "split changed a document");
            used_values(part.doc(j), used);
        }
        OND_FUZZ_CHECK_MSG(part.strings.size() == used.size() + 1, "a part of split keeps strings its documents do not use");
    }
    OND_FUZZ_CHECK(k == n);

    Container a;
    a.format = Format::ondb;
    for (const DocView v : c.doc_views()) a.append(v);
    for (std::size_t j = 0; j < n; ++j) {
        a.append(c.docs.to_doc(j), c.strings);
        OND_FUZZ_CHECK(try_append(a, c.doc(j)).ok());
    }
    if (n > 0) a.append(a.doc(0));  // a document of the same container
    OND_FUZZ_CHECK(a.docs.size() == 3 * n + (n > 0 ? 1 : 0));
    for (std::size_t j = 0; j < 3 * n; ++j)
        OND_FUZZ_CHECK_MSG(same_doc(a.docs[j], a.strings, c.docs[j < n ? j : (j - n) / 2], c.strings), "append changed a document");
    if (n > 0) OND_FUZZ_CHECK(same_doc(a.docs[3 * n], a.strings, c.docs[0], c.strings));
    const std::size_t before = a.docs.size();
    refused(Errc::content_bad_string_id, [&] { a.append(foreign_doc(), c.strings); }, "append of a Doc with another store");
    OND_FUZZ_CHECK(a.docs.size() == before);
}

void check_readers(const Container& c, Bytes input) {
    const std::vector<std::byte> bytes(input.begin(), input.end());
    if (c.format == Format::ondb) {
        Container ranged;
        ranged.format = Format::ondb;
        std::size_t k = 0;
        for (const RecordView& r : DocBinReader(std::vector<std::byte>(bytes))) {
            OND_FUZZ_CHECK(r.index() == k++ && r.view().size() == r.size());
            OND_FUZZ_CHECK(try_append(ranged, r).ok());
            ranged.append(r);
        }
        OND_FUZZ_CHECK(k == c.docs.size() && ranged.docs.size() == 2 * k);
        for (std::size_t j = 0; j < ranged.docs.size(); ++j) OND_FUZZ_CHECK(same_doc(ranged.docs[j], ranged.strings, c.docs[j / 2], c.strings));

        // next(Doc&), a move assignment half-way, then begin(): it starts at the record read last.
        DocBinReader first(input), second(input);
        Container kept;
        kept.format = Format::ondb;
        Doc d;
        if (first.next(d)) kept.append(d, first.strings());
        second = std::move(first);
        for (auto it = second.begin(); it != second.end(); ++it) kept.append(it->view());
        OND_FUZZ_CHECK(kept.docs.size() == (k == 0 ? 0 : k + 1));
        for (std::size_t j = 0; j < kept.docs.size(); ++j)
            OND_FUZZ_CHECK(same_doc(kept.docs[j], kept.strings, c.docs[j == 0 ? 0 : j - 1], c.strings));
        OND_FUZZ_CHECK(second.begin() == second.end());

        Result<DocBinReader> opened = try_open(input);
        Result<DocBinReader> owned = try_open(std::vector<std::byte>(bytes));
        OND_FUZZ_CHECK(opened.ok() && owned.ok());
        std::size_t records = 0;
        for (;;) {
            const Result<bool> more = try_next(*opened);
            OND_FUZZ_CHECK(more.ok());
            if (!*more) break;
            ++records;
        }
        OND_FUZZ_CHECK(records == c.docs.size() && owned->count() == c.docs.size());
        return;
    }
    // ONDC: the container twice over, as a stream from a std::istream, and through the try_ forms.
    std::string twice(reinterpret_cast<const char*>(input.data()), input.size());
    twice += twice;
    std::istringstream in(twice);
    StreamReader sr(in);
    std::size_t k = 0;
    for (const Container& x : sr) {
        OND_FUZZ_CHECK(same_content(x, c));
        ++k;
    }
    OND_FUZZ_CHECK(k == 2 && sr.begin() == sr.end() && sr.offset() == twice.size());
    Container after;
    OND_FUZZ_CHECK(!sr.next(after) && !sr.skip_next());  // a finished reader stays finished
    std::istringstream in2(twice);
    StreamReader tr(in2);
    Container reuse;
    const Result<bool> one = try_next(tr, reuse);
    OND_FUZZ_CHECK(one.ok() && *one && same_content(reuse, c));
    StreamReader::Skipped skipped;
    OND_FUZZ_CHECK(tr.skip_next(skipped));
    std::uint64_t tokens = 0;
    for (const DocSlice d : c.docs) tokens += d.tokens.size();
    OND_FUZZ_CHECK(skipped.tokens == tokens && skipped.crc == c.crc);
    const Result<bool> end = try_skip_next(tr);
    OND_FUZZ_CHECK(end.ok() && !*end);
    Summary sum;
    sum.format = c.format;
    sum.docs = 1;
    sum.tokens = tokens;
    sum.crc = c.crc;
    OND_FUZZ_CHECK(to_string(sum).rfind("ONDC, 1 document, ", 0) == 0);
}

void check_builder(const Container& c) {
    if (c.docs.empty()) return;
    const DocView v = c.doc(0);
    Container f;
    f.format = c.format;
    refused(Errc::content_invalid_string, [&] { DocBuilder bad(f, "\xFF"); }, "DocBuilder over text that is not WTF-8");
    OND_FUZZ_CHECK(f.docs.empty());
    DocBuilder b(f, v.text());
    // token(word): each token's text found again, with every setter.
    std::size_t added = 0;
    for (const TokenView tok : v.tokens()) {
        const auto exact = tok.exact_text();
        if (!exact || exact->empty()) break;
        // token(word) finds whole tokens only: a token cut out of a word (not at the previous
        // token's end) is refused with content.token-out-of-text. token_at then adds it where it
        // lies, and the rebuild goes on; only tokens out of order (the format allows them, the
        // builder does not) end it.
        std::optional<TokenBuilder> found;
        const Outcome r = capture([&] { found.emplace(b.token(*exact)); });
        if (!r.ok) {
            OND_FUZZ_CHECK_MSG(r.errc == Errc::content_token_out_of_text, "token(word) failed: " + r.describe());
            const auto at = static_cast<std::size_t>(exact->data() - v.text().data());
            const Outcome placed = capture([&] { found.emplace(b.token_at(at, exact->size())); });
            if (!placed.ok) {
                OND_FUZZ_CHECK_MSG(placed.errc == Errc::content_token_order, "token_at of a document's token failed: " + placed.describe());
                break;
            }
        }
        TokenBuilder& t = *found;
        t.norm("n").lemma("l").pos("p").tag("t").dep("d").morph("m");
        OND_FUZZ_CHECK(b.view().token(t.index()).text() == *exact && b.view().token(t.index()).morph() == "m");
        ++added;
    }
    OND_FUZZ_CHECK(b.size() == added);
    refused(Errc::content_token_out_of_text, [&] { b.token("\xFF"); }, "token of a word not in the text (no valid text holds 0xFF)");
    throws<std::out_of_range>([&] { b.at(added); }, "DocBuilder::at past the tokens");
    refused(Errc::content_token_empty, [&] { b.token_at(0, 0); }, "token_at of no bytes");
    refused(Errc::content_token_out_of_text, [&] { b.token_at(0, v.text().size() + 1); }, "token_at past the text");
    if (added > 0) {
        refused(Errc::content_confidence_out_of_range, [&] { b.at(0).conf(2.0f); }, "TokenBuilder::conf");
        refused(Errc::content_head_out_of_range, [&] { b.at(0).head(std::size_t{1} << 31); }, "TokenBuilder::head");
        refused(Errc::content_token_order, [&] { b.token_at(0, 1); }, "token_at before the previous token");
        refused(Errc::content_entity_out_of_range, [&] { b.entity(0, added + 1, "E"); }, "entity past the tokens");
        b.entity(0, 1, "E");
        refused(Errc::content_entity_order, [&] { b.entity(0, 1, "E"); }, "entity over the previous one");
    }
    if (added >= 2) {
        refused(Errc::content_label_empty, [&] { b.entity(1, 1, ""); }, "entity without a label");
        refused(Errc::content_confidence_out_of_range, [&] { b.entity(1, 1, "E", -1.0f); }, "entity's confidence");
    }
    // A character cut by a token: a lead byte alone, after the tokens added so far.
    const std::string_view text = v.text();
    std::size_t built_end = 0;  // in bytes, where the builder's last token ends
    if (added > 0) {
        const std::string_view last = b.view().token(added - 1).text();
        built_end = static_cast<std::size_t>(last.data() - b.view().text().data()) + last.size();
    }
    for (std::size_t p = text.size(); p-- > 0;) {
        if (static_cast<unsigned char>(text[p]) < 0xC0) continue;
        if (p >= built_end)
            refused(Errc::content_invalid_string, [&] { b.token_at(p, 1); }, "token_at inside a character");
        break;
    }
    if (c.format == Format::ondc) {
        b.category("K", 0.5f);
        refused(Errc::content_duplicate_category, [&] { b.category("K", 0.5f); }, "category repeated");
        refused(Errc::content_score_out_of_range, [&] { b.category("K2", 1.5f); }, "category score");
        refused(Errc::content_label_empty, [&] { b.category("", 0.5f); }, "category without a label");
        refused(Errc::content_label_empty, [&] { b.span_group(""); }, "span group without a name");
        refused(Errc::content_span_empty, [&] { b.span("G", 0, 0, "S"); }, "empty span");
        refused(Errc::content_span_out_of_range, [&] { b.span("G", 0, added + 1, "S"); }, "span past the tokens");
        if (added > 0) {
            refused(Errc::content_label_empty, [&] { b.span("G", 0, 1, ""); }, "span without a label");
            refused(Errc::content_confidence_out_of_range, [&] { b.span("G", 0, 1, "S", 2.0f); }, "span's confidence");
        }
    }
    // A builder grows only the last document, and only while it is there.
    DocBuilder next(f, "x");
    throws<std::logic_error>([&] { b.token("x"); }, "a builder of a document that is no longer the last");
    f.docs.pop_back();
    throws<std::logic_error>([&] { (void)next.doc(); }, "a builder of a removed document");
    DocBuilder again(f, "y");  // at the removed one's index: the old builder still refuses
    throws<std::logic_error>([&] { (void)next.doc(); }, "a builder of a document removed and replaced");
    Doc bad_text;
    refused(Errc::content_invalid_string, [&] { bad_text.set_text("\xC3"); }, "Doc::set_text of a cut character");
}

void check_same_doc_notices(const Container& c) {
    if (c.docs.empty()) return;
    Container base = c;
    const StringId other = base.strings.intern("\xFF");  // in no store the reader accepted
    const Doc d0 = base.docs.to_doc(0);                    // ids of base, which has `other`
    const std::size_t n = d0.tokens.size();
    auto differs = [&](auto&& change, const char* what) {
        Container w = base;
        Doc d = d0;
        change(d);
        w.docs.replace(0, d);
        OND_FUZZ_CHECK_MSG(!same_doc(w.docs[0], w.strings, c.docs[0], c.strings) && !same_content(w, c), what);
    };
    differs([](Doc& d) { d.text += "+"; }, "text");
    differs([](Doc& d) { d.tokens.resize(d.tokens.size() + 1); }, "token count");
    if (n > 0) {
        differs([](Doc& d) { ++d.tokens.start[0]; }, "token start");
        differs([](Doc& d) { ++d.tokens.length[0]; }, "token length");
        differs([](Doc& d) { d.tokens.head[0] ^= 1; }, "head");
        differs([](Doc& d) { d.tokens.sent[0] = d.tokens.sent[0] == Sentence::start ? Sentence::inside : Sentence::start; }, "sent");
        differs([&](Doc& d) { d.tokens.attrs[2][0] = other; }, "attribute");
        differs([](Doc& d) { d.tokens.conf[0] = d.tokens.conf[0] == 0.5f ? 0.25f : 0.5f; }, "conf");
        differs([](Doc& d) { d.has_ents = !d.has_ents; d.ents.clear(); }, "has_ents");
    }
    differs([&](Doc& d) { d.has_ents = true; d.ents.push_back({0, 1, other, 1.0f}); }, "entity count");
    if (!d0.ents.empty()) {
        differs([](Doc& d) { ++d.ents[0].start; }, "entity start");
        differs([](Doc& d) { ++d.ents[0].length; }, "entity length");
        differs([&](Doc& d) { d.ents[0].label = other; }, "entity label");
        differs([](Doc& d) { d.ents[0].conf = d.ents[0].conf == 0.5f ? 0.25f : 0.5f; }, "entity conf");
    }
    differs([](Doc& d) { d.has_cats = !d.has_cats; d.cats.clear(); }, "has_cats");
    differs([&](Doc& d) { d.has_cats = true; d.cats.push_back({other, 1.0f}); }, "category count");
    if (!d0.cats.empty()) {
        differs([&](Doc& d) { d.cats[0].label = other; }, "category label");
        differs([](Doc& d) { d.cats[0].score = d.cats[0].score == 0.5f ? 0.25f : 0.5f; }, "category score");
    }
    differs([&](Doc& d) { d.spans.push_back({other, {}}); }, "span group count");
    if (!d0.spans.empty()) {
        differs([&](Doc& d) { d.spans[0].name = other; }, "span group name");
        differs([&](Doc& d) { d.spans[0].spans.push_back({0, 1, other, 1.0f}); }, "span count");
        if (!d0.spans[0].spans.empty()) {
            differs([](Doc& d) { ++d.spans[0].spans[0].start; }, "span start");
            differs([](Doc& d) { ++d.spans[0].spans[0].length; }, "span length");
            differs([&](Doc& d) { d.spans[0].spans[0].label = other; }, "span label");
            differs([](Doc& d) { d.spans[0].spans[0].conf = d.spans[0].spans[0].conf == 0.5f ? 0.25f : 0.5f; }, "span conf");
        }
    }
    Container fmt = c, crc = c;
    fmt.format = c.format == Format::ondc ? Format::ondb : Format::ondc;
    crc.crc = !c.crc;
    Container more = c;
    more.docs.push_back(c.docs.to_doc(0));
    OND_FUZZ_CHECK(!same_content(fmt, c) && !same_content(crc, c) && !same_content(more, c));
    if (n > 0) {  // an id outside the store equals nothing, not even itself
        DocList loose;  // a list of no container takes any id
        Doc d = d0;
        d.tokens.attrs[0][0] = static_cast<StringId>(c.strings.size());
        loose.push_back(d);
        OND_FUZZ_CHECK(!same_doc(loose[0], c.strings, loose[0], c.strings));
    }
}

void check_writer_refusals(const Container& c) {
    if (c.docs.empty()) return;
    Container base = c;
    const StringId label = base.strings.intern("api-label");
    const Doc d0 = base.docs.to_doc(0);
    const std::size_t n = d0.tokens.size();
    auto expect = [&](Errc code, auto&& change, const char* what) {
        Container w = base;
        Doc d = d0;
        change(d);
        w.docs.replace(0, d);
        refused(code, [&] { (void)encode(w); }, what);
    };
    if (c.format == Format::ondc) {
        Container two = base;
        two.docs.push_back(d0);
        refused(Errc::content_inconsistent, [&] { (void)encode(two); }, "an ONDC with two documents");
        expect(Errc::content_score_out_of_range, [&](Doc& d) { d.has_cats = true; d.cats.insert(d.cats.begin(), {label, 2.0f}); }, "a score above 1");
        if (n > 0)
            expect(Errc::content_span_out_of_range, [&](Doc& d) { d.spans.insert(d.spans.begin(), SpanGroup{label, {{static_cast<std::uint32_t>(n), 1, label, 1.0f}}}); },
                   "a span past the tokens");
    } else {
        expect(Errc::content_bin_extras, [&](Doc& d) { d.has_cats = true; }, "categories in a bin");
    }
    if (n == 0) return;
    expect(Errc::content_head_out_of_range, [&](Doc& d) { d.tokens.head[0] = static_cast<std::int32_t>(n); }, "a head past the tokens");
    expect(Errc::content_entity_out_of_range, [&](Doc& d) { d.has_ents = true; d.ents.push_back({static_cast<std::uint32_t>(n), 1, label, 1.0f}); },
           "an entity past the tokens");
    expect(Errc::content_entity_order, [&](Doc& d) { d.has_ents = true; d.ents.assign(2, {0, 1, label, 1.0f}); }, "entities over each other");
    expect(Errc::content_entity_empty, [&](Doc& d) { d.has_ents = true; d.ents.assign(1, {0, 0, label, 1.0f}); }, "an empty entity");
    expect(Errc::content_label_empty, [&](Doc& d) { d.has_ents = true; d.ents.assign(1, {0, 1, 0, 1.0f}); }, "an entity without a label");
    expect(Errc::content_confidence_out_of_range, [&](Doc& d) { d.has_ents = true; d.ents.assign(1, {0, 1, label, 1.5f}); }, "an entity's confidence");
    expect(Errc::content_confidence_out_of_range, [&](Doc& d) { d.tokens.conf[0] = -1.0f; }, "a token's confidence");
    if (c.format == Format::ondc) {
        expect(Errc::content_span_empty, [&](Doc& d) { d.spans.insert(d.spans.begin(), SpanGroup{label, {{0, 0, label, 1.0f}}}); }, "an empty span");
    } else {
        expect(Errc::content_bin_extras, [&](Doc& d) { d.cats.push_back({label, 0.5f}); }, "a category in a bin");
        expect(Errc::content_bin_extras, [&](Doc& d) { d.spans.push_back({label, {}}); }, "a span group in a bin");
    }
    // Last: a stored string that is not WTF-8, used by the first token (base keeps it from here on).
    const StringId stored_bad = base.strings.append("\xC3");
    expect(Errc::content_invalid_string, [&](Doc& d) { d.tokens.attrs[1][0] = stored_bad; }, "a stored string that is not WTF-8");
    if (n > 0) {  // a store swapped for a smaller one: the writer checks every id itself
        Container w = base;
        Doc d = d0;
        d.tokens.attrs[0][0] = label;
        w.docs.replace(0, d);
        w.strings = StringStore();
        refused(Errc::content_bad_string_id, [&] { (void)encode(w); }, "an id outside the store");
    }
}

// A Status or Result of a try_ form against the namesake's outcome: both succeed, or both fail
// with the same code and offset.
template <class R>
void same_outcome(const R& got, const Outcome& want, const char* what) {
    const bool same = got.ok() == want.ok && (got.ok() || (got.error().errc() == want.errc && got.error().offset() == want.offset));
    OND_FUZZ_CHECK_MSG(same, std::string(what) + ": the try_ form and its namesake differ; namesake " + want.describe());
}

void check_try_forms(const Container& c, Bytes input) {
    const std::size_t n = c.docs.size();
    // The bin index: over an ONDB it succeeds and decodes the records decode() read; over an
    // ONDC it is refused as the constructor refuses it.
    std::optional<BinIndex> thrown;
    const Outcome built = capture([&] { thrown.emplace(input); });
    Result<BinIndex> index = try_index(input);
    same_outcome(index, built, "try_index");
    if (index.ok()) {
        OND_FUZZ_CHECK(index->size() == n);
        Result<Container> all = try_decode(*index, 0, n);
        OND_FUZZ_CHECK_MSG(all.ok() && same_content(*all, c), "try_decode of the whole index differs from decode()");
        Container into;
        OND_FUZZ_CHECK(try_decode_into(*index, 0, n, into).ok() && into.docs.size() == n);
        DocBinReader reader(input);
        Result<std::size_t> skipped = try_skip(reader, n + 1);
        OND_FUZZ_CHECK(skipped.ok() && *skipped == n);
    }
    // The writer: a decoded container is writable, and try_encode_append appends encode()'s bytes.
    OND_FUZZ_CHECK(try_check_writable(c).ok());
    std::vector<std::byte> out{std::byte{7}};
    OND_FUZZ_CHECK(try_encode_append(c, out).ok());
    const std::vector<std::byte> whole = encode(c);
    OND_FUZZ_CHECK(out.size() == whole.size() + 1 && std::equal(whole.begin(), whole.end(), out.begin() + 1));
    // A text that is not WTF-8 is refused by try_set_text as by set_text, and the Doc keeps its text.
    Doc d;
    d.set_text("ok");
    const Outcome bad_text = capture([&] { Doc t; t.set_text("\xC3"); });
    same_outcome(try_set_text(d, "\xC3"), bad_text, "try_set_text");
    OND_FUZZ_CHECK(d.text == "ok");
    // Edits: a head past the tokens and a confidence out of range, refused with nothing changed.
    if (n > 0 && c.docs[0].tokens.size() > 0) {
        Container e = c;
        const std::size_t tokens = c.docs[0].tokens.size();
        const Outcome head = capture([&] { Container t = c; t.docs.set_head(0, 0, tokens); });
        same_outcome(try_set_head(e.docs, 0, 0, tokens), head, "try_set_head");
        const Outcome conf = capture([&] { Container t = c; t.docs.set_conf(0, 0, 1.5f); });
        same_outcome(try_set_conf(e.docs, 0, 0, 1.5f), conf, "try_set_conf");
        OND_FUZZ_CHECK_MSG(same_content(e, c), "a refused try_ edit changed the container");
        OND_FUZZ_CHECK(try_replace(e.docs, 0, c.docs.to_doc(0)).ok());
        OND_FUZZ_CHECK_MSG(same_content(e, c), "try_replace of a document by itself changed the container");
    }
    // merge, pack and split: the same documents as the throwing forms.
    Container m;
    m.format = Format::ondb;
    OND_FUZZ_CHECK(try_merge(m, c).ok() && m.docs.size() == n);
    const std::vector<Container> parts{c};
    Result<Container> packed = try_pack(parts);
    OND_FUZZ_CHECK(packed.ok() && packed->docs.size() == n);
    Result<std::vector<Container>> cut = try_split(c, 1, Format::ondb);
    OND_FUZZ_CHECK(cut.ok() && cut->size() == n);
}

}  // namespace ond::fuzz::api
