// Whole containers (ONDC and ONDB) through decode(), validate() and inspect(): the three agree
// on verdict, error code and offset; every error offset lies inside the input; validate()'s
// summary describes what decode() built; and whatever decodes can be written (the writer
// accepts all content the reader accepts). Uses the structure-aware mutator.
#include "fuzz_support.hpp"
#include "mutator.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const Bytes input = as_bytes(data, size);
    Container c;
    const Outcome d = capture([&] { c = decode(input); });
    Summary sum;
    const Outcome v = capture([&] { sum = validate(input); });
    const Outcome i = capture([&] {
        inspect(input, [&](const InspectEvent& e) { OND_FUZZ_CHECK_MSG(e.offset + e.length <= size, e.name); });
    });
    check_same(d, v, "decode", "validate");
    check_same(d, i, "decode", "inspect");
    if (!d.ok) {
        OND_FUZZ_CHECK_MSG(d.offset <= size, d.what);
        OND_FUZZ_CHECK(error_info(d.errc).verdict != ErrorVerdict::content);
        return 0;
    }
    OND_FUZZ_CHECK(size >= 12 + (c.crc ? 4u : 0u));
    OND_FUZZ_CHECK(sum.format == c.format && sum.crc == c.crc && sum.docs == c.docs.size());
    OND_FUZZ_CHECK(sum.strings + 1 == c.strings.size());
    OND_FUZZ_CHECK(c.format == Format::ondb || c.docs.size() == 1);
    std::uint64_t tokens = 0;
    for (const Doc& doc : c.docs) {
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
