// The tokens section's fast paths (varint_bulk.hpp) against the simple path, at every level
// (varint_level.hpp) this build and CPU support, on random input (the checks are described in
// varint_bulk_testing.hpp; hand-made edge cases are in varint_bulk_edge_test.cpp). Then whole
// token sections, valid and mutated, must get the same verdict from ValidateMode and DecodeMode
// (which use the fast paths) at each level as from InspectMode (which does not), and decode to
// the same tokens as at the scalar level; and so must sections with a sentence mark of 3.
#include <algorithm>

#include "ond/internal/doc_list_build.hpp"
#include "varint_bulk_testing.hpp"

namespace ond::detail::bulk_testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Levels, VarintBulk,
                         testing::Values(VarintLevel::scalar, VarintLevel::sse41, VarintLevel::avx2, VarintLevel::avx512),
                         level_param_name);

constexpr int kCases = 3000;

TEST_P(VarintBulk, IndexesMatchTheSimplePath) {
    Gen g(1);
    for (int round = 0; round < kCases; ++round) {
        BulkCase k;
        k.count = g.below(g.chance(0.2) ? 300 : 60);
        k.limit = g.chance(0.3) ? g.below(200) : g.below(40000);
        for (std::uint32_t i = 0; i < k.count; ++i) g.varint(k.bytes, k.limit);
        if (g.chance(0.2) && !k.bytes.empty()) k.bytes.resize(g.below(static_cast<std::uint32_t>(k.bytes.size())));  // truncated
        k.origin = g.below(1000);
        check_bulk_case(k, GetParam(), "round " + std::to_string(round));
        if (HasFatalFailure()) return;
    }
}

TEST_P(VarintBulk, SpansMatchTheSimplePath) {
    Gen g(2);
    for (int round = 0; round < kCases; ++round) {
        BulkCase k;
        k.kind = BulkKind::spans;
        k.count = g.below(g.chance(0.2) ? 200 : 60);
        const bool wide = g.chance(0.2);  // 2-byte gaps and lengths too
        k.text_length = g.below(wide ? 40000 : g.chance(0.2) ? 3000 : 400);
        for (std::uint32_t i = 0; i < 2 * k.count; ++i) g.varint(k.bytes, i % 2 ? (wide ? 300 : 12) : (wide ? 200 : 3));
        if (g.chance(0.2) && !k.bytes.empty()) k.bytes.resize(g.below(static_cast<std::uint32_t>(k.bytes.size())));
        k.origin = 7;
        check_bulk_case(k, GetParam(), "round " + std::to_string(round));
        if (HasFatalFailure()) return;
    }
}

TEST_P(VarintBulk, HeadsMatchTheSimplePath) {
    Gen g(3);
    for (int round = 0; round < kCases; ++round) {
        BulkCase k;
        k.kind = BulkKind::heads;
        k.count = 1 + g.below(g.chance(0.2) ? 300 : 60);
        const std::uint32_t typical = g.chance(0.5) ? 12 : 2 * k.count;
        for (std::uint32_t i = 0; i < k.count; ++i) g.varint(k.bytes, g.chance(0.9) ? typical : 300);
        if (g.chance(0.2)) k.bytes.resize(g.below(static_cast<std::uint32_t>(k.bytes.size())));
        check_bulk_case(k, GetParam(), "round " + std::to_string(round));
        if (HasFatalFailure()) return;
    }
}

// In a tokens section every run is followed by more bytes (the next run, the sentence bits), so
// a run's last items may lie in a block the cursor has whole: the same checks with random bytes
// after each run.
TEST_P(VarintBulk, RunsFollowedByMoreBytes) {
    Gen g(6);
    for (int round = 0; round < kCases; ++round) {
        BulkCase k;
        k.kind = static_cast<BulkKind>(round % 3);
        k.count = (k.kind == BulkKind::heads ? 1 : 0) + g.below(g.chance(0.2) ? 130 : 40);
        k.limit = g.chance(0.3) ? g.below(200) : g.below(40000);
        k.text_length = g.below(g.chance(0.5) ? 400 : 40000);
        const std::uint32_t items = k.kind == BulkKind::spans ? 2 * k.count : k.count;
        for (std::uint32_t i = 0; i < items; ++i) {
            const std::uint32_t max = k.kind == BulkKind::indexes ? k.limit
                                      : k.kind == BulkKind::heads ? (g.chance(0.9) ? 2 * k.count : 300)
                                                                  : (i % 2 ? (g.chance(0.8) ? 12 : 300) : 3);
            g.varint(k.bytes, max);
        }
        const std::uint32_t more = g.below(100);
        for (std::uint32_t i = 0; i < more; ++i) k.bytes.push_back(static_cast<std::uint8_t>(g.below(256)));
        k.origin = 3;
        check_bulk_case(k, GetParam(), "round " + std::to_string(round));
        if (HasFatalFailure()) return;
    }
}

