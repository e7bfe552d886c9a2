// Whole containers (ONDC and ONDB) through decode(), validate() and inspect(): the three agree
// on verdict, error code and offset; every error offset lies inside the input; validate()'s
// summary describes what decode() built; and whatever decodes can be written (the writer
// accepts all content the reader accepts). The tools' framing parser (framing.hpp) takes any
// input leniently, and what the codec accepts strictly, writing the same bytes back. Uses the
// structure-aware mutator.
#include <string_view>

#include "framing.hpp"
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
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto lenient = framing::Layout::parse_lenient(text);
    if (size >= 12) OND_FUZZ_CHECK(lenient.has_value() == (text.substr(0, 4) == "ONDC" || text.substr(0, 4) == "ONDB"));
    if (lenient) (void)lenient->serialize();
    const auto strict = framing::Layout::parse(text);
    if (strict) {
        // A sound framing re-serialises to itself, up to the trailer it recomputes.
        const std::string again = strict->serialize();
        const std::size_t trailer = strict->crc() ? 4 : 0;
        OND_FUZZ_CHECK(again.size() == size && again.compare(0, size - trailer, text.substr(0, size - trailer)) == 0);
    }
    check_same(d, v, "decode", "validate");
    check_same(d, i, "decode", "inspect");
    if (!d.ok) {
        OND_FUZZ_CHECK_MSG(d.offset <= size, d.what);
        OND_FUZZ_CHECK(error_info(d.errc).verdict != ErrorVerdict::content);
        return 0;
    }
    OND_FUZZ_CHECK(size >= 12 + (c.crc ? 4u : 0u));
    OND_FUZZ_CHECK_MSG(strict && strict->serialize() == text, "accepted, but framing::Layout::parse failed or changed it");
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
