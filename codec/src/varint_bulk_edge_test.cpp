// Hand-made edge cases for the varint fast paths at every level (checks in
// varint_bulk_testing.hpp): varints of 3 bytes or more, R1's overlong and invalid forms and cut
// off ones at every offset of a block, index limits around each threshold, heads below 0 and
// past the end (R2, R19), empty spans and ends at and past the text (R18), and every length of
// input up to 80 bytes.
#include "varint_bulk_testing.hpp"

namespace ond::detail::bulk_testing {
namespace {

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

}  // namespace
}  // namespace ond::detail::bulk_testing
