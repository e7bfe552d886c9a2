// Property-based tests (issue 6), RapidCheck through its GoogleTest integration. Each TEST is a
// property run on many generated cases; on failure RapidCheck prints the seed and the shrunk
// counter-example (content printed by describe(), damaged bytes in hex). CTest fixes the seed
// and the case count through RC_PARAMS (see CMakeLists.txt and README.md).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "alloc_counter.hpp"
#include "fuzz_support.hpp"
#include "generators.hpp"
#include "readers.hpp"

namespace {

using namespace ond;
using namespace ond::prop;
using ond::fuzz::capture;
using ond::fuzz::Outcome;

struct ThrowingChecks : ::testing::Environment {
    void SetUp() override { ond::fuzz::set_property_failures_throw(true); }
};
const auto* const env = ::testing::AddGlobalTestEnvironment(new ThrowingChecks);

Bytes view(const std::vector<std::byte>& b) { return Bytes(b.data(), b.size()); }

// A valid encoding and a second one to splice from.
std::pair<std::vector<std::byte>, std::vector<std::byte>> two_encodings() {
    const Container a = to_container(*gen_content());
    const Container b = to_container(*gen_content());
    return {encode(a), encode(b)};
}

// Valid bytes, or valid bytes with targeted damage, or arbitrary bytes.
std::vector<std::byte> some_input() {
    switch (*full_range(0, 4)) {
        case 0: return encode(to_container(*gen_content()));
        case 1: return *rc::gen::container<std::vector<std::byte>>(rc::gen::map(rc::gen::arbitrary<std::uint8_t>(), [](std::uint8_t x) { return std::byte{x}; }));
        default: {
            auto [a, b] = two_encodings();
            return (*gen_damaged(a, b)).bytes;
        }
    }
}

}  // namespace

// decode(encode(x)) == x, for ONDC and ONDB, with and without CRC.
RC_GTEST_PROP(RoundTrip, DecodeOfEncodeIsIdentityOndcOndbCrc, (const ContentSpec& spec)) {
    const Container c = to_container(spec);
    RC_TAG(spec.ondb ? "ONDB" : "ONDC", spec.crc ? "crc" : "no crc");
    const std::vector<std::byte> bytes = encode(c);
    const Container back = decode(view(bytes));
    RC_ASSERT(same_content(c, back));
}

// The builder, fed what the views read from any valid content (each token by its byte span,
// then its fields; entities, categories and span groups by their strings), builds the same
// documents, and the same bytes when it could build them all. A document with a token inside a
// surrogate pair has no byte span to give for it, and is left out.
RC_GTEST_PROP(Builder, RebuildsAnyContentFromWhatTheViewsRead, (const ContentSpec& spec)) {
    const Container want = to_container(spec);
    Container got;
    got.format = want.format;
    got.crc = want.crc;
    std::vector<std::size_t> built;  // want's index of each doc in got
    for (std::size_t d = 0; d < want.docs.size(); ++d) {
        const DocView doc = want.doc(d);
        bool exact = true;
        for (TokenView tok : doc.tokens()) exact = exact && tok.exact_text().has_value();
        if (!exact) continue;
        DocBuilder b(got, doc.text());
        for (TokenView tok : doc.tokens()) {
            const std::string_view text = *tok.exact_text();
            TokenBuilder t = b.token_at(static_cast<std::size_t>(text.data() - doc.text().data()), text.size());
            for (std::size_t c = 0; c < token_column_count; ++c) t.attr(TokenColumn(c), tok.attr(TokenColumn(c)));
            t.head(tok.head_index()).sent(tok.sent()).conf(tok.conf());
        }
        if (doc.has_ents()) b.entities_annotated();
        for (EntityView e : doc.ents()) b.entity(e.first_token(), e.size(), e.label(), e.conf());
        if (doc.has_cats()) b.categories_annotated();
        for (CategoryView c : doc.cats()) b.category(c.label, c.score);
        for (std::size_t g = 0; g < doc.span_group_count(); ++g) {
            const SpanGroupView group = doc.span_group(g);
            b.span_group(group.name());
            for (SpanView sp : group.spans()) b.span(group.name(), sp.first_token(), sp.size(), sp.label(), sp.conf());
        }
        built.push_back(d);
    }
    RC_TAG(built.size() == want.docs.size() ? "every doc built" : "some doc has a token inside a pair");
    for (std::size_t k = 0; k < built.size(); ++k)
        RC_ASSERT(same_doc(got.docs[k], got.strings, want.docs[built[k]], want.strings));
    if (built.size() == want.docs.size()) RC_ASSERT(encode(got) == encode(want));
}

