// Whole containers (ONDC and ONDB) through decode(), validate() and inspect(): the three agree
// on verdict, error code and offset; every error offset lies inside the input; validate()'s
// summary describes what decode() built; and whatever decodes can be written (the writer
// accepts all content the reader accepts). The tools' framing parser (framing.hpp) takes any
// input leniently, and what the codec accepts strictly, writing the same bytes back. The views
// and the builder agree with the model on what was accepted. Uses the structure-aware mutator.
#include <numeric>
#include <string_view>
#include <vector>

#include "ond/internal/framing.hpp"
#include "fuzz_support.hpp"
#include "model_reader.hpp"
#include "mutator.hpp"
#include "readers.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

namespace {

// The views and the builder on accepted content: a token range's text() is the exact view where
// the token has one (and is the same taken alone), an entity's text runs from its first token's
// text to its last's, and the builder, given each token's byte span, finds the same UTF-16 offsets.
void check_views_and_builder(const ond::DocView doc, ond::Format format) {
    using namespace ond;
    bool all_exact = true;
    for (TokenView tok : doc.tokens()) {
        const std::string_view text = tok.text();
        OND_FUZZ_CHECK(text.data() >= doc.text().data() && text.data() + text.size() <= doc.text().data() + doc.text().size());
        const auto exact = tok.exact_text();
        all_exact = all_exact && exact.has_value();
        if (exact) {
            OND_FUZZ_CHECK(exact->data() == text.data() && exact->size() == text.size());
        }
        if (tok.index() < 64) OND_FUZZ_CHECK(doc.token(tok.index()).text() == text);
    }
    for (EntityView e : doc.ents()) {
        const std::string_view first = doc.token(e.first_token()).text();
        const std::string_view last = doc.token(e.first_token() + e.size() - 1).text();
        OND_FUZZ_CHECK(e.text().data() == first.data() && e.text().data() + e.text().size() == last.data() + last.size());
    }
    if (!all_exact) return;  // a token inside a surrogate pair has no byte span to give
    Container fresh;
    fresh.format = format;
    DocBuilder b(fresh, doc.text());
    for (TokenView tok : doc.tokens()) b.token_at(static_cast<std::size_t>(tok.text().data() - doc.text().data()), tok.text().size());
    const DocSlice rebuilt = b.doc(), read = doc.slice();
    OND_FUZZ_CHECK(ond::fuzz::same_values(rebuilt.tokens.start, read.tokens.start) &&
                   ond::fuzz::same_values(rebuilt.tokens.length, read.tokens.length));
}

// Every accepted document built again through the public builder, from what its views show:
// text, tokens at their byte spans with every field, entities, categories and span groups. The
// result equals what was read. Then calls the builder must refuse are refused with their codes.
void check_rebuilt_with_builder(const ond::Container& c) {
    using namespace ond;
    Container fresh;
    fresh.format = c.format;
    fresh.crc = c.crc;
    for (DocView doc : c.doc_views()) {
        for (TokenView tok : doc.tokens())
            if (!tok.exact_text()) return;  // a token inside a surrogate pair has no byte span
        DocBuilder b(fresh, doc.text());
        for (TokenView tok : doc.tokens()) {
            TokenBuilder t = b.token_at(static_cast<std::size_t>(tok.text().data() - doc.text().data()), tok.text().size());
            for (std::size_t col = 0; col < token_column_count; ++col)
                if (tok.attr_id(static_cast<TokenColumn>(col)) != 0) t.attr(static_cast<TokenColumn>(col), tok.attr(static_cast<TokenColumn>(col)));
            t.head(tok.head_index()).sent(tok.sent()).conf(tok.conf());
            OND_FUZZ_CHECK(t.index() == tok.index());
        }
        if (doc.has_ents()) b.entities_annotated();
        for (EntityView e : doc.ents()) b.entity(e.first_token(), e.size(), e.label(), e.conf());
        if (doc.has_cats()) b.categories_annotated();
        for (const CategoryView k : doc.cats()) {
            b.category(k.label, k.score);
            const std::optional<float> score = doc.category(k.label);
            OND_FUZZ_CHECK(score && fuzz::float_bits(*score) == fuzz::float_bits(k.score));
        }
        for (std::size_t g = 0; g < doc.span_group_count(); ++g) {
            const SpanGroupView group = doc.span_group(g);
            b.span_group(group.name());
            OND_FUZZ_CHECK(doc.span_group(group.name()).has_value());
            for (SpanView sp : group.spans()) b.span(group.name(), sp.first_token(), sp.size(), sp.label(), sp.conf());
        }
        OND_FUZZ_CHECK(b.size() == doc.size());
        OND_FUZZ_CHECK_MSG(same_doc(b.doc(), b.strings(), doc.slice(), c.strings), "the builder's document differs");
        // What the builder refuses: an empty token, a span past the text, an empty entity.
        const auto refused = [&](Errc code, auto&& call) {
            const fuzz::Outcome r = fuzz::capture(call);
            OND_FUZZ_CHECK_MSG(!r.ok && r.errc == code && r.offset == no_offset, r.describe());
        };
        refused(Errc::content_token_empty, [&] { b.token(""); });
        refused(Errc::content_token_out_of_text, [&] { b.token_at(doc.text().size() + 1, 1); });
        if (doc.size() > 0) refused(Errc::content_entity_empty, [&] { b.entity(doc.size() - 1, 0, "X"); });
        if (c.format == Format::ondb) refused(Errc::content_bin_extras, [&] { b.category("X", 0.5f); });
    }
    OND_FUZZ_CHECK_MSG(same_content(fresh, c), "the documents built again differ from what was read");
}

// DocList's whole-document operations keep what was read: every document edited to itself,
// the last one popped and pushed back, an empty one appended and cut again.
void check_doc_list_operations(const ond::Container& c) {
    using namespace ond;
    Container copy = c;
    for (std::size_t k = 0; k < copy.docs.size(); ++k) copy.docs.edit(k, [](Doc&) {});
    OND_FUZZ_CHECK_MSG(same_content(copy, c), "DocList::edit to the same document changed the content");
    if (!copy.docs.empty()) {
        const Doc last = copy.docs.to_doc(copy.docs.size() - 1);
        const std::uint64_t removals = copy.docs.removals();
        copy.docs.pop_back();
        OND_FUZZ_CHECK(copy.docs.removals() == removals + 1);
        copy.docs.push_back(last);
        OND_FUZZ_CHECK_MSG(same_content(copy, c), "pop_back then push_back changed the content");
    }
    const std::size_t n = copy.docs.size();
    copy.docs.resize(n + 1);
    OND_FUZZ_CHECK(copy.docs.size() == n + 1 && copy.docs.back().tokens.size() == 0 && copy.docs.back().text.empty());
    copy.docs.resize(n);
    OND_FUZZ_CHECK_MSG(same_content(copy, c), "resize up and down changed the content");
}

// validate_arriving (`ond validate -` of a pipe), the bytes handed over in chunks of 1, 2, ...
// 97 bytes in turn: validate()'s verdict and summary, except where validate() sees a wrong size
// first (container.truncated, container.trailing-bytes). Read as they arrive, a fault before the
// end may come first, so there it only has to refuse (docs/reading-rules.md).
// Not inlined: inlined, g++ 12 takes the caller's Summary for uninitialised (-Wmaybe-uninitialized).
[[gnu::noinline]] void check_arriving(const std::uint8_t* data, std::size_t size, const ond::fuzz::Outcome& v, const ond::Summary& sum) {
    using namespace ond;
    using namespace ond::fuzz;
    static const std::vector<std::size_t> chunks = [] {
        std::vector<std::size_t> c(97);
        std::iota(c.begin(), c.end(), std::size_t{1});
        return c;
    }();
    std::size_t pos = 0;
    Summary got{};
    const Outcome a = capture([&] { got = validate_arriving(cut_reader(as_bytes(data, size), chunks, pos)); });
    if (!v.ok && (v.errc == Errc::container_truncated || v.errc == Errc::container_trailing_bytes)) {
        OND_FUZZ_CHECK_MSG(!a.ok, "validate_arriving accepted a container of the wrong size: " + v.describe());
        return;
    }
    check_same(v, a, "validate", "validate_arriving");
    if (a.ok)
        OND_FUZZ_CHECK(got.format == sum.format && got.crc == sum.crc && got.docs == sum.docs && got.tokens == sum.tokens &&
                       got.strings == sum.strings);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const Bytes input = as_bytes(data, size);
    Container c;
    const Outcome d = capture([&] { c = decode(input); });
    Summary sum{};
    const Outcome v = capture([&] { sum = validate(input); });
    const Outcome i = capture([&] {
        inspect(input, [&](const InspectEvent& e) { OND_FUZZ_CHECK_MSG(e.offset + e.length <= size, e.name); });
    });
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto lenient = framing::Layout::parse_lenient(text);
    if (size >= 12) OND_FUZZ_CHECK(lenient.has_value() == (text.substr(0, 4) == "ONDC" || text.substr(0, 4) == "ONDB"));
    if (lenient) (void)lenient->serialize();
    const auto strict = framing::Layout::parse(text);
    const std::string again = strict ? strict->serialize() : std::string();
    if (strict) {
        // A sound framing re-serialises to itself, up to the trailer it recomputes.
        const std::size_t trailer = strict->crc() ? 4 : 0;
        OND_FUZZ_CHECK(again.size() == size && again.compare(0, size - trailer, text.substr(0, size - trailer)) == 0);
    }
    model::check_decode_against_model(input, d, &c);
    check_same(d, v, "decode", "validate");
    check_same(d, i, "decode", "inspect");
    check_arriving(data, size, v, sum);
    if (!d.ok) {
        OND_FUZZ_CHECK_MSG(d.offset <= size, d.what);
        OND_FUZZ_CHECK(error_info(d.errc).verdict != ErrorVerdict::content);
        return 0;
    }
    OND_FUZZ_CHECK(size >= 12 + (c.crc ? 4u : 0u));
    OND_FUZZ_CHECK_MSG(strict && again == text, "accepted, but framing::Layout::parse failed or changed it");
    OND_FUZZ_CHECK(sum.format == c.format && sum.crc == c.crc && sum.docs == c.docs.size());
    OND_FUZZ_CHECK(sum.strings + 1 == c.strings.size());
    OND_FUZZ_CHECK(c.format == Format::ondb || c.docs.size() == 1);
    for (DocView doc : c.doc_views()) check_views_and_builder(doc, c.format);
    check_doc_list_operations(c);
    check_rebuilt_with_builder(c);
    std::uint64_t tokens = 0;
    for (const DocSlice doc : c.docs) {
        tokens += doc.tokens.size();
        OND_FUZZ_CHECK(c.format == Format::ondc || (!doc.has_cats && doc.spans.empty()));
        OND_FUZZ_CHECK(doc.has_ents || doc.ents.empty());
        OND_FUZZ_CHECK(doc.has_cats || doc.cats.empty());
    }
    OND_FUZZ_CHECK(sum.tokens == tokens);
    const Outcome w = capture([&] { check_writable(c); });
    OND_FUZZ_CHECK_MSG(w.ok, w.describe());
    return 0;
}
