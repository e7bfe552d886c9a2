// Entities, section 4 (R22, R15, R3), with a table and a token count taken from the input: the
// modes agree; decoded entities are in text order, non-overlapping, non-empty, inside the
// document, labelled with a non-empty stored string, with confidences in [0, 1].
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const IndexedSectionInput in = IndexedSectionInput::take(data, size);
    const std::uint64_t origin = in.origin;
    const std::uint32_t n = in.tokens;
    const SyntheticTable& table = in.table;
    const std::vector<std::byte>& bytes = in.bytes;

    Doc doc;
    const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        detail::decode_entities_section<M>(c, table.view, n, &doc, tr);
    });
    if (!r.ok) return 0;
    OND_FUZZ_CHECK(doc.has_ents);
    OND_FUZZ_CHECK(7 * doc.ents.size() <= bytes.size());
    std::uint64_t prev_end = 0;
    for (const Entity& e : doc.ents) {
        OND_FUZZ_CHECK(e.length >= 1 && e.start >= prev_end);
        prev_end = std::uint64_t{e.start} + e.length;
        OND_FUZZ_CHECK(prev_end <= n);
        OND_FUZZ_CHECK(e.label >= 1 && e.label <= table.view.count() && !value_of(table, e.label).empty());
        OND_FUZZ_CHECK(detail::confidence_ok(e.conf));
    }
    return 0;
}
