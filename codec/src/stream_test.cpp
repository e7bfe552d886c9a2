// StreamReader: back-to-back ONDC containers (R25) and the stream limits (R26).
#include <gtest/gtest.h>

#include <sstream>

#include "alloc_counter.hpp"
#include "test_support.hpp"

// The sizes requested while a test counts (tests/support/alloc_counter.hpp, which replaces the
// global operator new of this binary): the stream reader's memory follows the bytes that arrived,
// not the length a header declares.
using CountAllocations = ond::alloc::RequestScope;

namespace ond {
namespace {

using namespace ond::test;

// A byte source over a vector that hands out at most `chunk` bytes per call.
struct Source {
    std::vector<std::uint8_t> data;
    std::size_t chunk = SIZE_MAX;
    std::size_t pos = 0;
    ReadFn fn() {
        return [this](std::byte* dst, std::size_t max) {
            const std::size_t n = std::min({max, chunk, data.size() - pos});
            if (n) std::memcpy(dst, data.data() + pos, n);
            pos += n;
            return n;
        };
    }
};

std::vector<std::uint8_t> doc_a() { return HelloOndc().c.build(); }
std::vector<std::uint8_t> doc_b() {
    HelloOndc h({"PER"});
    h.c.add(4, entities_content({{1, 1, 1, 0.5f}}));
    return h.c.build(true);
}
std::vector<std::uint8_t> doc_c() {
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content(""));
    c.add(3, tokens_content({}));
    return c.build();
}

std::vector<std::uint8_t> concat(std::initializer_list<std::vector<std::uint8_t>> parts) {
    std::vector<std::uint8_t> out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

// Reads a whole stream; returns the containers read and the error (if any).
struct Outcome {
    std::vector<Container> got;
    std::optional<Caught> error;
    std::uint64_t read = 0;
};
Outcome read_all(const std::vector<std::uint8_t>& bytes, std::size_t chunk = SIZE_MAX, bool skip = false) {
    Source src{bytes, chunk};
    StreamReader r(src.fn());
    Outcome o;
    o.error = catch_error([&] {
        if (skip) {
            while (r.skip_next()) o.got.emplace_back();
        } else {
            while (auto c = r.next()) o.got.push_back(std::move(*c));
        }
    });
    o.read = r.containers_read();
    return o;
}

TEST(Stream, R25_EmptyInputIsZeroContainers) {
    Outcome o = read_all({});
    EXPECT_FALSE(o.error);
    EXPECT_TRUE(o.got.empty());
    EXPECT_EQ(o.read, 0u);
}

TEST(Stream, R25_BackToBackContainers) {
    const auto a = doc_a(), b = doc_b(), c = doc_c();
    const auto stream = concat({a, b, c});
    Source src{stream};
    StreamReader r(src.fn());
    const std::vector<std::uint8_t>* parts[] = {&a, &b, &c};
    std::uint64_t at = 0;
    for (const auto* p : parts) {
        auto got = r.next();
        ASSERT_TRUE(got);
        EXPECT_TRUE(same_content(*got, decode(view(*p))));
        at += p->size();
        EXPECT_EQ(r.offset(), at);
    }
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.containers_read(), 3u);
    EXPECT_FALSE(r.next());  // stays at the end
}

TEST(Stream, R25_AnyReadSizeGivesTheSameResult) {
    const auto stream = concat({doc_b(), doc_a(), doc_b()});
    for (std::size_t chunk : {1u, 2u, 3u, 5u, 11u, 12u, 13u, 64u, 4096u}) {
        Outcome o = read_all(stream, chunk);
        EXPECT_FALSE(o.error) << chunk;
        ASSERT_EQ(o.got.size(), 3u) << chunk;
        EXPECT_TRUE(same_content(o.got[0], decode(view(doc_b()))));
        EXPECT_TRUE(same_content(o.got[1], decode(view(doc_a()))));
    }
}

TEST(Stream, R25_CutAtEverySize) {
    const auto a = doc_a(), b = doc_b();
    const auto stream = concat({a, b});
    for (std::size_t n = 0; n <= stream.size(); ++n) {
        std::vector<std::uint8_t> cut(stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(n));
        const std::size_t whole = n >= a.size() + b.size() ? 2 : n >= a.size() ? 1 : 0;
        const bool boundary = n == 0 || n == a.size() || n == stream.size();
        for (bool skip : {false, true})
            for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, SIZE_MAX}) {
                Outcome o = read_all(cut, chunk, skip);
                EXPECT_EQ(o.got.size(), whole) << n;
                EXPECT_EQ(o.read, whole) << n;
                if (boundary) {
                    EXPECT_FALSE(o.error) << n;
                } else {
                    ASSERT_TRUE(o.error) << n;
                    EXPECT_EQ(o.error->code, "stream.truncated") << n;
                    EXPECT_EQ(o.error->offset, n) << n;
                }
            }
    }
}

