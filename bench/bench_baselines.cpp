// What the machine does on the same bytes without any format: memcpy, CRC-32 alone, UTF-8
// validation alone.
#include <zlib.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "bench_common.hpp"
#include "ond/unicode.hpp"

#ifdef OND_BENCH_ISAL
#include <isa-l/crc.h>
#endif

namespace ond::bench {
namespace {

// The plainest well-formedness check (RFC 3629), one code point at a time, counting UTF-16 units.
std::optional<std::uint64_t> reference_utf8_utf16_length(const unsigned char* p, std::size_t n) {
    std::uint64_t units = 0;
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = p[i];
        if (b < 0x80) {
            ++i;
            ++units;
            continue;
        }
        std::size_t len;
        std::uint32_t cp, min;
        if ((b & 0xE0) == 0xC0) {
            len = 2, cp = b & 0x1Fu, min = 0x80;
        } else if ((b & 0xF0) == 0xE0) {
            len = 3, cp = b & 0x0Fu, min = 0x800;
        } else if ((b & 0xF8) == 0xF0) {
            len = 4, cp = b & 0x07u, min = 0x10000;
        } else {
            return std::nullopt;
        }
        if (n - i < len) return std::nullopt;
        for (std::size_t k = 1; k < len; ++k) {
            const unsigned char c = p[i + k];
            if ((c & 0xC0) != 0x80) return std::nullopt;
            cp = (cp << 6) | (c & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
        units += cp >= 0x10000 ? 2 : 1;
        i += len;
    }
    return units;
}

std::uint32_t zlib_crc(const std::vector<std::byte>& b) {
    // zlib's length argument is a uInt: feed it in pieces for large inputs.
    uLong crc = crc32(0L, Z_NULL, 0);
    const auto* p = reinterpret_cast<const Bytef*>(b.data());
    std::size_t left = b.size();
    while (left > 0) {
        const auto step = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
        crc = crc32(crc, p, step);
        p += step;
        left -= step;
    }
    return static_cast<std::uint32_t>(crc);
}

#ifdef OND_BENCH_ISAL
std::uint32_t isal_crc(const std::vector<std::byte>& b) {
    return crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(b.data()), b.size());
}
#endif

}  // namespace

void register_baselines(const WorkloadPtr& wp) {
    const char kind[] = {'/', static_cast<char>(wp->kind), 0};
    const std::string_view sfx = kind;
    const std::uint64_t in = wp->bytes.size(), tokens = wp->tokens;

    benchmark::RegisterBenchmark(join({"base/memcpy", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        std::vector<std::byte> dst(wp->bytes.size());
        for (auto _ : st) {
            std::memcpy(dst.data(), wp->bytes.data(), wp->bytes.size());
            benchmark::ClobberMemory();
        }
        report(st, in, tokens, 0);
    });
    benchmark::RegisterBenchmark(join({"base/crc32_zlib", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        for (auto _ : st) benchmark::DoNotOptimize(zlib_crc(wp->bytes));
        report(st, in, tokens, 0);
    });
#ifdef OND_BENCH_ISAL
    if (isal_crc(wp->bytes) != zlib_crc(wp->bytes)) throw std::runtime_error("ISA-L and zlib CRC-32 disagree");
    benchmark::RegisterBenchmark(join({"base/crc32_isal", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        for (auto _ : st) benchmark::DoNotOptimize(isal_crc(wp->bytes));
        report(st, in, tokens, 0);
    });
#endif

    const auto* text = reinterpret_cast<const unsigned char*>(wp->all_text.data());
    const std::size_t text_size = wp->all_text.size();
    const auto ours = unicode::utf8_utf16_length(text, text_size);
    const auto ref = reference_utf8_utf16_length(text, text_size);
    if (!ours || !ref || *ours != *ref) throw std::runtime_error(join({"UTF-8 baselines disagree on ", wp->name}));
    benchmark::RegisterBenchmark(join({"base/utf8_ond", sfx}).c_str(), [wp, text, text_size, tokens](benchmark::State& st) {
        for (auto _ : st) benchmark::DoNotOptimize(unicode::utf8_utf16_length(text, text_size));
        report(st, text_size, tokens, 0);
    });
    benchmark::RegisterBenchmark(join({"base/utf8_ref", sfx}).c_str(), [wp, text, text_size, tokens](benchmark::State& st) {
        for (auto _ : st) benchmark::DoNotOptimize(reference_utf8_utf16_length(text, text_size));
        report(st, text_size, tokens, 0);
    });
}

}  // namespace ond::bench
