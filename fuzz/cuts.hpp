// Read sizes for the stream reader, derived from the input itself (so that a container file
// from the corpus is fed unchanged and still gets its reads cut at varied places).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"

namespace ond::fuzz {

inline std::vector<std::size_t> cuts_for(const std::uint8_t* data, std::size_t size) {
    static const std::size_t sizes[] = {1, 2, 3, 4, 5, 7, 11, 12, 13, 16, 17, 64, 4096};
    std::uint32_t h = slow_crc32(data, size < 64 ? size : 64) ^ static_cast<std::uint32_t>(size);
    std::vector<std::size_t> cuts;
    if ((h & 7) == 0) return cuts;  // sometimes: every read gets all it asks for
    for (int i = 0; i < 6; ++i) {
        cuts.push_back(sizes[h % (sizeof(sizes) / sizeof(sizes[0]))]);
        h = h * 1103515245u + 12345u;
        h ^= h >> 16;
    }
    return cuts;
}

}  // namespace ond::fuzz
