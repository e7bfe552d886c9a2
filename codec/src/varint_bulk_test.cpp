// The tokens section's fast paths (varint_bulk.hpp) against the simple path, at every level
// (varint_level.hpp) this build and CPU support; a level they lack is skipped, by name.
//
// Each fast path is run the way tokens.cpp runs it (fast path, then one item through the
// cursor, and so on) and compared with a loop that reads every item through the cursor alone:
// same values, same final offset, and the same error code at the same offset; and the same as
// the scalar level. Each call must also stop on an item boundary and only where the contract
// lets it: at an item it may not take (a varint of 3 bytes or more, or one the caller's check
// refuses) or less than 8 bytes before the end. On random input and on hand-made edge cases.
// Then whole token sections, valid and mutated, must get the same verdict from ValidateMode and
// DecodeMode (which use the fast paths) at each level as from InspectMode (which does not), and
// decode to the same tokens as at the scalar level.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "sections.hpp"
#include "varint_bulk.hpp"
#include "varint_level.hpp"

namespace ond::detail {
namespace {

struct Outcome {
    std::vector<std::int64_t> values;
    std::uint64_t end_offset = 0;
    std::optional<Errc> error;
    std::uint64_t error_offset = 0;
    std::optional<std::uint64_t> bad_stop;  // where a fast path stopped against its contract

