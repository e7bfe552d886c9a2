// Entities, section 4 (R22, R15, R3).
#include "ond/internal/doc_list_build.hpp"
#include "labels.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"

namespace ond::detail {

template <class M>
void decode_entities_section(Cursor& sec, const TableView& table, std::uint32_t n, DocList* out, Tracer* tr) {
    const std::uint64_t count_offset = sec.offset();
    const std::uint32_t count = sec.varint();
    OND_BAIL();
    if (OND_CHECK(Errc::entities_count_exceeds_bytes, count > sec.remaining() / 7))
        return void(fail(Errc::entities_count_exceeds_bytes, count_offset,
             detail::count_of(count, "entity", "entities") + " need at least " + detail::count_of(7ull * count, "byte", "bytes") +
                 ", but the section has " + std::to_string(sec.remaining()) + " left"));
    if constexpr (M::trace) tr->field(count_offset, sec.offset() - count_offset, "entities.count", std::to_string(count));
    if constexpr (M::build) {
        build(out).set_has_ents(true);
    }
    std::uint64_t prev_end = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string who = "entity " + std::to_string(i);
        const std::uint64_t item_offset = sec.offset();
        const std::uint32_t gap = sec.varint();
        const std::uint64_t len_offset = sec.offset();
        const std::uint32_t len = sec.varint();
        OND_BAIL();
        if (OND_CHECK(Errc::entities_empty, len == 0)) return void(fail(Errc::entities_empty, len_offset, who + " has length 0"));
        const std::uint64_t start = prev_end + gap;
        const std::uint64_t end = start + len;
        if (OND_CHECK(Errc::entities_out_of_range, end > n))
            return void(fail(Errc::entities_out_of_range, item_offset,
                 who + " ends at token " + std::to_string(end) + "; the document has " + detail::count_of(n, "token", "tokens")));
        const std::uint32_t label =
            read_label(sec, table, Errc::entities_label_missing, Errc::entities_label_empty, who + "'s label");
        OND_BAIL();
        const std::uint64_t conf_offset = sec.offset();
        const float conf = sec.f32();
        OND_BAIL();
        if (OND_CHECK(Errc::entities_confidence_out_of_range, !confidence_ok(conf)))
            return void(fail(Errc::entities_confidence_out_of_range, conf_offset, who + " has confidence " + describe_float(conf)));
        if constexpr (M::build)
            build(out).add_entity(Entity{static_cast<std::uint32_t>(start), len, label, conf});
        if constexpr (M::trace)
            tr->field(item_offset, sec.offset() - item_offset, "entities[" + std::to_string(i) + "]",
                      "gap " + std::to_string(gap) + ", tokens [" + std::to_string(start) + ", " + std::to_string(end) +
                          "), label " + std::to_string(label) + " " + describe_string(table.entry(label)) +
                          ", conf " + describe_float(conf));
        prev_end = end;
    }
    // R22: with no tokens, "present only when entity annotation is set" cannot hold. Checked once
    // the section is read and otherwise sound, so an invalid section is never reported as this
    // one: bytes left over are section.trailing-bytes, and an entity there ends past the last
    // token (entities.out-of-range; with that check switched off, still that fault alone).
    if (OND_CHECK(Errc::entities_without_tokens, n == 0 && count == 0 && sec.empty()))
        return void(fail(Errc::entities_without_tokens, count_offset, "a document without tokens has an entities section (section 4)"));
}

#define OND_INSTANTIATE(M) \
    template void decode_entities_section<M>(Cursor&, const TableView&, std::uint32_t, DocList*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
