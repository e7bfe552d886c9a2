#include "mutator.hpp"

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "cursor.hpp"
#include "fuzz_support.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace ond::fuzz {
namespace {

using Buf = std::vector<std::uint8_t>;

struct Section {
    std::uint8_t id = 0;
    Buf data;
};
struct Record {
    std::vector<Section> sections;
};
struct Parsed {
    std::uint8_t magic[4] = {'O', 'N', 'D', 'C'};
    std::uint16_t version = 1;
    std::uint16_t flags = 0;
    std::vector<Section> sections;
    // Section 5 of an ONDB, parsed into records (records_at: its index in `sections`).
    int records_at = -1;
    std::vector<Record> records;
    bool keep_count = false;
    std::uint32_t count = 0;
};

std::uint32_t load_u32(const std::uint8_t* p) { return detail::Cursor::load_u32(p); }

// Splits bytes into sections; a length that runs past the end takes what remains.
std::vector<Section> parse_sections(const std::uint8_t* p, std::size_t n) {
    std::vector<Section> out;
    std::size_t i = 0;
    while (i + 5 <= n) {
        Section s;
        s.id = p[i];
        std::size_t len = load_u32(p + i + 1);
        i += 5;
        len = std::min(len, n - i);
        s.data.assign(p + i, p + i + len);
        i += len;
        out.push_back(std::move(s));
    }
    if (i < n) {  // a fragment too short for a frame: keep it as an unknown section's content
        Section s;
        s.id = 200;
        s.data.assign(p + i, p + n);
        out.push_back(std::move(s));
    }
    return out;
}

bool parse(const std::uint8_t* p, std::size_t n, Parsed& m) {
    if (n < 12) return false;
    const bool ondc = std::memcmp(p, "ONDC", 4) == 0, ondb = std::memcmp(p, "ONDB", 4) == 0;
    if (!ondc && !ondb) return false;
    std::memcpy(m.magic, p, 4);
    m.version = static_cast<std::uint16_t>(p[4] | (p[5] << 8));
    m.flags = static_cast<std::uint16_t>(p[6] | (p[7] << 8));
    std::size_t body = std::min<std::size_t>(load_u32(p + 8), n - 12);
    m.sections = parse_sections(p + 12, body);
    if (ondb) {
        for (std::size_t k = 0; k < m.sections.size(); ++k) {
            if (m.sections[k].id != 5 || m.sections[k].data.size() < 4) continue;
            const Buf& d = m.sections[k].data;
            m.records_at = static_cast<int>(k);
            std::size_t i = 4;
            while (i + 4 <= d.size()) {
                std::size_t len = std::min<std::size_t>(load_u32(d.data() + i), d.size() - i - 4);
                Record r;
                r.sections = parse_sections(d.data() + i + 4, len);
                m.records.push_back(std::move(r));
                i += 4 + len;
            }
            break;
        }
    }
    return true;
}

void put_sections(Buf& out, const std::vector<Section>& secs) {
    for (const Section& s : secs) {
        out.push_back(s.id);
        const auto len = static_cast<std::uint32_t>(s.data.size());
        for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(len >> (8 * b)));
        out.insert(out.end(), s.data.begin(), s.data.end());
    }
}

void put32(Buf& out, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}

Buf serialize(const Parsed& m) {
    std::vector<Section> secs = m.sections;
    if (m.records_at >= 0 && static_cast<std::size_t>(m.records_at) < secs.size()) {
        Buf d;
        put32(d, m.keep_count ? m.count : static_cast<std::uint32_t>(m.records.size()));
        for (const Record& r : m.records) {
            Buf body;
            put_sections(body, r.sections);
            put32(d, static_cast<std::uint32_t>(body.size()));
            d.insert(d.end(), body.begin(), body.end());
        }
        secs[static_cast<std::size_t>(m.records_at)].data = std::move(d);
    }
    Buf body;
    put_sections(body, secs);
    Buf out(m.magic, m.magic + 4);
    out.push_back(static_cast<std::uint8_t>(m.version & 0xFF));
    out.push_back(static_cast<std::uint8_t>(m.version >> 8));
    out.push_back(static_cast<std::uint8_t>(m.flags & 0xFF));
    out.push_back(static_cast<std::uint8_t>(m.flags >> 8));
    put32(out, static_cast<std::uint32_t>(body.size()));
    out.insert(out.end(), body.begin(), body.end());
    if (m.flags & 1) put32(out, slow_crc32(out.data(), out.size()));
    return out;
}

// Byte-level mutation of one buffer through libFuzzer, with room to grow.
void mutate_bytes(Buf& b, std::mt19937& rng) {
    const std::size_t size = b.size();
    b.resize(size + 16 + size / 4);
    const std::size_t n = LLVMFuzzerMutate(b.data(), size, b.size());
    b.resize(std::min(n, b.size()));
    (void)rng;
}

void insert_varint(Buf& b, std::mt19937& rng) {
    static const std::uint32_t values[] = {0, 1, 2, 3, 7, 63, 64, 127, 128, 255, 300, 16383, 16384,
                                           33'554'432, 33'554'433, 0x7FFFFFFF, 0xFFFFFFFF, 0xFFFFFFFE};
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
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + replace));
    const auto* vp = reinterpret_cast<const std::uint8_t*>(v.data());
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), vp, vp + v.size());
}

