#include "mutator.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ond/internal/framing.hpp"
#include "fuzz_support.hpp"
#include "ond/internal/limits.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace ond::fuzz {
namespace {

using framing::Layout;
using framing::Section;

// Byte-level mutation of one buffer through libFuzzer, with room to grow.
void mutate_bytes(std::string& b, std::mt19937& rng) {
    const std::size_t size = b.size();
    b.resize(size + 16 + size / 4);
    const std::size_t n = LLVMFuzzerMutate(reinterpret_cast<std::uint8_t*>(b.data()), size, b.size());
    b.resize(std::min(n, b.size()));
    (void)rng;
}

void insert_varint(std::string& b, std::mt19937& rng) {
    static const std::uint32_t values[] = {0, 1, 2, 3, 7, 63, 64, 127, 128, 255, 300, 16383, 16384,
                                           ond::detail::max_tokens, ond::detail::max_tokens + 1, 0x7FFFFFFF, 0xFFFFFFFF, 0xFFFFFFFE};
    std::vector<std::byte> v;
    if (rng() % 8 == 0) {
        // An overlong form of a small value (valid, non-canonical) or a 5-byte form.
        const std::uint32_t x = rng() % 128;
        v = {std::byte(0x80 | x), std::byte(0x80), std::byte(0x00)};
    } else {
        put_varint(v, values[rng() % (sizeof(values) / sizeof(values[0]))]);
    }
    const std::size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
    const std::size_t replace = std::min<std::size_t>(rng() % 3, b.size() - at);
    b.erase(at, replace);
    b.insert(at, reinterpret_cast<const char*>(v.data()), v.size());
}

void overwrite_float(std::string& b, std::mt19937& rng) {
    static const std::uint32_t values[] = {0x3F800000, 0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x3F800001,
                                           0x7FC00000, 0x7F800000, 0xBF800000, 0x3F000000, 0x80000001};
    if (b.size() < 4) return;
    const std::size_t at = rng() % (b.size() - 3);
    const std::uint32_t v = values[rng() % (sizeof(values) / sizeof(values[0]))];
    for (int k = 0; k < 4; ++k) b[at + static_cast<std::size_t>(k)] = static_cast<char>(v >> (8 * k));
}

std::uint8_t pick_id(std::mt19937& rng) {
    static const std::uint8_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 42, 255};
    return ids[rng() % sizeof(ids)];
}

Section section_of(std::uint8_t id) {
    Section s;
    s.id = id;
    return s;
}

// One change to a list of sections. A records section whose bytes change becomes a plain one.
void mutate_sections(std::vector<Section>& secs, std::mt19937& rng) {
    if (secs.empty()) {
        secs.push_back(section_of(pick_id(rng)));
        return;
    }
    const std::size_t k = rng() % secs.size();
    const auto op = rng() % 10;
    if (op <= 4) secs[k].flatten();
    switch (op) {
        case 0: case 1: case 2: mutate_bytes(secs[k].content, rng); break;
        case 3: insert_varint(secs[k].content, rng); break;
        case 4: overwrite_float(secs[k].content, rng); break;
        case 5: secs[k].id = pick_id(rng); break;
        case 6: secs.erase(secs.begin() + static_cast<std::ptrdiff_t>(k)); break;
        case 7: secs.insert(secs.begin() + static_cast<std::ptrdiff_t>(k), secs[k]); break;
        case 8: std::swap(secs[k], secs[rng() % secs.size()]); break;
        default: {
            Section s = section_of(static_cast<std::uint8_t>(rng() % 2 ? 8 + rng() % 248 : 0));
            s.content.resize(rng() % 8);
            for (auto& x : s.content) x = static_cast<char>(rng());
            secs.insert(secs.begin() + static_cast<std::ptrdiff_t>(rng() % (secs.size() + 1)), std::move(s));
        }
    }
}

