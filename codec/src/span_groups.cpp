// Span groups, section 7 (R24, R15, R3).
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
void decode_span_groups_section(Cursor& sec, const TableView& table, std::uint32_t n, DocList* out, Tracer* tr) {
    const std::uint64_t groups_offset = sec.offset();
    const std::uint32_t groups = sec.varint();
    OND_BAIL();
    // A group is at least a 1-byte name and a 1-byte span count.
    if (OND_CHECK(Errc::spans_group_count_exceeds_bytes, groups > sec.remaining() / 2))
        return void(fail(Errc::spans_group_count_exceeds_bytes, groups_offset,
             std::to_string(groups) + " span groups need at least " + detail::count_of(2ull * groups, "byte", "bytes") +
                 ", but the section has " + std::to_string(sec.remaining()) + " left"));
    if constexpr (M::trace) tr->field(groups_offset, sec.offset() - groups_offset, "spans.groups", std::to_string(groups));
    // R24: section 7 is "present only when a document has a span group". Bytes after a count of
    // 0 are section.trailing-bytes (invalid), reported instead of this.
    if (OND_CHECK(Errc::spans_no_groups, groups == 0 && sec.empty()))
        return void(fail(Errc::spans_no_groups, groups_offset, "a span-groups section (section 7) with no groups"));
    // Names by value, seen in place: a UTF-16 name's value is kept in `converted`.
    std::forward_list<std::string> converted;
    std::unordered_set<std::string_view> names;
    for (std::uint32_t g = 0; g < groups; ++g) {
        const std::string group = "span group " + std::to_string(g);
        const std::uint64_t group_offset = sec.offset();
        const std::uint32_t name =
            read_label(sec, table, Errc::spans_group_name_missing, Errc::spans_group_name_empty, group + "'s name");
        OND_BAIL();
        const std::string_view value = table.value(name, converted);  // "" for 0, only with a check switched off
        if (OND_CHECK(Errc::spans_duplicate_group_name, !names.insert(value).second))
            return void(fail(Errc::spans_duplicate_group_name, group_offset, group + "'s name " + quote_wtf8(value) + " is used twice"));
        const std::uint64_t count_offset = sec.offset();
        const std::uint32_t count = sec.varint();
        OND_BAIL();
        // A span is at least 1-byte start, length and label and a 4-byte confidence.
        if (OND_CHECK(Errc::spans_count_exceeds_bytes, count > sec.remaining() / 7))
            return void(fail(Errc::spans_count_exceeds_bytes, count_offset,
                 group + " declares " + detail::count_of(count, "span", "spans") + ", needing at least " +
                     detail::count_of(7ull * count, "byte", "bytes") + ", but the section has " + std::to_string(sec.remaining()) +
                     " left"));
        // The group's header is one field; its spans follow as fields of their own (a group's
        // total length is only known once its spans are read).
        if constexpr (M::trace)
            tr->field(group_offset, sec.offset() - group_offset, "spans[" + std::to_string(g) + "]",
                      "name " + std::to_string(name) + " " + quote_wtf8(value) + ", " + detail::count_of(count, "span", "spans"));
        if constexpr (M::build) build(out).add_span_group(name);
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::string who = group + ", span " + std::to_string(i);
            const std::uint64_t item_offset = sec.offset();
            const std::uint32_t start = sec.varint();
            const std::uint64_t len_offset = sec.offset();
            const std::uint32_t len = sec.varint();
            OND_BAIL();
            if (OND_CHECK(Errc::spans_empty, len == 0)) return void(fail(Errc::spans_empty, len_offset, who + " has length 0"));
            const std::uint64_t end = std::uint64_t{start} + len;
            if (OND_CHECK(Errc::spans_out_of_range, end > n))
                return void(fail(Errc::spans_out_of_range, item_offset,
                     who + " ends at token " + std::to_string(end) + "; the document has " + detail::count_of(n, "token", "tokens")));
            const std::uint32_t label =
                read_label(sec, table, Errc::spans_label_missing, Errc::spans_label_empty, who + "'s label");
            OND_BAIL();
            const std::uint64_t conf_offset = sec.offset();
            const float conf = sec.f32();
            OND_BAIL();
            if (OND_CHECK(Errc::spans_confidence_out_of_range, !confidence_ok(conf)))
                return void(fail(Errc::spans_confidence_out_of_range, conf_offset, who + " has confidence " + describe_float(conf)));
            if constexpr (M::build) build(out).add_span(g, Span{start, len, label, conf});
            if constexpr (M::trace)
                tr->field(item_offset, sec.offset() - item_offset, "spans[" + std::to_string(g) + "][" + std::to_string(i) + "]",
                          "tokens [" + std::to_string(start) + ", " + std::to_string(end) + "), label " +
                              std::to_string(label) + " " + describe_string(table.entry(label)) + ", conf " +
                              describe_float(conf));
        }
    }
}

#define OND_INSTANTIATE(M) \
    template void decode_span_groups_section<M>(Cursor&, const TableView&, std::uint32_t, DocList*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
