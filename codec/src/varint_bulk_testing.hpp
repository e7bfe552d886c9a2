// What the tests of the varint fast paths (varint_bulk_test.cpp, varint_bulk_edge_test.cpp)
// share: a case of one fast path, the simple path it must agree with, and the checks.
//
// Each fast path is run the way tokens.cpp runs it (fast path, then one item through the
// cursor, and so on) and compared with a loop that reads every item through the cursor alone:
// same values, same final offset, and the same error code at the same offset; and the same as
// the scalar level. Each call must also stop on an item boundary and only where the contract
// lets it: at an item it may not take (a varint of 3 bytes or more, or one the caller's check
// refuses) or less than 8 bytes before the end. The tests are TEST_Ps of the fixture VarintBulk,
// run at every level (varint_level.hpp); a level this build or CPU lacks is skipped, by name.
#pragma once


#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ond/internal/sections.hpp"
#include "varint_bulk.hpp"
#include "ond/internal/varint_level.hpp"

namespace ond::detail::bulk_testing {

struct Outcome {
    std::vector<std::int64_t> values;
    std::uint64_t end_offset = 0;
    std::optional<Errc> error;
    std::uint64_t error_offset = 0;
    std::optional<std::uint64_t> bad_stop;  // where a fast path stopped against its contract

    bool operator==(const Outcome&) const = default;
};

inline std::string show(const Outcome& o) {
    std::string s = std::to_string(o.values.size()) + " values, end " + std::to_string(o.end_offset);
    if (o.error) s += ", error " + std::string(error_info(*o.error).code) + " at " + std::to_string(o.error_offset);
    if (o.bad_stop) s += ", a fast path stopped against its contract at " + std::to_string(*o.bad_stop);
    return s;
}

inline Bytes as(const std::vector<std::uint8_t>& v) { return as_bytes(v.data(), v.size()); }

// Writes a varint of `value` in exactly `size` bytes (overlong when more than needed); sizes past
// 5 bytes or values past what `size` bytes hold produce the invalid forms the reader must refuse.
inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value, int size) {
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
inline std::optional<ShortVarint> short_at(const std::vector<std::uint8_t>& b, std::size_t pos) {
    if (pos < b.size() && b[pos] < 0x80) return ShortVarint{b[pos], 1};
    if (pos + 1 < b.size() && b[pos + 1] < 0x80) return ShortVarint{(b[pos] & 0x7Fu) | (std::uint32_t{b[pos + 1]} << 7), 2};
    return std::nullopt;
}

inline std::uint32_t unzigzag(std::uint32_t u) { return (u >> 1) ^ (0u - (u & 1)); }  // R2, as 32-bit two's complement

template <class F>
inline Outcome run(const std::vector<std::uint8_t>& bytes, std::uint64_t origin, F&& body) {
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
inline void simple_item(const BulkCase& k, Cursor& c, Outcome& o, std::uint64_t& prev_end, std::uint32_t i) {
    switch (k.kind) {
        case BulkKind::indexes: {
            const std::uint64_t off = c.offset();
            const std::uint32_t v = c.varint();
            if (v > k.limit) return void(fail(Errc::table_index_out_of_range, off, "index"));
            o.values[i] = v;
            break;
        }
        case BulkKind::spans: {
            const std::uint64_t tok = c.offset();
            const std::uint32_t gap = c.varint();
            const std::uint64_t len_off = c.offset();
            const std::uint32_t len = c.varint();
            if (len == 0) return void(fail(Errc::tokens_empty, len_off, "empty"));
            const std::uint64_t end = prev_end + gap + len;
            if (end > k.text_length) return void(fail(Errc::tokens_out_of_text, tok, "out"));
            o.values[2 * i] = static_cast<std::int64_t>(end - len);
            o.values[2 * i + 1] = len;
            prev_end = end;
            break;
        }
        case BulkKind::heads: {
            const std::uint64_t off = c.offset();
            const std::int64_t head = static_cast<std::int64_t>(i) + c.svarint();
            if (head < 0 || head >= static_cast<std::int64_t>(k.count)) return void(fail(Errc::tokens_head_out_of_range, off, "head"));
            o.values[i] = head;
            break;
        }
    }
}

// May a fast path stop before item i at `pos`? Only if the item is not one it may take, or the
// end is less than 8 bytes away.
inline bool may_stop(const BulkCase& k, std::size_t pos, std::uint64_t prev_end, std::uint32_t i) {
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

inline std::size_t values_per_item(const BulkCase& k) { return k.kind == BulkKind::spans ? 2 : 1; }

// The simple path alone; `boundary[i]` is the offset where item i starts.
inline Outcome simple_path(const BulkCase& k, std::vector<std::uint64_t>& boundary) {
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
inline Outcome fast_path(const BulkCase& k, const VarintKernels& kernels, bool store, const std::vector<std::uint64_t>& boundary) {
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

// Every check of this header's comment on one case, at `level`.
inline void check_bulk_case(const BulkCase& k, VarintLevel level, const std::string& what) {
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

inline std::string level_param_name(const testing::TestParamInfo<VarintLevel>& info) { return varint_level_name(info.param); }

class VarintBulk : public testing::TestWithParam<VarintLevel> {
protected:
    void SetUp() override {
        if (!varint_kernels(GetParam()))
            GTEST_SKIP() << "level " << varint_level_name(GetParam()) << " is not supported here (this CPU or build has up to "
                         << varint_level_name(varint_level_supported()) << ")";
    }
};

}  // namespace ond::detail::bulk_testing