// encode(decode(b)) == b for every b the writer produced.
RC_GTEST_PROP(Canonical, WriterOutputReencodesToItself, (const ContentSpec& spec)) {
    const std::vector<std::byte> b = encode(to_container(spec));
    RC_ASSERT(encode(decode(view(b))) == b);
    // And an independent encoder written from the rules produces the same bytes.
    RC_ASSERT(ond::fuzz::raw_encode(to_container(spec)) == b);
}

// For any accepted b, encode(decode(b)) is a fixed point (damaged inputs that are still accepted
// are the interesting ones: overlong varints, unknown sections, UTF-16 strings, duplicates...).
RC_GTEST_PROP(Canonical, AcceptedInputReachesFixedPointInOneStep, ()) {
    const std::vector<std::byte> input = some_input();
    Container c;
    const Outcome d = capture([&] { c = decode(view(input)); });
    RC_PRE(d.ok);
    const std::vector<std::byte> e1 = encode(c);
    const Container c2 = decode(view(e1));
    RC_ASSERT(same_content(c, c2));
    RC_ASSERT(encode(c2) == e1);
}

// Any byte string decodes or raises ond::Error (a reader's code, an offset inside the input);
// any other exception fails the test (and a crash fails it under the sanitizer build).
RC_GTEST_PROP(AnyBytes, DecodeOrTypedErrorOnly, ()) {
    const std::vector<std::byte> input = some_input();
    try {
        (void)decode(view(input));
    } catch (const Error& e) {
        RC_ASSERT(e.verdict() != ErrorVerdict::content);
        RC_ASSERT(e.offset() <= input.size());
    }
}