void overwrite_float(Buf& b, std::mt19937& rng) {
    static const std::uint32_t values[] = {0x3F800000, 0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x3F800001,
                                           0x7FC00000, 0x7F800000, 0xBF800000, 0x3F000000, 0x80000001};
    if (b.size() < 4) return;
    const std::size_t at = rng() % (b.size() - 3);
    const std::uint32_t v = values[rng() % (sizeof(values) / sizeof(values[0]))];
    for (int k = 0; k < 4; ++k) b[at + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v >> (8 * k));
}

std::uint8_t pick_id(std::mt19937& rng) {
    static const std::uint8_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 42, 255};
    return ids[rng() % sizeof(ids)];
}

// One change to a list of sections.
void mutate_sections(std::vector<Section>& secs, std::mt19937& rng) {
    if (secs.empty()) {
        secs.push_back(Section{pick_id(rng), {}});
        return;
    }
    const std::size_t k = rng() % secs.size();
    switch (rng() % 10) {
        case 0: case 1: case 2: mutate_bytes(secs[k].data, rng); break;
        case 3: insert_varint(secs[k].data, rng); break;
        case 4: overwrite_float(secs[k].data, rng); break;
        case 5: secs[k].id = pick_id(rng); break;
        case 6: secs.erase(secs.begin() + static_cast<std::ptrdiff_t>(k)); break;
        case 7: secs.insert(secs.begin() + static_cast<std::ptrdiff_t>(k), secs[k]); break;
        case 8: std::swap(secs[k], secs[rng() % secs.size()]); break;
        default: {
            Section s{static_cast<std::uint8_t>(rng() % 2 ? 8 + rng() % 248 : 0), {}};
            s.data.resize(rng() % 8);
            for (auto& x : s.data) x = static_cast<std::uint8_t>(rng());
            secs.insert(secs.begin() + static_cast<std::ptrdiff_t>(rng() % (secs.size() + 1)), std::move(s));
        }
    }
}

void mutate_parsed(Parsed& m, std::mt19937& rng) {
    const unsigned op = rng() % 16;
    if (op < 8 && !m.records.empty()) {
        Record& r = m.records[rng() % m.records.size()];
        mutate_sections(r.sections, rng);
        return;
    }
    switch (op) {
        case 8:
            if (!m.records.empty()) {
                const std::size_t k = rng() % m.records.size();
                switch (rng() % 3) {
                    case 0: m.records.erase(m.records.begin() + static_cast<std::ptrdiff_t>(k)); break;
                    case 1: m.records.insert(m.records.begin() + static_cast<std::ptrdiff_t>(k), m.records[k]); break;
                    default: std::swap(m.records[k], m.records[rng() % m.records.size()]);
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
            if (m.records_at >= 0) {
                m.keep_count = true;
                m.count = static_cast<std::uint32_t>(m.records.size()) + (rng() % 2 ? 1u : 0xFFFFFFFFu);
                return;
            }
            break;
        default: break;
    }
    // Sections of the body (the string table most of all).
    std::vector<Section> secs = m.sections;
    if (m.records_at >= 0) {
        // Keep section 5 in place: mutate the others, or section 5's id.
        mutate_sections(m.sections, rng);
        if (m.sections.size() != secs.size() || static_cast<std::size_t>(m.records_at) >= m.sections.size() ||
            m.sections[static_cast<std::size_t>(m.records_at)].id != 5)
            m.records_at = -1;  // the records section moved: write it as plain bytes
        return;
    }
    mutate_sections(m.sections, rng);
}

std::size_t emit(const Buf& out, std::uint8_t* data, std::size_t size, std::size_t max_size) {
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

}  // namespace

std::size_t structure_mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
    std::mt19937 rng(seed);
    Parsed m;
    if (rng() % 16 == 0 || !parse(data, size, m)) return LLVMFuzzerMutate(data, size, max_size);
    mutate_parsed(m, rng);
    Buf out = serialize(m);
    if (rng() % 32 == 0 && out.size() > 12) {
        // Rarely, leave one length or the CRC wrong on purpose.
        const std::size_t at = 8 + rng() % 4;
        out[at] = static_cast<std::uint8_t>(out[at] ^ (1u << (rng() % 8)));
    }
    return emit(out, data, size, max_size);
}

std::size_t structure_cross_over(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2,
                                 std::size_t size2, std::uint8_t* out, std::size_t max_out_size, unsigned seed) {
    std::mt19937 rng(seed);
    Parsed a, b;
    if (!parse(data1, size1, a) || !parse(data2, size2, b) || b.sections.empty()) {
        const std::size_t n = std::min(size1, max_out_size);
        if (n) std::memcpy(out, data1, n);
        return n;
    }
    if (!a.records.empty() && !b.records.empty() && rng() % 2) {
        a.records[rng() % a.records.size()] = b.records[rng() % b.records.size()];
    } else {
        const Section& s = b.sections[rng() % b.sections.size()];
        const bool same = a.records_at < 0 || s.id != 5;
        if (!a.sections.empty() && same && rng() % 2) {
            const std::size_t k = rng() % a.sections.size();
            if (static_cast<int>(k) != a.records_at) a.sections[k] = s;
        } else if (a.records_at < 0) {
            a.sections.insert(a.sections.begin() + static_cast<std::ptrdiff_t>(rng() % (a.sections.size() + 1)), s);
        } else if (!a.records.empty() && s.id >= 2 && s.id <= 4) {
            auto& rs = a.records[rng() % a.records.size()].sections;
            rs.insert(rs.begin() + static_cast<std::ptrdiff_t>(rng() % (rs.size() + 1)), s);
        }
    }
    const Buf o = serialize(a);
    const std::size_t n = std::min(o.size(), max_out_size);
    std::memcpy(out, o.data(), n);
    return n;
}

}  // namespace ond::fuzz
