// The string table, section 1 (R12-R14): the three modes agree; a decoded table holds exactly the
// stored strings, in order, as WTF-8 with the stored code units; the count never exceeds the
// bytes that follow it.
#include "harness.hpp"
#include "ond/unicode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const std::vector<std::byte> bytes = rest_of(data, p);

    detail::TableView table;
    StringStore store;
    std::size_t consumed = 0;
    const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        detail::decode_string_table_section<M>(c, table, &store, tr);
        consumed = static_cast<std::size_t>(c.offset() - origin);
    });
    check_section_against_model(1, bytes, origin, model::SectionContext{}, r, consumed, true);
    if (!r.ok) return 0;
    OND_FUZZ_CHECK(store.size() == std::size_t{table.count()} + 1);
    OND_FUZZ_CHECK(store.view(0).empty());
    OND_FUZZ_CHECK(std::size_t{table.count()} <= bytes.size());
    std::uint64_t last = 0;
    for (std::uint32_t i = 1; i <= table.count(); ++i) {
        const detail::RawString s = table.entry(i);
        OND_FUZZ_CHECK(i == 1 || s.offset > last);
        last = s.offset;
        std::string w;
        detail::append_wtf8(w, s);
        OND_FUZZ_CHECK(store.view(i) == w);
        OND_FUZZ_CHECK(unicode::wtf8_utf16_length(w).has_value());
        OND_FUZZ_CHECK(table.is_stored_empty(i) == (s.size == 0));
    }
    OND_FUZZ_CHECK(consumed <= bytes.size());
    const Outcome in_range = capture([&] { table.check_index(table.count(), origin); });
    OND_FUZZ_CHECK(in_range.ok);
    const Outcome past = capture([&] { table.check_index(table.count() + 1, origin + 1); });
    OND_FUZZ_CHECK(!past.ok && past.errc == Errc::table_index_out_of_range && past.offset == origin + 1);
    return 0;
}
