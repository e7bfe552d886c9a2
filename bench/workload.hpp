// Deterministic benchmark workloads, built with the codec's content model.
//
// Every workload comes from one pseudo-random stream (splitmix64) seeded with `workload_seed`
// mixed with the workload's letter, so the same build produces the same bytes on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ond/model.hpp"
#include "ond/splitmix64.hpp"

namespace ond::bench {

inline constexpr std::uint64_t workload_seed = 0x4F4E445F42454E43ull;  // "OND_BENC"

enum class Kind : char {
    a = 'a',  // ONDB, 1,000 docs x ~30 tokens, English-like, all attributes, heads, sentences
    b = 'b',  // one ONDC of 1,000,000 tokens, same text model as (a)
    c = 'c',  // (a) + per-token confidences + entities; its ONDC variant adds categories and span groups
    d = 'd',  // (a) with multilingual text: Latin, Cyrillic, Greek, CJK and non-BMP characters
};

struct Workload {
    Kind kind = Kind::a;
    bool crc = false;
    std::string name;             // e.g. "a/crc"
    Container content;            // primary content: ONDB for a, c, d; ONDC for b
    std::vector<std::byte> bytes; // ond::encode(content)
    // The same documents as back-to-back ONDC containers (for StreamReader). For (c) each of
    // them also carries categories and span groups. For (b) it is `bytes` again.
    std::vector<std::byte> stream;
    std::uint64_t stream_docs = 0;
    std::uint64_t stream_max_container = 0;  // bytes of the stream's largest container
    std::uint64_t docs = 0;
    std::uint64_t tokens = 0;
    std::string all_text;         // every document's text, concatenated (UTF-8), for the UTF-8 baselines
};

// `scale` shrinks the workload (1.0 = the sizes of issue 7; the smoke test uses ~0.01).
// `name` overrides the kind's letter in `name` (e.g. "a20" for the parallel decode's larger bin);
// with `bin_only` the stream is left empty (only the primary container is made).
Workload make_workload(Kind kind, bool crc, double scale = 1.0, const std::string& name = {}, bool bin_only = false);

const char* describe(Kind kind);

// splitmix64: small, fast, and good enough for synthetic text.
class Rng : public SplitMix64 {
public:
    using SplitMix64::SplitMix64;
    // Uniform in [0, n) (Lemire's multiply-shift on the high 32 bits).
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }
    // Uniform in [lo, hi].
    std::uint32_t range(std::uint32_t lo, std::uint32_t hi) { return lo + below(hi - lo + 1); }
    // Uniform in [0, 1), 24 bits, exactly representable as a float.
    float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
    double unit_double() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    bool chance(double p) { return unit_double() < p; }
};

}  // namespace ond::bench
