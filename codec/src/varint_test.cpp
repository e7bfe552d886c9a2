// Cursor primitives: varints (R1), signed varints (R2), fixed-width fields, child cursors.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "ond/internal/cursor.hpp"
#include "test_support.hpp"

namespace ond::detail {
namespace {

using test::B;
using test::catch_error;

std::uint32_t read_varint(const B& b, std::size_t* consumed = nullptr) {
    Cursor c(b.bytes());
    const std::uint32_t v = c.varint();
    if (consumed) *consumed = b.size() - c.remaining();
    return v;
}

void expect_varint_error(const B& b, std::uint64_t origin, const char* code, std::uint64_t offset) {
    Cursor c(b.bytes(), origin);
    auto got = catch_error([&] { (void)c.varint(); });
    ASSERT_TRUE(got) << "accepted";
    EXPECT_EQ(got->code, code);
    EXPECT_EQ(got->offset, offset);
}

TEST(Varint, R1_OneByteValues) {
    std::size_t used = 0;
    EXPECT_EQ(read_varint(B{0x00}, &used), 0u);
    EXPECT_EQ(used, 1u);
    EXPECT_EQ(read_varint(B{0x7F}, &used), 127u);
    EXPECT_EQ(used, 1u);
}

TEST(Varint, R1_MultiByteLowBitsFirst) {
    std::size_t used = 0;
    EXPECT_EQ(read_varint(B{0x80, 0x01}, &used), 128u);
    EXPECT_EQ(used, 2u);
    EXPECT_EQ(read_varint(B{0xAC, 0x02}, &used), 300u);
    EXPECT_EQ(used, 2u);
    EXPECT_EQ(read_varint(B{0xFF, 0xFF, 0x03}, &used), 65535u);
    EXPECT_EQ(used, 3u);
    EXPECT_EQ(read_varint(B{0x80, 0x80, 0x80, 0x80, 0x01}, &used), 1u << 28);
    EXPECT_EQ(used, 5u);
}

TEST(Varint, R1_MaximumFiveByteValue) {
    std::size_t used = 0;
    EXPECT_EQ(read_varint(B{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, &used), 0xFFFFFFFFu);
    EXPECT_EQ(used, 5u);
}

TEST(Varint, R1_StopsAtTerminatingByte) {
    B b{0x81, 0x01, 0x7F};
    Cursor c(b.bytes());
    EXPECT_EQ(c.varint(), 129u);
    EXPECT_EQ(c.offset(), 2u);
    EXPECT_EQ(c.varint(), 127u);
    EXPECT_TRUE(c.empty());
}

TEST(Varint, R1_OverlongWithinFiveBytesIsAccepted) {
    // Valid, non-canonical: only longer or larger forms are rejected.
    std::size_t used = 0;
    EXPECT_EQ(read_varint(B{0x80, 0x00}, &used), 0u);
    EXPECT_EQ(used, 2u);
    EXPECT_EQ(read_varint(B{0x80, 0x80, 0x80, 0x80, 0x00}, &used), 0u);
    EXPECT_EQ(used, 5u);
    EXPECT_EQ(read_varint(B{0x85, 0x80, 0x00}, &used), 5u);
    EXPECT_EQ(used, 3u);
}

TEST(Varint, R1_FifthByteContinuationIsTooLong) {
    expect_varint_error(B{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, "varint.too-long", 0);
    // Even when the 5th byte's value bits would fit.
    expect_varint_error(B{0xFF, 0xFF, 0xFF, 0xFF, 0x81}, 0, "varint.too-long", 0);
}

TEST(Varint, R1_FifthByteValueAbove0x0FOverflows) {
    expect_varint_error(B{0xFF, 0xFF, 0xFF, 0xFF, 0x10}, 0, "varint.overflow", 0);
    expect_varint_error(B{0x80, 0x80, 0x80, 0x80, 0x7F}, 0, "varint.overflow", 0);
}

// A 5th byte that breaks both rules (continuation bit set, value bits above 0x0F): the
// continuation bit is checked first, so it is varint.too-long, at the varint's first byte
// (docs/reading-rules.md, "Error offsets").
TEST(Varint, R1_FifthByteBreakingBothRulesIsTooLong) {
    for (unsigned fifth = 0x90; fifth <= 0xFF; ++fifth)
        expect_varint_error(B{0xFF, 0xFF, 0xFF, 0xFF, static_cast<std::uint8_t>(fifth)}, 0, "varint.too-long", 0);
    // Behind two bytes of a cursor whose data starts at absolute offset 700: the offset is the
    // varint's first byte, 702, not the 5th byte's.
    B b{0x01, 0x02, 0x80, 0x80, 0x80, 0x80, 0xF0};
    Cursor c(b.bytes(), 700);
    EXPECT_EQ(c.u8(), 1u);
    EXPECT_EQ(c.u8(), 2u);
    auto got = catch_error([&] { (void)c.varint(); });
    ASSERT_TRUE(got) << "accepted";
    EXPECT_EQ(got->code, "varint.too-long");
    EXPECT_EQ(got->offset, 702u);
}

TEST(Varint, R1_TruncatedAtFirstByteOffset) {
    expect_varint_error(B{0x80}, 0, "varint.truncated", 0);
    expect_varint_error(B{0xFF, 0xFF, 0xFF, 0xFF}, 0, "varint.truncated", 0);
    expect_varint_error(B{}, 0, "varint.truncated", 0);
}

TEST(Varint, R1_ErrorOffsetIsAbsolute) {
    // A varint after two bytes in a cursor whose data starts at absolute offset 1000.
    B b{0x01, 0x02, 0x80, 0x80};
    Cursor c(b.bytes(), 1000);
    EXPECT_EQ(c.u8(), 1u);
    EXPECT_EQ(c.u8(), 2u);
    auto got = catch_error([&] { (void)c.varint(); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "varint.truncated");
    EXPECT_EQ(got->offset, 1002u);

    B t{0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x20};
    Cursor c2(t.bytes(), 7);
    EXPECT_EQ(c2.varint(), 0u);
    got = catch_error([&] { (void)c2.varint(); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "varint.overflow");
    EXPECT_EQ(got->offset, 8u);
}

TEST(Varint, R1_TruncatedAtChildCursorEnd) {
    // The parent has the varint's last byte, but the child cursor ends before it.
    B b{0x05, 0x80, 0x01};
    Cursor parent(b.bytes());
    Cursor child = parent.sub(2);
    EXPECT_EQ(child.varint(), 5u);
    auto got = catch_error([&] { (void)child.varint(); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "varint.truncated");
    EXPECT_EQ(got->offset, 1u);
}

TEST(Varint, R1_BuilderWritesMinimalForms) {
    // The test builder is what every other test relies on: check it against the spec.
    EXPECT_EQ(B{}.varint(0).vec(), (std::vector<std::uint8_t>{0x00}));
    EXPECT_EQ(B{}.varint(127).vec(), (std::vector<std::uint8_t>{0x7F}));
    EXPECT_EQ(B{}.varint(128).vec(), (std::vector<std::uint8_t>{0x80, 0x01}));
    EXPECT_EQ(B{}.varint(0xFFFFFFFF).vec(), (std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}));
    for (std::uint32_t v : {0u, 1u, 127u, 128u, 16383u, 16384u, 2097151u, 2097152u, 268435455u, 268435456u, 0xFFFFFFFFu}) {
        EXPECT_EQ(read_varint(B{}.varint(v)), v);
    }
}

TEST(SignedVarint, R2_ZigZagMapping) {
    struct Case {
        std::uint32_t u;
        std::int32_t v;
    };
    for (Case k : {Case{0, 0}, Case{1, -1}, Case{2, 1}, Case{3, -2}, Case{4, 2}, Case{0xFFFFFFFEu, INT32_MAX},
                   Case{0xFFFFFFFFu, INT32_MIN}}) {
        B b;
        b.varint(k.u);
        Cursor c(b.bytes());
        EXPECT_EQ(c.svarint(), k.v) << "u = " << k.u;
        // And the builder's zig-zag is the inverse.
        EXPECT_EQ(B{}.svarint(k.v).vec(), b.vec()) << "v = " << k.v;
    }
}

TEST(SignedVarint, R2_ErrorsAreTheVarintErrors) {
    B b{0xFF, 0xFF, 0xFF, 0xFF, 0x1F};
    Cursor c(b.bytes(), 3);
    auto got = catch_error([&] { (void)c.svarint(); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "varint.overflow");
    EXPECT_EQ(got->offset, 3u);
}

TEST(Cursor, FixedWidthLittleEndian) {
    B b{0xAB, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x80, 0x3F};
    Cursor c(b.bytes());
    EXPECT_EQ(c.u8(), 0xABu);
    EXPECT_EQ(c.u16(), 0x1234u);
    EXPECT_EQ(c.u32(), 0x12345678u);
    EXPECT_EQ(c.f32(), 1.0f);
    EXPECT_TRUE(c.empty());
    EXPECT_EQ(c.offset(), 11u);
}

TEST(Cursor, R3_FloatKeepsBitPattern) {
    // -0.0, a NaN payload and a subnormal come back bit for bit.
    for (std::uint32_t bits : {0x80000000u, 0x7FC00001u, 0x00000001u, 0x3F800000u}) {
        B b;
        b.u32(bits);
        Cursor c(b.bytes());
        EXPECT_EQ(test::float_bits(c.f32()), bits);
    }
}

TEST(Cursor, FieldTruncatedAtFieldStart) {
    struct Case {
        int which;
        std::size_t have;
    };
    for (Case k : {Case{1, 0}, Case{2, 1}, Case{4, 3}, Case{5, 3}}) {
        B b;
        b.u8(0xEE);  // consumed first, so the field starts at absolute 50 + 1
        for (std::size_t i = 0; i < k.have; ++i) b.u8(0);
        Cursor c(b.bytes(), 50);
        (void)c.u8();
        auto got = catch_error([&] {
            switch (k.which) {
                case 1: (void)c.u8(); break;
                case 2: (void)c.u16(); break;
                case 4: (void)c.u32(); break;
                default: (void)c.f32(); break;
            }
        });
        ASSERT_TRUE(got) << k.which;
        EXPECT_EQ(got->code, "field.truncated");
        EXPECT_EQ(got->offset, 51u);
    }
}

TEST(Cursor, BytesAndSubAreBounded) {
    B b{1, 2, 3, 4, 5, 6};
    Cursor c(b.bytes(), 10);
    const std::uint8_t* p = c.bytes(2);
    EXPECT_EQ(p[0], 1);
    EXPECT_EQ(p[1], 2);
    Cursor child = c.sub(3);
    EXPECT_EQ(child.offset(), 12u);
    EXPECT_EQ(child.end_offset(), 15u);
    EXPECT_EQ(child.remaining(), 3u);
    EXPECT_EQ(c.offset(), 15u);  // the parent moved past the child's bytes
    EXPECT_EQ(c.remaining(), 1u);
    EXPECT_EQ(child.u16(), 0x0403u);
    auto got = catch_error([&] { (void)child.u16(); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "field.truncated");
    EXPECT_EQ(got->offset, 14u);
    got = catch_error([&] { (void)c.bytes(2); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "field.truncated");
    EXPECT_EQ(got->offset, 15u);
}

}  // namespace
}  // namespace ond::detail