// A valid tokens section of n tokens over a text of `text_length` units, indexes below `table`.
std::vector<std::uint8_t> tokens_section(Gen& g, std::uint32_t n, std::uint32_t table, std::uint32_t& text_length) {
    std::vector<std::uint8_t> s;
    put_varint(s, n, n < 128 ? 1 : n < 16384 ? 2 : 3);
    std::uint32_t pos = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t gap = g.below(3), len = 1 + g.below(g.chance(0.01) ? 300 : 9);
        put_varint(s, gap, gap < 128 ? 1 : 2);
        put_varint(s, len, len < 128 ? 1 : 2);
        pos += gap + len;
    }
    text_length = pos + g.below(3);
    for (int c = 0; c < 6; ++c)
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t idx = g.below(table + 1);
            put_varint(s, idx, idx < 128 ? 1 : idx < 16384 ? 2 : 3);
        }
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::int32_t delta = static_cast<std::int32_t>(g.below(n)) - static_cast<std::int32_t>(i);
        const std::uint32_t u = (static_cast<std::uint32_t>(delta) << 1) ^ static_cast<std::uint32_t>(delta >> 31);
        put_varint(s, u, u < 128 ? 1 : u < 16384 ? 2 : 3);
    }
    for (std::uint32_t b = 0; b < (n + 3) / 4; ++b) {
        std::uint8_t v = 0;
        for (std::uint32_t k = 0; k < 4 && 4 * b + k < n; ++k) v = static_cast<std::uint8_t>(v | (g.below(3) << (2 * k)));
        s.push_back(v);
    }
    s.push_back(0);  // confidence mode 0
    return s;
}

struct Verdict {
    std::optional<Errc> error;
    std::uint64_t offset = 0;
    bool operator==(const Verdict&) const = default;
};

template <class M>
Verdict verdict(const std::vector<std::uint8_t>& sec, const TableView& table, std::uint32_t text_length, DocList* doc) {
    Cursor c(as(sec), 100);
    InspectFn ignore = [](const InspectEvent&) {};
    Tracer tr(ignore);
    try {
        decode_tokens_section<M>(c, table, text_length, doc, M::trace ? &tr : nullptr);
        if (!c.empty()) return {Errc::section_trailing_bytes, c.offset()};
    } catch (const Error& e) {
        return {e.errc(), e.offset()};
    }
    return {};
}

// Sets the level in use for one scope (the tests of one process share it).
class ForcedVarintLevel {
public:
    explicit ForcedVarintLevel(VarintLevel level) : saved_(varint_level()) { set_varint_level(level); }
    ~ForcedVarintLevel() { set_varint_level(saved_); }
    ForcedVarintLevel(const ForcedVarintLevel&) = delete;
    ForcedVarintLevel& operator=(const ForcedVarintLevel&) = delete;

private:
    VarintLevel saved_;
};

