// CRC-32 (IEEE, reflected, polynomial 0xEDB88320) bit by bit: slow and obviously right, and
// independent of the codec's (zlib, ISA-L or its own folding). The one reference CRC of the tests,
// the property tests and the fuzz harnesses (fuzz/support's slow_crc32). Header only, no test framework.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ond::test {

inline std::uint32_t ref_crc32(const std::uint8_t* p, std::size_t n) noexcept {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

}  // namespace ond::test
