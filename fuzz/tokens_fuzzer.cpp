// The tokens, section 3 (R17-R21, R3), with a table size and a text length taken from the input.
// The three modes agree; decoded tokens keep every rule (in order, non-empty, inside the text,
// heads inside the document, indexes inside the table, sentence values 0-2, confidences in
// [0, 1]); the count never exceeds the section's bytes / 9; and the tokens written back in
// canonical form decode to the same tokens. Validate and decode at every other varint level the
// CPU supports (varint_level.hpp) give the same verdict, error, bytes consumed and tokens.
#include <algorithm>

#include "harness.hpp"
#include "ond/internal/varint_level.hpp"

namespace {

std::vector<std::byte> encode_tokens(const ond::TokenSlice& t) {
    using namespace ond::fuzz;
    std::vector<std::byte> s;
    const std::size_t n = t.size();
    put_varint(s, static_cast<std::uint32_t>(n));
    std::uint32_t prev = 0;
    for (std::size_t i = 0; i < n; ++i) {
        put_varint(s, t.start[i] - prev);
        put_varint(s, t.length[i]);
        prev = t.start[i] + t.length[i];
    }
    for (const auto& col : t.attrs)
        for (std::size_t i = 0; i < n; ++i) put_varint(s, col[i]);
    for (std::size_t i = 0; i < n; ++i) put_svarint(s, t.head[i] - static_cast<std::int32_t>(i));
    for (std::size_t i = 0; i < n; i += 4) {
        unsigned b = 0;
        for (std::size_t k = 0; k < 4 && i + k < n; ++k) b |= static_cast<unsigned>(t.sent[i + k]) << (2 * k);
        put_u8(s, static_cast<std::uint8_t>(b));
    }
    bool all_one = true;
    for (float f : t.conf) all_one = all_one && float_bits(f) == 0x3F800000u;
    put_u8(s, all_one ? 0 : 1);
    if (!all_one)
        for (float f : t.conf) put_u32(s, float_bits(f));
    return s;
}

// The same tokens, column by column (spans compare by their elements).
bool same_tokens(const ond::TokenSlice& u, const ond::TokenSlice& t) {
    if (!ond::fuzz::same_values(u.start, t.start) || !ond::fuzz::same_values(u.length, t.length) ||
        !ond::fuzz::same_values(u.head, t.head) || !ond::fuzz::same_values(u.sent, t.sent))
        return false;
    for (std::size_t col = 0; col < ond::token_column_count; ++col)
        if (!ond::fuzz::same_values(u.attrs[col], t.attrs[col])) return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const std::uint64_t origin = pick_origin(p);
    const SyntheticTable table(p.ConsumeIntegralInRange<std::uint32_t>(0, 20));
    std::uint32_t text_len = p.ConsumeIntegralInRange<std::uint32_t>(0, 300);
    if (text_len == 300) text_len = 0xFFFFFFFFu;
    const std::vector<std::byte> bytes = rest_of(data, p);

    DocList list;
    ond::detail::build(list).open_doc();
    std::uint32_t n = 0;
    std::size_t consumed = 0;
    const Outcome r = run_modes(origin, origin + bytes.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(bytes), origin);
        n = detail::decode_tokens_section<M>(c, table.view, text_len, &list, tr);
        consumed = static_cast<std::size_t>(c.offset() - origin);
    });
    check_section_against_model(3, bytes, origin, model_context(table, 0, text_len), r, consumed, true);

    const detail::VarintLevel used = detail::varint_level();
    for (int l = 0; l <= static_cast<int>(detail::varint_level_supported()); ++l) {
        const auto level = static_cast<detail::VarintLevel>(l);
        if (level == used) continue;
        detail::set_varint_level(level);
        DocList other;
        ond::detail::build(other).open_doc();
        std::size_t other_consumed = 0;
        const auto at_level = [&](auto mode, DocList* out) {
            return capture([&] {
                detail::Cursor c(bytes_of(bytes), origin);
                detail::decode_tokens_section<decltype(mode)>(c, table.view, text_len, out, nullptr);
                other_consumed = static_cast<std::size_t>(c.offset() - origin);
            });
        };
        const Outcome v = at_level(detail::ValidateMode{}, nullptr);
        OND_FUZZ_CHECK_MSG(v.same_verdict(r), std::string(detail::varint_level_name(level)) + " validate: " + v.describe());
        OND_FUZZ_CHECK(!r.ok || other_consumed == consumed);
        const Outcome d = at_level(detail::DecodeMode{}, &other);
        OND_FUZZ_CHECK_MSG(d.same_verdict(r), std::string(detail::varint_level_name(level)) + " decode: " + d.describe());
        if (r.ok) {
            const DocSlice doc = list.back(), other_doc = other.back();
            const TokenSlice &t = doc.tokens, &u = other_doc.tokens;
            OND_FUZZ_CHECK(other_consumed == consumed);
            OND_FUZZ_CHECK(same_tokens(u, t));
            for (std::uint32_t i = 0; i < n; ++i) OND_FUZZ_CHECK(float_bits(u.conf[i]) == float_bits(t.conf[i]));
        }
    }
    detail::set_varint_level(used);
    if (!r.ok) return 0;

    const DocSlice doc = list.back();
    const TokenSlice& t = doc.tokens;
    OND_FUZZ_CHECK(t.size() == n && n <= detail::max_tokens);
    OND_FUZZ_CHECK(9ull * n <= bytes.size());
    for (const auto& col : t.attrs) OND_FUZZ_CHECK(col.size() == n);
    OND_FUZZ_CHECK(t.head.size() == n && t.sent.size() == n && t.conf.size() == n && t.length.size() == n);
    std::uint64_t prev_end = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        OND_FUZZ_CHECK(t.length[i] >= 1);
        OND_FUZZ_CHECK(t.start[i] >= prev_end);
        prev_end = std::uint64_t{t.start[i]} + t.length[i];
        OND_FUZZ_CHECK(prev_end <= text_len);
        OND_FUZZ_CHECK(t.head[i] >= 0 && static_cast<std::uint32_t>(t.head[i]) < n);
        OND_FUZZ_CHECK(static_cast<unsigned>(t.sent[i]) <= 2);
        OND_FUZZ_CHECK(detail::confidence_ok(t.conf[i]));
        for (const auto& col : t.attrs) OND_FUZZ_CHECK(col[i] <= table.view.count());
    }

    // Canonical bytes for the same tokens: never longer than what was read, and they decode back.
    const std::vector<std::byte> canon = encode_tokens(t);
    OND_FUZZ_CHECK(canon.size() <= consumed);
    DocList again;
    ond::detail::build(again).open_doc();
    detail::Cursor c2(bytes_of(canon));
    const Outcome r2 = capture([&] { detail::decode_tokens_section<detail::DecodeMode>(c2, table.view, text_len, &again, nullptr); });
    OND_FUZZ_CHECK_MSG(r2.ok, r2.describe());
    OND_FUZZ_CHECK(c2.empty());
    const DocSlice again_doc = again.back();
    const TokenSlice& u = again_doc.tokens;
    OND_FUZZ_CHECK(same_tokens(u, t));
    for (std::uint32_t i = 0; i < n; ++i) OND_FUZZ_CHECK(float_bits(u.conf[i]) == float_bits(t.conf[i]));
    return 0;
}
