// Categories, section 6 (R23, R4, R15).
#include <forward_list>
#include <string>
#include <string_view>
#include <unordered_set>

#include "ond/internal/doc_list_build.hpp"
#include "labels.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"

namespace ond::detail {

template <class M>
void decode_categories_section(Cursor& sec, const TableView& table, DocList* out, Tracer* tr) {
    const std::uint64_t count_offset = sec.offset();
    const std::uint32_t count = sec.varint();
    OND_BAIL();
    // A category is at least a 1-byte label and a 4-byte score.
    if (OND_CHECK(Errc::categories_count_exceeds_bytes, count > sec.remaining() / 5))
        return void(fail(Errc::categories_count_exceeds_bytes, count_offset,
             detail::count_of(count, "category", "categories") + " need at least " + detail::count_of(5ull * count, "byte", "bytes") +
                 ", but the section has " + std::to_string(sec.remaining()) + " left"));
    if constexpr (M::trace) tr->field(count_offset, sec.offset() - count_offset, "categories.count", std::to_string(count));
    if constexpr (M::build) {
        build(out).set_has_cats(true);
    }
    // Labels by value (R23: equal strings are not distinct), seen in place: a UTF-16 label's
    // value is kept in `converted`.
    std::forward_list<std::string> converted;
    std::unordered_set<std::string_view> seen;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string who = "category " + std::to_string(i);
        const std::uint64_t item_offset = sec.offset();
        const std::uint32_t label =
            read_label(sec, table, Errc::categories_label_missing, Errc::categories_label_empty, who + "'s label");
        OND_BAIL();
        const std::string_view value = table.value(label, converted);  // "" for 0, only with a check switched off
        if (OND_CHECK(Errc::categories_duplicate_label, !seen.insert(value).second))
            return void(fail(Errc::categories_duplicate_label, item_offset, who + "'s label " + quote_wtf8(value) + " is used twice"));
        const std::uint64_t score_offset = sec.offset();
        const float score = sec.f32();
        OND_BAIL();
        if (OND_CHECK(Errc::categories_score_out_of_range, !confidence_ok(score)))
            return void(fail(Errc::categories_score_out_of_range, score_offset, who + " has score " + describe_float(score)));
        if constexpr (M::build) build(out).add_category(Category{label, score});
        if constexpr (M::trace)
            tr->field(item_offset, sec.offset() - item_offset, "categories[" + std::to_string(i) + "]",
                      "label " + std::to_string(label) + " " + quote_wtf8(value) + ", score " + describe_float(score));
    }
}

#define OND_INSTANTIATE(M) template void decode_categories_section<M>(Cursor&, const TableView&, DocList*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
