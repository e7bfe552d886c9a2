// What the section harnesses share: the three decoder modes run on the same bytes must agree,
// every error and every inspect event must lie inside the bytes under test, and a synthetic
// string table for sections that index one.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"
#include "model_reader.hpp"
#include "provider.hpp"
#include "ond/internal/doc_list_build.hpp"
#include "ond/internal/sections.hpp"

namespace ond::fuzz {

// Runs f(mode, tracer) with ValidateMode, DecodeMode and InspectMode; checks that the three
// agree on verdict, error code and offset, that an error's offset lies in [lo, hi], and that
// every inspect event lies inside [lo, hi]. Returns the outcome.
template <class F>
Outcome run_modes(std::uint64_t lo, std::uint64_t hi, F&& f) {
    const Outcome v = capture([&] { f(detail::ValidateMode{}, static_cast<detail::Tracer*>(nullptr)); });
    const Outcome d = capture([&] { f(detail::DecodeMode{}, static_cast<detail::Tracer*>(nullptr)); });
    const InspectFn on_event = [&](const InspectEvent& e) {
        OND_FUZZ_CHECK(e.depth >= 0);
        if (e.kind != InspectEvent::Kind::leave) OND_FUZZ_CHECK_MSG(e.offset >= lo && e.offset + e.length <= hi, e.name);
    };
    detail::Tracer tracer(on_event);
    const Outcome i = capture([&] { f(detail::InspectMode{}, &tracer); });
    check_same(v, d, "validate", "decode");
    check_same(v, i, "validate", "inspect");
    if (!d.ok) OND_FUZZ_CHECK_MSG(d.offset >= lo && d.offset <= hi, d.what);
    return d;
}

// Where the bytes under test sit in an imaginary input: 0, or far out (offsets past 2^32 must
// be reported without wrapping).
inline std::uint64_t pick_origin(Provider& p) {
    switch (p.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: return 0;
        case 1: return 12 + 5;
        case 2: return (std::uint64_t{1} << 32) - 3;
        default: return (std::uint64_t{1} << 33) + 1;
    }
}

// The strings a synthetic table draws from: empty, equal values in both encodings, a lone
// surrogate, a duplicate. Entries point into this static storage.
struct SyntheticTable {
    detail::TableView view;
    std::vector<std::string> values;  // WTF-8 value of entry i (index i + 1)

    explicit SyntheticTable(std::uint32_t count);
};

inline SyntheticTable::SyntheticTable(std::uint32_t count) {
    struct E {
        const char* data;
        std::uint32_t size;
        bool utf16;
        const char* wtf8;
    };
    static const E pool[] = {
        {"PER", 3, false, "PER"}, {"ORG", 3, false, "ORG"},       {"P\0E\0R\0", 6, true, "PER"},
        {"", 0, false, ""},       {"\x00\xD8", 2, true, "\xED\xA0\x80"}, {"LOC", 3, false, "LOC"},
        {"PER", 3, false, "PER"}, {"\xC3\xA9", 2, false, "\xC3\xA9"},
    };
    for (std::uint32_t i = 0; i < count; ++i) {
        const E& e = pool[i % (sizeof(pool) / sizeof(pool[0]))];
        detail::RawString s;
        s.data = reinterpret_cast<const std::uint8_t*>(e.data);
        s.size = e.size;
        s.utf16 = e.utf16;
        view.entries.push_back(s);
        values.emplace_back(e.wtf8);
    }
}

// The bytes under test: what the provider left at the front of the input, copied to a buffer of
// exactly that size so that the sanitizers see any read past its end.
inline std::vector<std::byte> rest_of(const std::uint8_t* data, Provider& p) {
    return copy_bytes(data, p.remaining_bytes());
}

// The model reader's view of a synthetic table, for comparing a section decoder with it.
inline model::SectionContext model_context(const SyntheticTable& t, std::uint32_t tokens, std::uint64_t text_units) {
    model::SectionContext ctx;
    ctx.values = t.values;
    for (const detail::RawString& e : t.view.entries) ctx.stored_empty.push_back(e.size == 0);
    ctx.tokens = tokens;
    ctx.text_units = text_units;
    return ctx;
}

// The section decoder's outcome against the model reader's reading of the same bytes: verdict,
// code and offset, and for an accepted section the bytes it took.
inline void check_section_against_model(std::uint8_t id, const std::vector<std::byte>& bytes, std::uint64_t origin,
                                        const model::SectionContext& ctx, const Outcome& r, std::uint64_t consumed,
                                        bool have_consumed) {
    std::uint64_t taken = 0;
    const model::Verdict m = model::read_section(id, bytes_of(bytes), origin, ctx, &taken);
    if (!model::check_against_model(r, m, "section decoder vs model reader")) return;
    if (r.ok && have_consumed)
        OND_FUZZ_CHECK_MSG(taken == consumed, "the model took " + std::to_string(taken) + " bytes, the decoder " +
                                                  std::to_string(consumed));
}

inline std::string value_of(const SyntheticTable& t, std::uint32_t idx) {
    return idx == 0 ? std::string() : t.values[idx - 1];
}

// What the entities and span-groups harnesses take from the input, in this order: where the
// section sits, a synthetic table of 0–12 entries, a token count (0–63, or the maximum the
// format allows), then the section's bytes.
struct IndexedSectionInput {
    std::uint64_t origin;
    SyntheticTable table;
    std::uint32_t tokens;
    std::vector<std::byte> bytes;

    static IndexedSectionInput take(const std::uint8_t* data, std::size_t size) {
        Provider p(data, size);
        const std::uint64_t origin = pick_origin(p);
        SyntheticTable table(p.ConsumeIntegralInRange<std::uint32_t>(0, 12));
        std::uint32_t n = p.ConsumeIntegralInRange<std::uint32_t>(0, 64);
        if (n == 64) n = detail::max_tokens;
        return {origin, std::move(table), n, rest_of(data, p)};
    }

    // Runs decode(mode, cursor, table, tokens, docs, tracer) in the three modes (run_modes) over
    // the section's bytes; the decode mode fills the last document of docs (opened by the caller).
    // The outcome is also compared with the model reader's reading of section `id`.
    template <class Decode>
    Outcome run(std::uint8_t id, DocList& docs, Decode&& decode) const {
        std::uint64_t consumed = 0;
        const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
            detail::Cursor c(bytes_of(bytes), origin);
            decode(mode, c, table.view, tokens, &docs, tr);
            consumed = c.offset() - origin;
        });
        check_section_against_model(id, bytes, origin, model_context(table, tokens, 0), r, consumed, true);
        return r;
    }
};

}  // namespace ond::fuzz