    bool operator==(const Outcome&) const = default;
};

std::string show(const Outcome& o) {
    std::string s = std::to_string(o.values.size()) + " values, end " + std::to_string(o.end_offset);
    if (o.error) s += ", error " + std::string(error_info(*o.error).code) + " at " + std::to_string(o.error_offset);
    if (o.bad_stop) s += ", a fast path stopped against its contract at " + std::to_string(*o.bad_stop);
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

// Which fast path, on what: `count` items (indexes: values; spans: tokens; heads: n) in `bytes`.
enum class BulkKind { indexes, spans, heads };

struct BulkCase {
    BulkKind kind = BulkKind::indexes;
    std::vector<std::uint8_t> bytes;
    std::uint32_t count = 0;
    std::uint32_t limit = 0;        // indexes: the largest index the check lets through
    std::uint32_t text_length = 0;  // spans
    std::uint64_t origin = 0;
};

// A 1- or 2-byte varint at `pos` wholly inside `b` (the only kind a fast path may take).
struct ShortVarint {
    std::uint32_t value;
    std::size_t size;
};
std::optional<ShortVarint> short_at(const std::vector<std::uint8_t>& b, std::size_t pos) {
    if (pos < b.size() && b[pos] < 0x80) return ShortVarint{b[pos], 1};
    if (pos + 1 < b.size() && b[pos + 1] < 0x80) return ShortVarint{(b[pos] & 0x7Fu) | (std::uint32_t{b[pos + 1]} << 7), 2};
    return std::nullopt;
}

std::uint32_t unzigzag(std::uint32_t u) { return (u >> 1) ^ (0u - (u & 1)); }  // R2, as 32-bit two's complement

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

// Item i through the cursor with the caller's checks, as tokens.cpp reads it.
void simple_item(const BulkCase& k, Cursor& c, Outcome& o, std::uint64_t& prev_end, std::uint32_t i) {
    switch (k.kind) {
        case BulkKind::indexes: {
            const std::uint64_t off = c.offset();
            const std::uint32_t v = c.varint();
            if (v > k.limit) fail(Errc::table_index_out_of_range, off, "index");
            o.values[i] = v;
            break;
        }
        case BulkKind::spans: {
            const std::uint64_t tok = c.offset();
            const std::uint32_t gap = c.varint();
            const std::uint64_t len_off = c.offset();
            const std::uint32_t len = c.varint();
            if (len == 0) fail(Errc::tokens_empty, len_off, "empty");
            const std::uint64_t end = prev_end + gap + len;
            if (end > k.text_length) fail(Errc::tokens_out_of_text, tok, "out");
            o.values[2 * i] = static_cast<std::int64_t>(end - len);
            o.values[2 * i + 1] = len;
            prev_end = end;
            break;
        }
        case BulkKind::heads: {
            const std::uint64_t off = c.offset();
            const std::int64_t head = static_cast<std::int64_t>(i) + c.svarint();
            if (head < 0 || head >= static_cast<std::int64_t>(k.count)) fail(Errc::tokens_head_out_of_range, off, "head");
            o.values[i] = head;
            break;
        }
    }
}

// May a fast path stop before item i at `pos`? Only if the item is not one it may take, or the
// end is less than 8 bytes away.
bool may_stop(const BulkCase& k, std::size_t pos, std::uint64_t prev_end, std::uint32_t i) {
    if (k.bytes.size() - pos < 8) return true;
    const auto v = short_at(k.bytes, pos);
    if (!v) return true;
    switch (k.kind) {
        case BulkKind::indexes: return v->value > k.limit;
        case BulkKind::spans: {
            const auto len = short_at(k.bytes, pos + v->size);
            return !len || len->value == 0 || prev_end + v->value + len->value > k.text_length;
        }
        case BulkKind::heads: return i + unzigzag(v->value) >= k.count;  // unsigned: also below 0
    }
    return true;
}

std::size_t values_per_item(const BulkCase& k) { return k.kind == BulkKind::spans ? 2 : 1; }

// The simple path alone; `boundary[i]` is the offset where item i starts.
Outcome simple_path(const BulkCase& k, std::vector<std::uint64_t>& boundary) {
    boundary.assign(k.count + 1, ~std::uint64_t{0});
    return run(k.bytes, k.origin, [&](Cursor& c, Outcome& o) {
        o.values.assign(values_per_item(k) * k.count, -1);
        std::uint64_t prev_end = 0;
        for (std::uint32_t i = 0; i < k.count; ++i) {
            boundary[i] = c.offset();
            simple_item(k, c, o, prev_end, i);
        }
        boundary[k.count] = c.offset();
    });
}

// The fast path of `kernels`, then one item through the cursor, and so on. Without `store` the
// items the fast path took are marked -2. A stop the contract does not allow sets bad_stop.
Outcome fast_path(const BulkCase& k, const VarintKernels& kernels, bool store, const std::vector<std::uint64_t>& boundary) {
    return run(k.bytes, k.origin, [&](Cursor& c, Outcome& o) {
        const std::size_t per = values_per_item(k);
        o.values.assign(per * k.count, -1);
        std::vector<std::uint32_t> a(k.count), b(k.count);
        std::vector<std::int32_t> h(k.count);
        std::uint64_t prev_end = 0;
        for (std::uint32_t i = 0; i < k.count; ++i) {
            const std::uint32_t from = i;
            switch (k.kind) {
                case BulkKind::indexes:
                    i += static_cast<std::uint32_t>(kernels.indexes(c, store ? a.data() + i : nullptr, k.count - i, k.limit));
                    break;
                case BulkKind::spans:
                    i = kernels.spans(c, store ? a.data() : nullptr, store ? b.data() : nullptr, i, k.count, prev_end,
                                      k.text_length);
                    break;
                case BulkKind::heads: i = kernels.heads(c, store ? h.data() : nullptr, i, k.count); break;
            }
            for (std::uint32_t j = from; j < i; ++j) {
                if (!store) {
                    for (std::size_t v = 0; v < per; ++v) o.values[per * j + v] = -2;
                } else if (k.kind == BulkKind::spans) {
                    o.values[2 * j] = a[j], o.values[2 * j + 1] = b[j];
                } else {
                    o.values[j] = k.kind == BulkKind::heads ? std::int64_t{h[j]} : std::int64_t{a[j]};
                }
            }
            if (!o.bad_stop && (c.offset() != boundary[i] || (i < k.count && !may_stop(k, c.offset() - k.origin, prev_end, i))))
                o.bad_stop = c.offset();
            if (i == k.count) break;
            simple_item(k, c, o, prev_end, i);
        }
    });
}

// Every check of the file's header on one case, at `level`.
void check_bulk_case(const BulkCase& k, VarintLevel level, const std::string& what) {
    const VarintKernels* kernels = varint_kernels(level);
    const VarintKernels* scalar = varint_kernels(VarintLevel::scalar);
    ASSERT_TRUE(kernels && scalar);
    std::vector<std::uint64_t> boundary;
    const Outcome simple = simple_path(k, boundary);
    for (bool store : {true, false}) {
        const Outcome fast = fast_path(k, *kernels, store, boundary);
        const Outcome reference = fast_path(k, *scalar, store, boundary);
        Outcome expected = simple;
        if (!store)  // nothing stored: the items the fast path took are marked -2 instead
            for (std::size_t j = 0; j < expected.values.size(); ++j)
                if (fast.values[j] == -2) expected.values[j] = -2;
        ASSERT_EQ(fast, expected) << what << " store " << store << ": " << varint_level_name(level) << " " << show(fast)
                                  << " vs simple " << show(simple);
        // The scalar level may take a different share of the items; all else is the same.
        ASSERT_EQ(fast.error, reference.error) << what;
        ASSERT_EQ(fast.error_offset, reference.error_offset) << what;
        ASSERT_EQ(fast.end_offset, reference.end_offset) << what;
        ASSERT_EQ(reference.bad_stop, std::nullopt) << what << ": scalar";
    }
}

std::string level_param_name(const testing::TestParamInfo<VarintLevel>& info) { return varint_level_name(info.param); }

class VarintBulk : public testing::TestWithParam<VarintLevel> {
protected:
    void SetUp() override {
        if (!varint_kernels(GetParam()))
            GTEST_SKIP() << "level " << varint_level_name(GetParam()) << " is not supported here (this CPU or build has up to "
                         << varint_level_name(varint_level_supported()) << ")";
    }
};

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
        k.text_length = g.below(g.chance(0.2) ? 3000 : 400);
        for (std::uint32_t i = 0; i < 2 * k.count; ++i) g.varint(k.bytes, i % 2 ? 12 : 3);
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

// A run of `count` varints of value `fill` with one odd item (`odd`, written as given) at each
// position in turn, so that it lands on every offset of a 64-byte block and near the end.
void odd_one_at_each_position(BulkKind kind, std::uint32_t count, std::uint32_t fill, const std::vector<std::uint8_t>& odd,
                              std::uint32_t limit, std::uint32_t text_length, VarintLevel level, const char* what) {
    const std::uint32_t per = kind == BulkKind::spans ? 2 : 1;
    for (std::uint32_t at = 0; at < per * count; ++at) {
        BulkCase k;
        k.kind = kind;
        k.count = count;
        k.limit = limit;
        k.text_length = text_length;
        k.origin = 3;
        for (std::uint32_t v = 0; v < per * count; ++v) {
            if (v == at)
                k.bytes.insert(k.bytes.end(), odd.begin(), odd.end());
            else
                put_varint(k.bytes, fill, fill < 128 ? 1 : 2);
        }
        check_bulk_case(k, level, std::string(what) + " at " + std::to_string(at));
        if (testing::Test::HasFatalFailure()) return;
    }
}

TEST_P(VarintBulk, EdgeCases) {
    const VarintLevel level = GetParam();
    using V = std::vector<std::uint8_t>;
    for (BulkKind kind : {BulkKind::indexes, BulkKind::spans, BulkKind::heads}) {
        // fill 1: an index, a gap or length of 1, or head delta -1 (the first token's fails).
        const std::uint32_t fill = kind == BulkKind::heads ? 2 : 1;  // heads: zig-zag 2 is +1 (the last token's fails)
        const std::uint32_t count = 90, limit = 300, text = 1000;
        odd_one_at_each_position(kind, count, fill, V{0x81, 0x80, 0x00}, limit, text, level, "3-byte varint");
        odd_one_at_each_position(kind, count, fill, V{0x80, 0x00}, limit, text, level, "R1 overlong 2-byte 0");
        odd_one_at_each_position(kind, count, fill, V{0x80, 0x80, 0x00}, limit, text, level, "R1 overlong 3-byte 0");
        odd_one_at_each_position(kind, count, fill, V{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, limit, text, level, "5-byte max");
        odd_one_at_each_position(kind, count, fill, V{0xFF, 0xFF, 0xFF, 0xFF, 0x1F}, limit, text, level, "R1 overflow");
        odd_one_at_each_position(kind, count, fill, V{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, limit, text, level, "R1 too long");
        odd_one_at_each_position(kind, count, fill, V{0xAC, 0x02}, limit, text, level, "2-byte 300");
        odd_one_at_each_position(kind, count, fill, V{0xAD, 0x02}, limit, text, level, "2-byte 301");
        odd_one_at_each_position(kind, count, fill, V{0x00}, limit, text, level, "zero");
        odd_one_at_each_position(kind, count, fill, V{0x7F}, limit, text, level, "127");
        odd_one_at_each_position(kind, count, fill, V{0xFF, 0x7F}, limit, text, level, "16383");
        odd_one_at_each_position(kind, count, fill, V{0x80}, limit, text, level, "cut off");
        if (HasFatalFailure()) return;
    }
    // Indexes: limits below 128 (1-byte values checked exactly), at 2-byte values' top high byte
    // (300 = 2 * 128 + 44: values 256-300 pass, 301-383 do not), and where 2 bytes always pass.
    for (std::uint32_t limit : {0u, 1u, 126u, 127u, 128u, 255u, 256u, 300u, 16382u, 16383u, 16384u}) {
        for (std::uint32_t v : {0u, 1u, limit > 0 ? limit - 1 : 0u, limit, limit + 1, 127u, 128u, 255u, 256u, 300u, 301u, 383u, 384u}) {
            V b;
            put_varint(b, v, v < 128 ? 1 : v < 16384 ? 2 : 3);
            odd_one_at_each_position(BulkKind::indexes, 80, limit > 0 ? limit / 2 : 0, b, limit, 0, level,
                                     ("limit " + std::to_string(limit) + " value " + std::to_string(v)).c_str());
            if (HasFatalFailure()) return;
        }
    }
    // Heads: negative zig-zag deltas, to token 0 (allowed) and to -1 (not), and past the end.
    for (std::uint32_t count : {1u, 2u, 7u, 8u, 9u, 40u, 70u}) {
        for (std::uint32_t first = 0; first < 3 && first < count; ++first) {
            for (int pattern = 0; pattern < 4; ++pattern) {
                BulkCase k;
                k.kind = BulkKind::heads;
                k.count = count;
                for (std::uint32_t i = 0; i < count; ++i) {
                    std::int64_t delta = pattern == 0   ? -static_cast<std::int64_t>(i)           // every head is token 0
                                         : pattern == 1 ? static_cast<std::int64_t>(count - 1 - i)  // the last token
                                         : pattern == 2 ? -static_cast<std::int64_t>(i) - (i == count - 1 - first)  // -1 once
                                                        : static_cast<std::int64_t>(count - i) * (i == first ? 1 : 0);  // n once
                    const auto d = static_cast<std::int32_t>(delta);
                    const std::uint32_t u = (static_cast<std::uint32_t>(d) << 1) ^ static_cast<std::uint32_t>(d >> 31);
                    put_varint(k.bytes, u, u < 128 ? 1 : u < 16384 ? 2 : 3);
                }
                check_bulk_case(k, level, "heads n " + std::to_string(count) + " pattern " + std::to_string(pattern));
                if (HasFatalFailure()) return;
            }
        }
    }
    // Spans: empty tokens, and an end exactly at the text's end and one past it.
    for (std::uint32_t n : {4u, 20u, 33u, 64u}) {
        for (std::uint32_t cut = 0; cut <= 2; ++cut) {
            BulkCase k;
            k.kind = BulkKind::spans;
            k.count = n;
            k.text_length = 2 * n - cut;  // gaps 1, lengths 1: token i ends at 2i + 2
            for (std::uint32_t i = 0; i < n; ++i) k.bytes.push_back(1), k.bytes.push_back(i == n / 2 && cut == 2 ? 0 : 1);
            check_bulk_case(k, level, "spans n " + std::to_string(n) + " cut " + std::to_string(cut));
            if (HasFatalFailure()) return;
        }
    }
    // Every length from 0 to 80 bytes of 1-byte and of 2-byte varints, whole and cut off.
    for (BulkKind kind : {BulkKind::indexes, BulkKind::spans, BulkKind::heads}) {
        for (std::uint32_t len = 0; len <= 80; ++len) {
            for (int two = 0; two < 2; ++two) {
                BulkCase k;
                k.kind = kind;
                k.limit = 200;
                k.text_length = 100000;
                for (std::uint32_t b = 0; b < len; ++b) k.bytes.push_back(two ? (b % 2 ? 0x01 : 0x80) : 0x02);
                k.count = (two ? (len + 1) / 2 : len) / (kind == BulkKind::spans ? 2 : 1) + 1;  // one more than there is
                if (kind == BulkKind::heads) k.count = std::max<std::uint32_t>(k.count, 300);
                check_bulk_case(k, level, "length " + std::to_string(len) + " two " + std::to_string(two));
                if (HasFatalFailure()) return;
            }
        }
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
        Doc reference, decoded;
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
            const Tokens &t = decoded.tokens, &u = reference.tokens;
            ASSERT_TRUE(t.start == u.start && t.length == u.length && t.attrs == u.attrs && t.head == u.head && t.sent == u.sent)
                << "round " << round << ": tokens differ from the scalar level's";
        }
    }
}

}  // namespace
}  // namespace ond::detail
