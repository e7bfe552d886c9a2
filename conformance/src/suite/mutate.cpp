#include "suite/mutate.hpp"

#include <array>
#include <vector>

#include "ond/internal/framing.hpp"
#include "ond/inspect.hpp"
#include "ond/ond.hpp"

namespace ond::conformance {

using namespace ond::framing;  // Layout and the edit helpers

namespace {

constexpr std::array<std::uint32_t, 14> interesting32 = {
    0x7FC00000u,  // NaN
    0x7FA00000u,  // signalling NaN
    0x80000000u,  // -0.0
    0x3F800000u,  // 1.0
    0x3F800001u,  // just above 1.0
    0x40000000u,  // 2.0
    0x7F800000u,  // +inf
    0xFF800000u,  // -inf
    0x00000001u,  // smallest subnormal
    0x80000001u,  // negative subnormal
    0x3F000000u,  // 0.5
    0xBF800000u,  // -1.0
    0xFFFFFFFFu, 0x00000000u};

std::string overlong_varint(std::uint32_t v) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        s.push_back(static_cast<char>((v & 0x7F) | 0x80));
        v >>= 7;
    }
    s.push_back(static_cast<char>(v & 0x0F));
    return s;
}

struct Field {
    framing::Section* leaf;
    std::size_t pos;  // in leaf->content
    std::size_t len;
    std::string name;
};

}  // namespace

std::string Mutator::byte_mutation(std::string data, std::string* what) {
    if (data.empty()) {
        data.push_back(static_cast<char>(pick(256)));
        if (what) *what = "inserted a byte into empty input";
        return data;
    }
    std::size_t at = pick(data.size());
    switch (pick(5)) {
        case 0:
            data[at] = static_cast<char>(data[at] ^ (1 << pick(8)));
            if (what) *what = "flipped a bit at byte " + std::to_string(at);
            break;
        case 1:
            data[at] = static_cast<char>(pick(256));
            if (what) *what = "set byte " + std::to_string(at);
            break;
        case 2:
            data.insert(data.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(pick(256)));
            if (what) *what = "inserted a byte at " + std::to_string(at);
            break;
        case 3:
            data.erase(at, 1 + pick(4));
            if (what) *what = "deleted bytes at " + std::to_string(at);
            break;
        default:
            data.resize(at);
            if (what) *what = "truncated to " + std::to_string(at) + " bytes";
            break;
    }
    return data;
}

namespace {

// The fields of `l`'s leaf sections, located by the codec's own annotated walk of `input`.
std::vector<Field> located_fields(Layout& l, std::string_view input) {
    std::vector<Field> fields;
    auto leaves = l.leaves();
    try {
        ond::inspect(as_bytes(input.data(), input.size()), [&](const InspectEvent& ev) {
            if (ev.kind != InspectEvent::Kind::field || ev.length == 0) return;
            for (auto* leaf : leaves) {
                if (ev.offset >= leaf->content_offset && ev.offset + ev.length <= leaf->content_offset + leaf->content.size()) {
                    fields.push_back({leaf, static_cast<std::size_t>(ev.offset - leaf->content_offset),
                                      static_cast<std::size_t>(ev.length), ev.name});
                    break;
                }
            }
        });
    } catch (const std::exception&) {
        // A broken input: the fields before the fault are enough.
    }
    return fields;
}

}  // namespace

std::string Mutator::field_replacement(const std::string& content, std::size_t pos, std::size_t len) {
    std::uint32_t v = 0;
    std::size_t vs = varint_size_at(content, pos, &v);
    std::string repl;
    if (len == 4 && (vs != 4)) {
        std::uint32_t x = pick(4) == 0 ? static_cast<std::uint32_t>(rng_()) : interesting32[pick(interesting32.size())];
        repl.resize(4);
        put_u32(repl, 0, x);
    } else if (vs == len) {
        std::uint32_t nv;
        switch (pick(9)) {
            case 0: nv = v + 1; break;
            case 1: nv = v - 1; break;
            case 2: nv = 0; break;
            case 3: nv = 1; break;
            case 4: nv = 0xFFFFFFFFu; break;
            case 5: nv = v * 2 + 1; break;
            case 6: nv = static_cast<std::uint32_t>(pick(300)); break;
            case 7: nv = 0x7F + static_cast<std::uint32_t>(pick(3)); break;
            default: nv = v; break;  // same value, overlong form below
        }
        repl = nv == v ? overlong_varint(v) : encode_varint(nv);
    } else if (len == 1) {
        constexpr std::array<unsigned, 8> bytes = {0, 1, 2, 3, 0x7F, 0x80, 0xFF, 4};
        repl.push_back(static_cast<char>(pick(3) == 0 ? pick(256) : bytes[pick(bytes.size())]));
    } else {
        repl = content.substr(pos, len);
        std::size_t at = pick(repl.size());
        switch (pick(3)) {
            case 0: repl[at] = static_cast<char>(repl[at] ^ (1 << pick(8))); break;
            case 1: repl[at] = static_cast<char>(std::array<unsigned char, 6>{0xC0, 0xED, 0xF4, 0xFF, 0x80, 0x00}[pick(6)]); break;
            default: repl.erase(at, 1); break;
        }
    }
    return repl;
}