TEST(Stream, R25_ErrorOffsetsCountFromTheStreamStart) {
    const auto a = doc_a();
    HelloOndc h;
    auto bad = h.c.build();
    bad[h.tokens_at + h.tok.head[1]] = 2;  // zig-zag 2 = +1: head one past the end
    Outcome o = read_all(concat({a, bad}));
    ASSERT_EQ(o.got.size(), 1u);
    ASSERT_TRUE(o.error);
    EXPECT_EQ(o.error->code, "tokens.head-out-of-range");
    EXPECT_EQ(o.error->offset, a.size() + h.tokens_at + h.tok.head[1]);
}

TEST(Stream, R25_ContainerCountsOnlyOnceItsCrcIsChecked) {
    const auto a = doc_a();
    auto b = doc_b();
    b.back() ^= 1;
    for (bool skip : {false, true}) {
        Outcome o = read_all(concat({a, b, a}), SIZE_MAX, skip);
        EXPECT_EQ(o.got.size(), 1u);
        EXPECT_EQ(o.read, 1u);
        ASSERT_TRUE(o.error);
        EXPECT_EQ(o.error->code, "crc.mismatch");
        EXPECT_EQ(o.error->offset, a.size() + b.size() - 4);
    }
}

TEST(Stream, R25_BinInAStreamIsRejected) {
    Ctr bin("ONDB");
    bin.add(1, strings_content({}));
    bin.add(5, B{}.u32(0));
    const auto a = doc_a();
    Outcome o = read_all(concat({a, bin.build()}));
    ASSERT_EQ(o.got.size(), 1u);
    ASSERT_TRUE(o.error);
    EXPECT_EQ(o.error->code, "stream.bin-in-stream");
    EXPECT_EQ(o.error->offset, a.size());
}

TEST(Stream, R6_HeaderFaultsAtStreamOffsets) {
    const auto a = doc_a();
    auto b = doc_a();
    b[5] = 1;  // version 0x0101
    Outcome o = read_all(concat({a, b}));
    ASSERT_TRUE(o.error);
    EXPECT_EQ(o.error->code, "header.bad-version");
    EXPECT_EQ(o.error->offset, a.size() + 4);
    auto m = doc_a();
    m[0] = 'X';
    o = read_all(concat({a, m}));
    ASSERT_TRUE(o.error);
    EXPECT_EQ(o.error->code, "header.bad-magic");
    EXPECT_EQ(o.error->offset, a.size());
}

TEST(Stream, R25_ReaderIsFinishedAfterAnError) {
    auto bad = doc_a();
    bad[6] = 4;  // flags
    const auto stream = concat({bad, doc_a()});
    Source src{stream};
    StreamReader r(src.fn());
    auto got = catch_error([&] { (void)r.next(); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, "header.bad-flags");
    EXPECT_EQ(got->offset, 6u);
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.containers_read(), 0u);
}

