// The tokens section's fast paths (varint_bulk.hpp) against the simple path, on random input.
//
// Each fast path is run the way tokens.cpp runs it (fast path, then one item through the
// cursor, and so on) and compared with a loop that reads every item through the cursor alone:
// same values, same final offset, and the same error code at the same offset. Then whole token
// sections, valid and mutated, must get the same verdict from ValidateMode and DecodeMode (which
// use the fast paths) and from InspectMode (which does not).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "sections.hpp"
#include "varint_bulk.hpp"

namespace ond::detail {
namespace {

struct Outcome {
    std::vector<std::int64_t> values;
    std::uint64_t end_offset = 0;
    std::optional<Errc> error;
    std::uint64_t error_offset = 0;

    bool operator==(const Outcome&) const = default;
};

std::string show(const Outcome& o) {
    std::string s = std::to_string(o.values.size()) + " values, end " + std::to_string(o.end_offset);
    if (o.error) s += ", error " + std::string(error_info(*o.error).code) + " at " + std::to_string(o.error_offset);
    return s;
}

Bytes as(const std::vector<std::uint8_t>& v) { return as_bytes(v.data(), v.size()); }

// Writes a varint of `value` in exactly `size` bytes (overlong when more than needed); sizes past
// 5 bytes or values past what `size` bytes hold produce the invalid forms the reader must refuse.
void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value, int size) {
    for (int k = 0; k < size; ++k) {
        std::uint8_t b = static_cast<std::uint8_t>(value & 0x7F);
        value >>= 7;
        if (k + 1 < size) b |= 0x80;
        out.push_back(b);
    }
}

class Gen {
public:
    explicit Gen(std::uint32_t seed) : rng_(seed) {}
    std::uint32_t below(std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

    // A value near `typical`, sometimes far off, in 1-5 bytes, rarely an invalid form.
    void varint(std::vector<std::uint8_t>& out, std::uint32_t typical) {
        std::uint64_t v = below(typical + 1);
        if (chance(0.05)) v = typical + below(3);  // just past a limit
        if (chance(0.02)) v = 0xFFFFFFFFu - below(2);
        int minimal = 1;
        while (minimal < 5 && (v >> (7 * minimal))) ++minimal;
        int size = minimal;
        if (chance(0.03)) size = std::min(5, minimal + 1 + static_cast<int>(below(2)));  // overlong
        if (chance(0.004)) {  // a 5th byte with the continuation bit, or value bits above 0x0F
            put_varint(out, v, 5);
            out.back() = static_cast<std::uint8_t>(out.back() | (chance(0.5) ? 0x80 : 0x10));
            return;
        }
        put_varint(out, v, size);
    }

private:
    std::mt19937 rng_;
};

template <class F>
Outcome run(const std::vector<std::uint8_t>& bytes, std::uint64_t origin, F&& body) {
    Outcome o;
    Cursor c(as(bytes), origin);
    try {
        body(c, o);
    } catch (const Error& e) {
        o.error = e.errc();
        o.error_offset = e.offset();
    }
    o.end_offset = c.offset();
    return o;
}

constexpr int kCases = 3000;

TEST(VarintBulk, IndexesMatchTheSimplePath) {
    Gen g(1);
    for (int round = 0; round < kCases; ++round) {
        const std::uint32_t count = g.below(60);
        const std::uint32_t limit = g.chance(0.3) ? g.below(200) : g.below(40000);
        std::vector<std::uint8_t> bytes;
        for (std::uint32_t i = 0; i < count; ++i) g.varint(bytes, limit);
        if (g.chance(0.2) && !bytes.empty()) bytes.resize(g.below(static_cast<std::uint32_t>(bytes.size())));  // truncated
        const std::uint64_t origin = g.below(1000);
        auto check = [&](Cursor& c, Outcome& o, std::uint32_t i) {
            const std::uint64_t off = c.offset();
            const std::uint32_t v = c.varint();
            if (v > limit) fail(Errc::table_index_out_of_range, off, "index");
            o.values[i] = v;
        };
        const Outcome simple = run(bytes, origin, [&](Cursor& c, Outcome& o) {
            o.values.assign(count, -1);
            for (std::uint32_t i = 0; i < count; ++i) check(c, o, i);
        });
        for (bool store : {true, false}) {
            const Outcome fast = run(bytes, origin, [&](Cursor& c, Outcome& o) {
                o.values.assign(count, -1);
                std::vector<std::uint32_t> col(count);
                for (std::uint32_t i = 0; i < count; ++i) {
                    const std::size_t took = varint_bulk::indexes(c, store ? col.data() + i : nullptr, count - i, limit);
                    for (std::size_t k = i; k < i + took; ++k) o.values[k] = store ? static_cast<std::int64_t>(col[k]) : std::int64_t{-2};
                    i += static_cast<std::uint32_t>(took);
                    if (i == count) break;
                    check(c, o, i);
                }
            });
            Outcome expected = simple;
            if (!store)  // nothing stored: the items the fast path took are marked -2 instead
                for (std::size_t k = 0; k < count; ++k)
                    if (fast.values[k] == -2) expected.values[k] = -2;
            ASSERT_EQ(fast, expected) << "round " << round << " store " << store << ": fast " << show(fast)
                                      << " vs simple " << show(simple);
        }
    }
}

TEST(VarintBulk, SpansMatchTheSimplePath) {
    Gen g(2);
    for (int round = 0; round < kCases; ++round) {
        const std::uint32_t n = g.below(60);
        const std::uint32_t text_length = g.below(400);
        std::vector<std::uint8_t> bytes;
        for (std::uint32_t i = 0; i < 2 * n; ++i) g.varint(bytes, i % 2 ? 12 : 3);
        if (g.chance(0.2) && !bytes.empty()) bytes.resize(g.below(static_cast<std::uint32_t>(bytes.size())));
        auto check = [&](Cursor& c, Outcome& o, std::uint64_t& prev_end, std::uint32_t i) {
            const std::uint64_t tok = c.offset();
            const std::uint32_t gap = c.varint();
            const std::uint64_t len_off = c.offset();
            const std::uint32_t len = c.varint();
            if (len == 0) fail(Errc::tokens_empty, len_off, "empty");
            const std::uint64_t end = prev_end + gap + len;
            if (end > text_length) fail(Errc::tokens_out_of_text, tok, "out");
            o.values[2 * i] = static_cast<std::int64_t>(end - len);
            o.values[2 * i + 1] = len;
            prev_end = end;
        };
        const Outcome simple = run(bytes, 7, [&](Cursor& c, Outcome& o) {
            o.values.assign(2 * n, -1);
            std::uint64_t prev_end = 0;
            for (std::uint32_t i = 0; i < n; ++i) check(c, o, prev_end, i);
        });
        const Outcome fast = run(bytes, 7, [&](Cursor& c, Outcome& o) {
            o.values.assign(2 * n, -1);
            std::vector<std::uint32_t> start(n), length(n);
            std::uint64_t prev_end = 0;
            for (std::uint32_t i = 0; i < n; ++i) {
                const std::uint32_t from = i;
                i = varint_bulk::spans(c, start.data(), length.data(), i, n, prev_end, text_length);
                for (std::uint32_t k = from; k < i; ++k) o.values[2 * k] = start[k], o.values[2 * k + 1] = length[k];
                if (i == n) break;
                check(c, o, prev_end, i);
            }
        });
        ASSERT_EQ(fast, simple) << "round " << round << ": fast " << show(fast) << " vs simple " << show(simple);
    }
}

TEST(VarintBulk, HeadsMatchTheSimplePath) {
    Gen g(3);
    for (int round = 0; round < kCases; ++round) {
        const std::uint32_t n = 1 + g.below(60);
        std::vector<std::uint8_t> bytes;
        for (std::uint32_t i = 0; i < n; ++i) g.varint(bytes, g.chance(0.9) ? 12 : 300);
        if (g.chance(0.2)) bytes.resize(g.below(static_cast<std::uint32_t>(bytes.size())));
        auto check = [&](Cursor& c, Outcome& o, std::uint32_t i) {
            const std::uint64_t off = c.offset();
            const std::int64_t head = static_cast<std::int64_t>(i) + c.svarint();
            if (head < 0 || head >= static_cast<std::int64_t>(n)) fail(Errc::tokens_head_out_of_range, off, "head");
            o.values[i] = head;
        };
        const Outcome simple = run(bytes, 0, [&](Cursor& c, Outcome& o) {
            o.values.assign(n, -1);
            for (std::uint32_t i = 0; i < n; ++i) check(c, o, i);
        });
        const Outcome fast = run(bytes, 0, [&](Cursor& c, Outcome& o) {
            o.values.assign(n, -1);
            std::vector<std::int32_t> heads(n);
            for (std::uint32_t i = 0; i < n; ++i) {
                const std::uint32_t from = i;
                i = varint_bulk::heads(c, heads.data(), i, n);
                for (std::uint32_t k = from; k < i; ++k) o.values[k] = heads[k];
                if (i == n) break;
                check(c, o, i);
            }
        });
        ASSERT_EQ(fast, simple) << "round " << round << ": fast " << show(fast) << " vs simple " << show(simple);
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
Verdict verdict(const std::vector<std::uint8_t>& sec, const TableView& table, std::uint32_t text_length, Doc* doc) {
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

TEST(VarintBulk, TokenSectionsGetOneVerdictInEveryMode) {
    Gen g(4);
    std::vector<RawString> entries(300);
    const std::uint8_t none = 0;
    for (auto& e : entries) e.data = &none;
    for (int round = 0; round < kCases; ++round) {
        const std::uint32_t table_count = g.chance(0.5) ? 100 : 300;
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
        Doc decoded;
        const Verdict inspect = verdict<InspectMode>(sec, table, text_length, nullptr);
        const Verdict validate = verdict<ValidateMode>(sec, table, text_length, nullptr);
        const Verdict decode = verdict<DecodeMode>(sec, table, text_length, &decoded);
        ASSERT_EQ(validate, inspect) << "round " << round;
        ASSERT_EQ(decode, inspect) << "round " << round;
    }
}

}  // namespace
}  // namespace ond::detail