std::optional<std::string> Mutator::section_mutation(Layout& l) {
    // In the body or in one record.
    std::vector<std::vector<framing::Section>*> lists{&l.sections};
    for (auto& s : l.sections)
        if (s.has_records)
            for (auto& r : s.records) lists.push_back(&r.sections);
    auto& secs = *lists[pick(lists.size())];
    std::string desc;
    switch (secs.empty() ? 3 : pick(5)) {
        case 0: {
            auto i = pick(secs.size());
            desc = "removed section " + std::to_string(secs[i].id);
            secs.erase(secs.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
        case 1: {
            auto i = pick(secs.size());
            desc = "repeated section " + std::to_string(secs[i].id);
            secs.insert(secs.begin() + static_cast<std::ptrdiff_t>(i), secs[i]);
            break;
        }
        case 2: {
            if (secs.size() < 2) return std::nullopt;
            auto i = pick(secs.size() - 1);
            std::swap(secs[i], secs[i + 1]);
            desc = "swapped sections " + std::to_string(secs[i + 1].id) + " and " + std::to_string(secs[i].id);
            break;
        }
        case 3: {
            framing::Section s;
            constexpr std::array<std::uint8_t, 10> ids = {0, 8, 9, 200, 255, 4, 5, 6, 7, 1};
            s.id = ids[pick(ids.size())];
            for (auto n = pick(6); n > 0; --n) s.content.push_back(static_cast<char>(pick(256)));
            auto i = pick(secs.size() + 1);
            secs.insert(secs.begin() + static_cast<std::ptrdiff_t>(i), s);
            desc = "inserted section " + std::to_string(s.id) + " at position " + std::to_string(i);
            break;
        }
        default: {
            auto i = pick(secs.size());
            if (secs[i].has_records) return std::nullopt;
            auto old = secs[i].id;
            secs[i].id = static_cast<std::uint8_t>(pick(10));
            desc = "renumbered section " + std::to_string(old) + " as " + std::to_string(secs[i].id);
            break;
        }
    }
    return desc;
}

std::string Mutator::framing_mutation(Layout& l, std::string* what) {
    std::string desc, out;
    switch (pick(5)) {
        case 0:
            l.body_length_override = static_cast<std::uint32_t>(l.serialize().size() - 12 - (l.crc() ? 4 : 0) + (pick(2) ? 1 : -1));
            desc = "body length off by one";
            out = l.serialize();
            break;
        case 1:
            l.flags ^= 1;
            desc = "toggled the CRC flag (trailer re-framed)";
            out = l.serialize();
            break;
        case 2: {
            auto all = l.leaves();
            if (all.empty()) return byte_mutation(l.serialize(), what);
            auto* leaf = all[pick(all.size())];
            leaf->length_override = static_cast<std::uint32_t>(leaf->content.size() + (pick(2) ? 1 : 0) - (pick(2) ? 1 : 0) * 2);
            desc = "section " + std::to_string(leaf->id) + " length not re-framed";
            out = l.serialize();
            break;
        }
        case 3:
            out = l.serialize();
            if (l.crc()) {
                out[out.size() - 1 - pick(4)] ^= static_cast<char>(1 + pick(255));
                desc = "stale CRC";
            } else {
                out = byte_mutation(out, &desc);
            }
            break;
        default:
            l.flags = static_cast<std::uint16_t>(l.flags | (1u << (1 + pick(15))));
            desc = "set a reserved flag bit";
            out = l.serialize();
            break;
    }
    if (what) *what = desc;
    return out;
}

std::string Mutator::mutate(std::string_view input, std::string* what) {
    auto parsed = Layout::parse(input);
    if (!parsed) return byte_mutation(std::string(input), what);
    Layout l = std::move(*parsed);
    const std::vector<Field> fields = located_fields(l, input);

    std::string desc;
    auto choice = pick(100);
    if (choice < 55 && !fields.empty()) {
        const Field f = fields[pick(fields.size())];
        const std::string repl = field_replacement(f.leaf->content, f.pos, f.len);
        f.leaf->content.replace(f.pos, f.len, repl);
        desc = "changed field '" + f.name + "'";
    } else if (choice < 72) {
        std::optional<std::string> changed = section_mutation(l);
        if (!changed) return byte_mutation(l.serialize(), what);
        desc = std::move(*changed);
    } else if (choice < 90) {
        auto all = l.leaves();
        if (all.empty()) return byte_mutation(l.serialize(), what);
        auto* leaf = all[pick(all.size())];
        std::string inner;
        leaf->content = byte_mutation(leaf->content, &inner);
        desc = "in section " + std::to_string(leaf->id) + ": " + inner;
    } else {
        return framing_mutation(l, what);  // leave one framing field wrong
    }
    if (what) *what = desc;
    return l.serialize();
}

}  // namespace ond::conformance