TEST(Stream, R26_DeclaredLengthAboveOneGib) {
    const auto a = doc_a();
    for (std::uint32_t len : {(1u << 30) + 1, 0xFFFFFFFFu}) {
        B h;
        h.raw("ONDC").u16(1).u16(0).u32(len).raw(std::string(100, '\0'));
        Outcome o = read_all(concat({a, h.vec()}));
        ASSERT_EQ(o.got.size(), 1u);
        ASSERT_TRUE(o.error);
        EXPECT_EQ(o.error->code, "stream.length-too-large");
        EXPECT_EQ(o.error->offset, a.size() + 8);
    }
}

TEST(Stream, CountingAllocatorSeesAllocations) {
    // The memory tests below are only meaningful if the counter sees the reader's buffers.
    CountAllocations count;
    std::vector<std::byte> v;
    v.resize(3 * stream_read_step);
    EXPECT_GE(count.largest(), 3 * stream_read_step);
    EXPECT_GE(count.total(), 3 * stream_read_step);
}

TEST(Stream, R26_OneGibDeclaredTenBytesSentAllocatesLittle) {
    // Exactly 1 GiB is allowed, so the reader starts reading: it must fail when the input
    // ends, having allocated in proportion to the 10 bytes that came, not 1 GiB.
    B h;
    h.raw("ONDC").u16(1).u16(0).u32(1u << 30).raw(std::string(10, 'x'));
    Source src{h.vec()};
    StreamReader r(src.fn());
    std::optional<Caught> err;
    std::size_t total = 0, largest = 0;
    {
        CountAllocations count;
        err = catch_error([&] { (void)r.next(); });
        total = count.total();
        largest = count.largest();
    }
    ASSERT_TRUE(err);
    EXPECT_EQ(err->code, "stream.truncated");
    EXPECT_EQ(err->offset, 22u);
    EXPECT_GE(largest, 10u);  // the reader did allocate for what came
    EXPECT_LE(largest, 2 * stream_read_step) << "largest single allocation";
    EXPECT_LE(total, 4 * stream_read_step) << "bytes allocated in all";
}

TEST(Stream, R26_MemoryFollowsTheBytesThatArrived) {
    // 5 MiB arrive of a declared 1 GiB body: memory stays a small multiple of 5 MiB.
    const std::size_t sent = 5 * stream_read_step;
    B h;
    h.raw("ONDC").u16(1).u16(0).u32(1u << 30);
    h.vec().resize(12 + sent, 0);
    Source src{std::move(h.vec()), 64 * 1024};
    StreamReader r(src.fn());
    std::optional<Caught> err;
    std::size_t total = 0, largest = 0;
    {
        CountAllocations count;
        err = catch_error([&] { (void)r.next(); });
        total = count.total();
        largest = count.largest();
    }
    ASSERT_TRUE(err);
    EXPECT_EQ(err->code, "stream.truncated");
    EXPECT_EQ(err->offset, 12 + sent);
    EXPECT_LE(largest, 2 * sent + stream_read_step);
    EXPECT_LE(total, 4 * sent + 2 * stream_read_step);
}

TEST(Stream, R26_LargeValidContainerAcrossManyReadSteps) {
    // A 3 MiB text crosses several 1 MiB steps and still decodes exactly.
    std::string text(3 * stream_read_step + 5, 'a');
    Ctr c;
    c.add(1, strings_content({}));
    c.add(2, text_content(text));
    c.add(3, tokens_content({{0, static_cast<std::uint32_t>(text.size())}}));
    const auto bytes = concat({c.build(true), doc_a()});
    Outcome o = read_all(bytes, 100'000);
    EXPECT_FALSE(o.error);
    ASSERT_EQ(o.got.size(), 2u);
    EXPECT_EQ(o.got[0].docs[0].text, text);
    EXPECT_TRUE(o.got[0].crc);
}

TEST(Stream, FromAnIstream) {
    const auto stream = concat({doc_a(), doc_b()});
    std::istringstream in(std::string(reinterpret_cast<const char*>(stream.data()), stream.size()));
    StreamReader r(in);
    auto a = r.next();
    auto b = r.next();
    ASSERT_TRUE(a && b);
    EXPECT_TRUE(same_content(*b, decode(view(doc_b()))));
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.offset(), stream.size());
}