// With a CRC trailer, every single-bit flip is rejected.
RC_GTEST_PROP(Crc, EverySingleBitFlipIsRejected, ()) {
    // Small content (each case flips every bit of it).
    const ContentSpec spec = *rc::gen::resize(12, gen_content(*rc::gen::arbitrary<bool>(), true));
    const std::vector<std::byte> b = encode(to_container(spec));
    for (std::size_t bit = 0; bit < b.size() * 8; ++bit) {
        std::vector<std::byte> x = b;
        x[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        const Outcome r = capture([&] { (void)decode(view(x)); });
        RC_ASSERT(!r.ok);
    }
}

// With a CRC trailer, every burst of up to 32 bits (first and last bit flipped, any pattern
// between) is rejected, wherever it falls, trailer and header included.
RC_GTEST_PROP(Crc, EveryBurstUpTo32BitsIsRejected, ()) {
    const ContentSpec spec = *gen_content(*rc::gen::arbitrary<bool>(), true);
    const std::vector<std::byte> b = encode(to_container(spec));
    const std::size_t bits = b.size() * 8;
    for (int k = 0; k < 64; ++k) {
        const std::size_t len = *full_range<std::size_t>(1, 33);
        const std::size_t start = *full_range<std::size_t>(0, bits - len + 1);
        std::uint32_t pattern = *rc::gen::arbitrary<std::uint32_t>();
        pattern |= 1u;
        if (len > 1) pattern |= 1u << (len - 1);
        if (len < 32) pattern &= (1u << len) - 1;
        std::vector<std::byte> x = b;
        for (std::size_t i = 0; i < len; ++i)
            if (pattern >> i & 1u) x[(start + i) / 8] ^= static_cast<std::byte>(1u << ((start + i) % 8));
        const Outcome r = capture([&] { (void)decode(view(x)); });
        RC_ASSERT(!r.ok);
    }
}

// decode, validate, inspect, DocBinReader and StreamReader (reads cut at random sizes, next()
// and skip_next()) agree on verdict, error code, offset and content.
RC_GTEST_PROP(Readers, AgreeOnVerdictCodeOffsetAndContent, ()) {
    const std::vector<std::byte> input = some_input();
    const auto cuts = *rc::gen::container<std::vector<std::size_t>>(full_range<std::size_t>(1, 40));
    const auto d = ond::fuzz::check_all_readers(view(input), cuts);
    RC_CLASSIFY(d.outcome.ok, "accepted");
}

// Back-to-back ONDC containers in one stream decode to the same documents as each alone.
RC_GTEST_PROP(Stream, BackToBackSameAsEachAlone, ()) {
    const auto specs = *rc::gen::resize(8, rc::gen::container<std::vector<ContentSpec>>(
                                               rc::gen::mapcat(rc::gen::arbitrary<bool>(), [](bool crc) { return gen_content(false, crc); })));
    const auto cuts = *rc::gen::container<std::vector<std::size_t>>(full_range<std::size_t>(1, 100));
    std::vector<std::byte> stream;
    std::vector<Container> alone;
    for (const ContentSpec& s : specs) {
        const std::vector<std::byte> b = encode(to_container(s));
        stream.insert(stream.end(), b.begin(), b.end());
        alone.push_back(decode(view(b)));
    }
    const auto r = ond::fuzz::read_stream(view(stream), cuts, false);
    RC_ASSERT(r.end.ok);
    RC_ASSERT(r.containers.size() == alone.size());
    for (std::size_t i = 0; i < alone.size(); ++i) RC_ASSERT(same_content(r.containers[i], alone[i]));
}

// The peak heap of a decode is bounded by a small multiple of the input size plus a constant,
// whatever the input, including inputs that declare huge counts or lengths.
RC_GTEST_PROP(Memory, DecodePeakBoundedByInputSize, ()) {
    const std::vector<std::byte> input = *rc::gen::arbitrary<bool>() ? *gen_huge_counts() : some_input();
    constexpr std::size_t factor = 64, constant = 64 * 1024;
    std::size_t peak = 0;
    {
        const std::size_t before = alloc::live_bytes();
        alloc::reset_peak();
        const Outcome r = capture([&] { (void)decode(view(input)); });
        peak = alloc::peak_bytes() - before;
        RC_TAG(r.ok ? "accepted" : "rejected");
        if (r.ok) RC_ASSERT(peak > 0);  // the counter sees the decoder's allocations
    }
    RC_ASSERT(peak <= factor * input.size() + constant);
    {
        const std::size_t before = alloc::live_bytes();
        alloc::reset_peak();
        const Outcome r = capture([&] { (void)validate(view(input)); });
        RC_ASSERT(alloc::peak_bytes() - before <= factor * input.size() + constant);
        (void)r;
    }
}

namespace {

// Makes one field of (valid) content wrong in one of the ways the writer must refuse, or
// leaves it valid. Returns what it did.
std::string break_doc(Container& c, Doc& d) {
    const std::size_t n = d.tokens.size();
    const auto tok = [&] { return *full_range<std::size_t>(0, n); };
    switch (*full_range(0, 18)) {
        case 0: if (n >= 2) { const auto i = 1 + *full_range<std::size_t>(0, n - 1); d.tokens.start[i] = d.tokens.start[i - 1]; return "token overlaps"; } break;
        case 1: if (n) { d.tokens.length[tok()] = 0; return "token empty"; } break;
        case 2: if (n) { d.tokens.length[n - 1] += 1 + d.text_utf16_length(); return "token out of text"; } break;
        case 3: if (n) { d.tokens.head[tok()] = *rc::gen::element<std::int32_t>(-1, static_cast<std::int32_t>(n), std::numeric_limits<std::int32_t>::min()); return "head out of range"; } break;
        case 4: if (n) { d.tokens.sent[tok()] = static_cast<Sentence>(3); return "sentence 3"; } break;
        case 5: if (n) { d.tokens.conf[tok()] = *rc::gen::element<float>(std::numeric_limits<float>::quiet_NaN(), 1.0000001f, -1e-45f, -std::numeric_limits<float>::infinity()); return "token confidence"; } break;
        case 6: if (d.ents.size() >= 2) { d.ents[1].start = d.ents[0].start; return "entities overlap"; } break;
        case 7: if (!d.ents.empty()) { d.ents[0].length = 0; return "entity empty"; } break;
        case 8: if (!d.ents.empty()) { d.ents.back().length += static_cast<std::uint32_t>(n) + 1; return "entity out of range"; } break;
        case 9: if (!d.ents.empty()) { d.ents[0].label = 0; return "entity label empty"; } break;
        case 10: if (!d.ents.empty()) { d.ents[0].conf = std::numeric_limits<float>::quiet_NaN(); return "entity confidence"; } break;
        case 11: if (d.cats.size() >= 1) { d.cats.push_back(d.cats[0]); return "duplicate category"; } break;
        case 12: if (!d.cats.empty()) { d.cats[0].score = *rc::gen::element<float>(std::numeric_limits<float>::quiet_NaN(), 2.0f, -0.5f); return "score out of range"; } break;
        case 13: if (!d.spans.empty()) { d.spans.push_back(SpanGroup{d.spans[0].name, {}}); return "duplicate group"; } break;
        case 14: for (auto& g : d.spans) if (!g.spans.empty()) { g.spans[0].length = *rc::gen::element<std::uint32_t>(0, static_cast<std::uint32_t>(n) + 1); return "span empty or out of range"; } break;
        case 15: if (c.format == Format::ondb) { d.has_cats = true; d.cats.push_back(Category{c.strings.intern("x"), 0.5f}); return "categories in a bin"; } break;
        // A container refuses an id its store lacks, so the store loses the string afterwards.
        case 16: if (n) { d.tokens.attrs[0][0] = c.strings.intern("\x01 dropped from the store"); return "string id outside the store"; } break;
        case 17: if (!d.spans.empty()) { d.spans[0].name = 0; return "group name empty"; } break;
        default: break;
    }
    return "unchanged";
}

std::string break_content(Container& c) {
    if (c.docs.empty()) return "unchanged";
    std::string what;
    c.docs.edit(*full_range<std::size_t>(0, c.docs.size()), [&](Doc& d) { what = break_doc(c, d); });
    if (what == "string id outside the store") {  // the store without its last string
        StringStore kept;
        for (StringId i = 1; i + 1 < c.strings.size(); ++i) kept.append(c.strings.view(i));
        c.strings = std::move(kept);
    }
    return what;
}

}  // namespace

// The writer refuses exactly the content whose canonical bytes a strict reader rejects: the
// independent encoder writes the same content without checks, and the reader must reject those
// bytes exactly when the writer refused; when it accepts, the two encoders agree byte for byte.
RC_GTEST_PROP(Writer, RefusesExactlyWhatTheReaderRejects, (const ContentSpec& spec)) {
    Container c = to_container(spec);
    const std::string what = break_content(c);
    RC_TAG(what);
    std::vector<std::byte> bytes;
    const Outcome w = capture([&] { bytes = encode(c); });
    const std::vector<std::byte> raw = ond::fuzz::raw_encode(c);
    const Outcome r = capture([&] { (void)decode(view(raw)); });
    RC_ASSERT(w.ok == r.ok);
    if (w.ok) {
        RC_ASSERT(bytes == raw);
    } else {
        RC_ASSERT(error_info(w.errc).verdict == ErrorVerdict::content);
    }
}