void mutate_layout(Layout& m, std::mt19937& rng) {
    Section* rec = m.records_section();
    const unsigned op = rng() % 16;
    if (op < 8 && rec && !rec->records.empty()) {
        mutate_sections(rec->records[rng() % rec->records.size()].sections, rng);
        return;
    }
    switch (op) {
        case 8:
            if (rec && !rec->records.empty()) {
                auto& records = rec->records;
                const std::size_t k = rng() % records.size();
                switch (rng() % 3) {
                    case 0: records.erase(records.begin() + static_cast<std::ptrdiff_t>(k)); break;
                    case 1: records.insert(records.begin() + static_cast<std::ptrdiff_t>(k), records[k]); break;
                    default: std::swap(records[k], records[rng() % records.size()]);
                }
                return;
            }
            break;
        case 9:
            m.flags ^= 1;  // add or drop the trailer
            return;
        case 10:
            if (rng() % 4 == 0) {
                m.version = static_cast<std::uint16_t>(rng() % 3);
                return;
            }
            if (rng() % 4 == 0) {
                m.flags = static_cast<std::uint16_t>(1u << (rng() % 16));
                return;
            }
            break;
        case 11:
            if (rec) {
                rec->count_override = static_cast<std::uint32_t>(rec->records.size()) + (rng() % 2 ? 1u : 0xFFFFFFFFu);
                return;
            }
            break;
        default: break;
    }
    // Sections of the body (the string table most of all); the records section moves as a whole.
    mutate_sections(m.sections, rng);
}

std::size_t emit(const std::string& out, std::uint8_t* data, std::size_t size, std::size_t max_size) {
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

std::optional<Layout> parse(const std::uint8_t* p, std::size_t n) {
    return Layout::parse_lenient(std::string_view(reinterpret_cast<const char*>(p), n));
}

}  // namespace

std::size_t structure_mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
    std::mt19937 rng(seed);
    std::optional<Layout> m;
    if (rng() % 16 == 0 || !(m = parse(data, size))) return LLVMFuzzerMutate(data, size, max_size);
    mutate_layout(*m, rng);
    std::string out = m->serialize();
    if (rng() % 32 == 0 && out.size() > 12) {
        // Rarely, leave one length or the CRC wrong on purpose.
        const std::size_t at = 8 + rng() % 4;
        out[at] = static_cast<char>(out[at] ^ (1u << (rng() % 8)));
    }
    return emit(out, data, size, max_size);
}

std::size_t structure_cross_over(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2,
                                 std::size_t size2, std::uint8_t* out, std::size_t max_out_size, unsigned seed) {
    std::mt19937 rng(seed);
    std::optional<Layout> a = parse(data1, size1), b = parse(data2, size2);
    if (!a || !b || b->sections.empty()) {
        const std::size_t n = std::min(size1, max_out_size);
        if (n) std::memcpy(out, data1, n);
        return n;
    }
    Section* ar = a->records_section();
    Section* br = b->records_section();
    if (ar && br && !ar->records.empty() && !br->records.empty() && rng() % 2) {
        ar->records[rng() % ar->records.size()] = br->records[rng() % br->records.size()];
    } else {
        const Section& s = b->sections[rng() % b->sections.size()];
        const bool same = !ar || !s.has_records;
        if (!a->sections.empty() && same && rng() % 2) {
            Section& target = a->sections[rng() % a->sections.size()];
            if (!target.has_records) target = s;
        } else if (!ar) {
            a->sections.insert(a->sections.begin() + static_cast<std::ptrdiff_t>(rng() % (a->sections.size() + 1)), s);
        } else if (!ar->records.empty() && s.id >= 2 && s.id <= 4) {
            auto& rs = ar->records[rng() % ar->records.size()].sections;
            Section plain = s;
            plain.flatten();
            rs.insert(rs.begin() + static_cast<std::ptrdiff_t>(rng() % (rs.size() + 1)), std::move(plain));
        }
    }
    const std::string o = a->serialize();
    const std::size_t n = std::min(o.size(), max_out_size);
    std::memcpy(out, o.data(), n);
    return n;
}

}  // namespace ond::fuzz