TEST(Stream, FromBytesInMemoryAndFromBytesItKeeps) {
    const auto stream = concat({doc_a(), doc_b()});
    StreamReader viewing(view(stream));
    std::vector<std::byte> copy(stream.size());
    std::memcpy(copy.data(), stream.data(), stream.size());
    StreamReader keeping(std::move(copy));  // the reader owns the bytes now
    for (StreamReader* r : {&viewing, &keeping}) {
        auto a = r->next();
        auto b = r->next();
        ASSERT_TRUE(a && b);
        EXPECT_TRUE(same_content(*a, decode(view(doc_a()))));
        EXPECT_TRUE(same_content(*b, decode(view(doc_b()))));
        EXPECT_FALSE(r->next());
        EXPECT_EQ(r->offset(), stream.size());
    }
    // A fault is at the same stream offset as through any other source.
    auto cut = concat({doc_a(), doc_b()});
    cut.resize(cut.size() - 1);
    StreamReader r(view(cut));
    EXPECT_TRUE(r.next());
    const auto e = catch_error([&] { (void)r.next(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code, "stream.truncated");
    EXPECT_EQ(e->offset, read_all(cut).error->offset);
}

TEST(Stream, SkipNextChecksLikeNext) {
    auto bad = doc_b();
    const std::size_t conf = bad.size() - 4 - 4;  // the entity's confidence, just before the trailer
    bad[conf + 3] = 0x7F;  // a huge positive float (> 1)
    for (bool skip : {false, true}) {
        Outcome o = read_all(concat({doc_a(), bad}), SIZE_MAX, skip);
        ASSERT_TRUE(o.error);
        EXPECT_EQ(o.error->code, "entities.confidence-out-of-range");
        EXPECT_EQ(o.error->offset, doc_a().size() + conf);
        EXPECT_EQ(o.read, 1u);
    }
}

// A stream cut after a fault: next(), which holds the container whole before it checks it, says
// stream.truncated; skip_next() meets the fault first (it came whole) and reports it with the
// offset next() gives for it once the container is all there.
TEST(Stream, SkipNextReportsAFaultThatCameBeforeTheCut) {
    auto bad = doc_b();
    const std::size_t conf = bad.size() - 4 - 4;  // the entity's confidence, just before the trailer
    bad[conf + 3] = 0x7F;
    const auto whole = concat({doc_a(), bad});
    const std::vector<std::uint8_t> cut(whole.begin(), whole.end() - 2);  // into the trailer
    for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, SIZE_MAX}) {
        Outcome o = read_all(cut, chunk, false);
        ASSERT_TRUE(o.error);
        EXPECT_EQ(o.error->code, "stream.truncated");
        EXPECT_EQ(o.error->offset, cut.size());
        o = read_all(cut, chunk, true);
        ASSERT_TRUE(o.error);
        EXPECT_EQ(o.error->code, "entities.confidence-out-of-range");
        EXPECT_EQ(o.error->offset, doc_a().size() + conf);
        EXPECT_EQ(o.read, 1u);
    }
}

