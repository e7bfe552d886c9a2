// splitmix64: a small, fixed, portable pseudo-random sequence (the same on every machine), for
// the corpus generator's and the benchmarks' synthetic content. Each user keeps its own
// reduction to a range, since the bytes it writes depend on it.
#pragma once

#include <cstdint>

namespace ond {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

private:
    std::uint64_t s_;
};

}  // namespace ond
