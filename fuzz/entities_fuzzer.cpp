// Entities, section 4 (R22, R15, R3), with a table and a token count taken from the input: the
// modes agree; decoded entities are in text order, non-overlapping, non-empty, inside the
// document, labelled with a non-empty stored string, with confidences in [0, 1].
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const IndexedSectionInput in = IndexedSectionInput::take(data, size);
    DocList list;
    ond::detail::build(list).open_doc();
    const Outcome r = in.run(4, list, [](auto mode, auto&&... args) { detail::decode_entities_section<decltype(mode)>(args...); });
    if (!r.ok) return 0;
    const DocSlice doc = list.back();
    OND_FUZZ_CHECK(doc.has_ents);
    OND_FUZZ_CHECK(7 * doc.ents.size() <= in.bytes.size());
    std::uint64_t prev_end = 0;
    for (const Entity& e : doc.ents) {
        OND_FUZZ_CHECK(e.length >= 1 && e.start >= prev_end);
        prev_end = std::uint64_t{e.start} + e.length;
        OND_FUZZ_CHECK(prev_end <= in.tokens);
        OND_FUZZ_CHECK(e.label >= 1 && e.label <= in.table.view.count() && !value_of(in.table, e.label).empty());
        OND_FUZZ_CHECK(detail::confidence_ok(e.conf));
    }
    return 0;
}
