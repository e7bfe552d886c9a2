// Span groups, section 7 (R24, R15, R3), with a table and a token count taken from the input:
// the modes agree; group names are non-empty and distinct by value; spans are non-empty, inside
// the document, labelled, with confidences in [0, 1].
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const IndexedSectionInput in = IndexedSectionInput::take(data, size);
    DocList list;
    ond::detail::build(list).open_doc();
    const Outcome r = in.run(7, list, [](auto mode, auto&&... args) { detail::decode_span_groups_section<decltype(mode)>(args...); });
    if (!r.ok) return 0;
    const DocSlice doc = list.back();
    OND_FUZZ_CHECK(2 * doc.spans.size() <= in.bytes.size());
    for (std::size_t g = 0; g < doc.spans.size(); ++g) {
        const SpanGroupSlice grp = doc.spans[g];
        OND_FUZZ_CHECK(grp.name >= 1 && grp.name <= in.table.view.count() && !value_of(in.table, grp.name).empty());
        for (std::size_t h = 0; h < g; ++h) OND_FUZZ_CHECK(value_of(in.table, doc.spans[h].name) != value_of(in.table, grp.name));
        for (const Span& s : grp.spans) {
            OND_FUZZ_CHECK(s.length >= 1 && std::uint64_t{s.start} + s.length <= in.tokens);
            OND_FUZZ_CHECK(s.label >= 1 && s.label <= in.table.view.count() && !value_of(in.table, s.label).empty());
            OND_FUZZ_CHECK(detail::confidence_ok(s.conf));
        }
    }
    return 0;
}
