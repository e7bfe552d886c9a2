// Categories, section 6 (R23, R15, R4), with a table taken from the input (it holds equal
// values under different indexes and encodings): the modes agree; decoded labels are non-empty
// and distinct by value; scores are in [0, 1].
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const SyntheticTable table(p.ConsumeIntegralInRange<std::uint32_t>(0, 12));
    const std::vector<std::byte> bytes = rest_of(data, p);

    DocList list;
    ond::detail::build(list).open_doc();
    std::uint64_t consumed = 0;
    const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        detail::decode_categories_section<M>(c, table.view, &list, tr);
        consumed = c.offset() - origin;
    });
    check_section_against_model(6, bytes, origin, model_context(table, 0, 0), r, consumed, true);
    if (!r.ok) return 0;
    const DocSlice doc = list.back();
    OND_FUZZ_CHECK(doc.has_cats);
    OND_FUZZ_CHECK(5 * doc.cats.size() <= bytes.size());
    for (std::size_t i = 0; i < doc.cats.size(); ++i) {
        const Category& k = doc.cats[i];
        OND_FUZZ_CHECK(k.label >= 1 && k.label <= table.view.count() && !value_of(table, k.label).empty());
        OND_FUZZ_CHECK(k.score >= 0.0f && k.score <= 1.0f);
        for (std::size_t j = 0; j < i; ++j) OND_FUZZ_CHECK(value_of(table, doc.cats[j].label) != value_of(table, k.label));
    }
    return 0;
}