// One container as it arrives (validate_arriving): validate()'s verdict for a sound size, the
// fault first for a container cut after it, and the end of the input where it is met.
TEST(Stream, ValidateArrivingChecksOneContainerAsItComes) {
    auto bad = doc_b();
    const std::size_t conf = bad.size() - 4 - 4;
    bad[conf + 3] = 0x7F;
    const auto arriving = [](const std::vector<std::uint8_t>& bytes, std::size_t chunk) {
        Source src{bytes, chunk};
        return catch_error([&] { (void)validate_arriving(src.fn()); });
    };
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, SIZE_MAX}) {
        EXPECT_FALSE(arriving(doc_b(), chunk)) << chunk;
        auto e = arriving(bad, chunk);
        ASSERT_TRUE(e);
        EXPECT_EQ(e->code, "entities.confidence-out-of-range");
        EXPECT_EQ(e->offset, conf);
        e = arriving(std::vector<std::uint8_t>(bad.begin(), bad.end() - 1), chunk);  // validate() says container.truncated
        ASSERT_TRUE(e);
        EXPECT_EQ(e->code, "entities.confidence-out-of-range");
        const auto good = doc_b();
        e = arriving(std::vector<std::uint8_t>(good.begin(), good.end() - 1), chunk);
        ASSERT_TRUE(e);
        EXPECT_EQ(e->code, "container.truncated");
        EXPECT_EQ(e->offset, good.size() - 1);
        e = arriving(concat({good, {0}}), chunk);
        ASSERT_TRUE(e);
        EXPECT_EQ(e->code, "container.trailing-bytes");
        EXPECT_EQ(e->offset, good.size());
        e = arriving({'O', 'N', 'D'}, chunk);
        ASSERT_TRUE(e);
        EXPECT_EQ(e->code, "header.truncated");
        EXPECT_EQ(e->offset, 3u);
    }
    // An ONDB arrives too: validate()'s verdict.
    Ctr bin("ONDB");
    bin.add(1, strings_content({}));
    bin.add(5, B{}.u32(0));
    const auto b = bin.build();
    EXPECT_FALSE(arriving(b, 2));
    EXPECT_FALSE(catch_error([&] { (void)validate(view(b)); }));
}

// A header declaring 64 MiB, then zeros: validate-only reports the first fault (a repeated
// section 0 at byte 17) as soon as its bytes have come, having read no further than that fault
// and held no more than a read step.
TEST(Stream, SkipNextHoldsLittleWhileTheDeclaredBodyArrives) {
    std::uint64_t served = 0;
    const std::vector<std::uint8_t> header = B().raw("ONDC").u16(1).u16(0).u32(64u << 20).vec();
    StreamReader r([&](std::byte* dst, std::size_t max) -> std::size_t {
        if (served >= (std::uint64_t{1} << 30)) return 0;
        const std::size_t n = std::min<std::size_t>(max, 65536);
        std::memset(dst, 0, n);
        for (std::size_t k = 0; served + k < header.size() && k < n; ++k) dst[k] = static_cast<std::byte>(header[served + k]);
        served += n;
        return n;
    });
    std::optional<Caught> err;
    std::size_t largest = 0, total = 0;
    StreamReader::Skipped checked;
    {
        CountAllocations count;
        err = catch_error([&] { (void)r.skip_next(checked); });
        largest = count.largest();
        total = count.total();
    }
    ASSERT_TRUE(err);
    EXPECT_EQ(err->code, "section.out-of-order");
    EXPECT_EQ(err->offset, 17u);
    EXPECT_EQ(served, 22u);  // the header and two section frames
    EXPECT_LE(largest, 2 * stream_read_step);
    EXPECT_LE(total, 4 * stream_read_step);
}

// What skip_next tells of each container: its tokens and whether it has a CRC.
TEST(Stream, SkipNextTellsTokensAndCrc) {
    const auto a = doc_a(), b = doc_b();
    Source src{concat({a, b})};
    StreamReader r(src.fn());
    for (const auto* p : {&a, &b}) {
        StreamReader::Skipped checked;
        ASSERT_TRUE(r.skip_next(checked));
        const Container c = decode(view(*p));
        std::uint64_t tokens = 0;
        for (const auto d : c.docs) tokens += d.tokens.size();
        EXPECT_EQ(checked.tokens, tokens);
        EXPECT_EQ(checked.crc, c.crc);
    }
    StreamReader::Skipped end;
    EXPECT_FALSE(r.skip_next(end));
}

}  // namespace
}  // namespace ond