TEST_P(VarintBulk, TokenSectionsGetOneVerdictInEveryMode) {
    Gen g(4);
    std::vector<RawString> entries(20000);
    const std::uint8_t none = 0;
    for (auto& e : entries) e.data = &none;
    for (int round = 0; round < kCases; ++round) {
        const std::uint32_t table_count = g.chance(0.1) ? 20000 : g.chance(0.5) ? 100 : 300;
        TableView table;
        table.entries.assign(entries.begin(), entries.begin() + table_count);
        std::uint32_t text_length = 0;
        auto sec = tokens_section(g, g.below(g.chance(0.1) ? 400 : 50), table_count + (g.chance(0.2) ? 2 : 0), text_length);
        const int mutations = round % 4 == 0 ? 0 : static_cast<int>(1 + g.below(3));
        for (int m = 0; m < mutations && !sec.empty(); ++m) {
            const std::uint32_t at = g.below(static_cast<std::uint32_t>(sec.size()));
            switch (g.below(3)) {
                case 0: sec[at] = static_cast<std::uint8_t>(g.below(256)); break;
                case 1: sec[at] ^= 0x80; break;
                default: sec.resize(at); break;
            }
        }
        if (g.chance(0.1) && text_length > 0) --text_length;
        DocList reference, decoded;  // each decodes into its one document
        detail::build(reference).open_doc();
        detail::build(decoded).open_doc();
        Verdict scalar_decode;
        {
            ForcedVarintLevel scalar(VarintLevel::scalar);
            scalar_decode = verdict<DecodeMode>(sec, table, text_length, &reference);
        }
        ForcedVarintLevel forced(GetParam());
        ASSERT_EQ(varint_level(), GetParam());
        const Verdict inspect = verdict<InspectMode>(sec, table, text_length, nullptr);
        const Verdict validate = verdict<ValidateMode>(sec, table, text_length, nullptr);
        const Verdict decode = verdict<DecodeMode>(sec, table, text_length, &decoded);
        ASSERT_EQ(validate, inspect) << "round " << round;
        ASSERT_EQ(decode, inspect) << "round " << round;
        ASSERT_EQ(scalar_decode, inspect) << "round " << round;
        if (!decode.error) {
            const TokenSlice t = decoded[0].tokens, u = reference[0].tokens;
            bool attrs = true;
            for (std::size_t k = 0; k < token_column_count; ++k)
                attrs = attrs && std::ranges::equal(t.attrs[k], u.attrs[k]);
            ASSERT_TRUE(std::ranges::equal(t.start, u.start) && std::ranges::equal(t.length, u.length) && attrs &&
                        std::ranges::equal(t.head, u.head) && std::ranges::equal(t.sent, u.sent))
                << "round " << round << ": tokens differ from the scalar level's";
        }
    }
}

// Validation steps over 32 sentence marks at a time (tokens.cpp); a mark of 3 anywhere (R20),
// alone or before another, must still be the one reported, at its byte.
TEST(TokenSections, R20_EverySentenceMarkOf3IsFoundInEveryMode) {
    Gen g(5);
    std::vector<RawString> entries(300);
    const std::uint8_t none = 0;
    for (auto& e : entries) e.data = &none;
    TableView table;
    table.entries = entries;
    for (std::uint32_t n : {31u, 32u, 33u, 64u, 100u, 129u}) {
        std::uint32_t text_length = 0;
        auto valid = tokens_section(g, n, 300, text_length);
        const std::size_t sent_at = valid.size() - 1 - (n + 3) / 4;  // the marks, then confidence mode 0
        for (std::uint32_t m = 0; m < n; ++m) {  // as in text: "inside" (2), a "start" (1) every 7th
            std::uint8_t& b = valid[sent_at + m / 4];
            b = static_cast<std::uint8_t>((b & ~(3u << (2 * (m % 4)))) | ((m % 7 == 0 ? 1u : 2u) << (2 * (m % 4))));
        }
        for (std::uint32_t k = 0; k < n; ++k) {
            for (std::uint32_t also : {k, k + 7}) {
                auto sec = valid;
                for (std::uint32_t m : {k, also})
                    if (m < n) sec[sent_at + m / 4] = static_cast<std::uint8_t>(sec[sent_at + m / 4] | (3u << (2 * (m % 4))));
                const Verdict want{Errc::tokens_bad_sentence_value, 100 + sent_at + k / 4};
                DocList decoded;
                detail::build(decoded).open_doc();
                ASSERT_EQ(verdict<InspectMode>(sec, table, text_length, nullptr), want) << "n " << n << " mark " << k;
                ASSERT_EQ(verdict<ValidateMode>(sec, table, text_length, nullptr), want) << "n " << n << " mark " << k;
                ASSERT_EQ(verdict<DecodeMode>(sec, table, text_length, &decoded), want) << "n " << n << " mark " << k;
            }
        }
    }
}

}  // namespace
}  // namespace ond::detail::bulk_testing
