#include "suite/derive.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "ond/internal/check_switch.hpp"
#include "ond/internal/framing.hpp"
#include "ond/corpus_sha256.hpp"
#include "suite/mutate.hpp"
#include "ond/internal/limits.hpp"
#include "suite/reference.hpp"

namespace ond::conformance {

using namespace ond::framing;  // Layout and the edit helpers

namespace {

// Fills the expectation of a derived case from the reference codec; false when the reference's
// answer would pass its cap (reference_json_cap): no such case is derived.
bool expect_reference(Case& c, Op op) {
    RefAnswer a = reference_answer(op, c.input);
    if (a.too_large) return false;
    c.expect_accept = a.accept;
    if (a.accept) {
        c.verdict = CaseVerdict::valid;
        c.expected = a.out;
        c.error.clear();
    } else {
        c.verdict = a.impl_defined ? CaseVerdict::impl : CaseVerdict::invalid;
        c.error = a.code;
        if (op == Op::stream) c.expected = a.out;
        else c.expected.reset();
        if (op == Op::decode && c.verdict == CaseVerdict::impl) derive_if_accepted(c);
    }
    return true;
}

Case derived(const Case& src, Origin origin, const std::string& suffix) {
    Case c;
    c.id = std::string("derived/") + origin_name(origin) + "/" + src.id + "/" + suffix;
    c.kind = CaseKind::decode;
    c.area = std::string("derived-") + origin_name(origin);
    c.origin = origin;
    c.source = src.id;
    c.input_path = src.input_path;
    c.listing_path = src.listing_path;
    c.check_reason = false;  // a derived input may hold several faults: only the verdict counts
    return c;
}

// Picks `cap` evenly spaced positions out of `total` (all of them when total <= cap).
void sample(std::uint64_t total, std::size_t cap, const std::function<void(std::uint64_t)>& fn) {
    if (total == 0 || cap == 0) return;
    if (total <= cap) {
        for (std::uint64_t i = 0; i < total; ++i) fn(i);
        return;
    }
    std::uint64_t last = ~std::uint64_t{0};
    for (std::uint64_t k = 0; k < cap; ++k) {
        std::uint64_t g = k * total / cap;
        if (g != last) fn(g);
        last = g;
    }
}

struct Huge {
    const char* name;
    const char* rule;
    std::function<bool(Layout&)> apply;  // false when the source has no such field
};

bool set_leading_varint(framing::Section& s, std::uint32_t v) {
    std::size_t n = varint_size_at(s.content, 0);
    if (n == 0) return false;
    s.content.replace(0, n, encode_varint(v));
    return true;
}

framing::Section* find_leaf(Layout& l, std::uint8_t id) {
    for (auto* s : l.leaves())
        if (s->id == id) return s;
    return nullptr;
}

std::vector<Huge> huge_fields() {
    return {
        {"body-length", "R6", [](Layout& l) { l.body_length_override = 0xFFFFFFF0u; return true; }},
        {"string-count", "R12", [](Layout& l) {
             for (auto& s : l.sections) if (s.id == 1) return set_leading_varint(s, 0xFFFFFFFFu);
             return false; }},
        {"token-count-max", "R17", [](Layout& l) { auto* s = find_leaf(l, 3); return s && set_leading_varint(*s, ond::detail::max_tokens); }},
        {"token-count-huge", "R17", [](Layout& l) { auto* s = find_leaf(l, 3); return s && set_leading_varint(*s, 0xFFFFFFFFu); }},
        {"entity-count", "R22", [](Layout& l) { auto* s = find_leaf(l, 4); return s && set_leading_varint(*s, 0x0FFFFFFFu); }},
        {"category-count", "R23", [](Layout& l) { auto* s = find_leaf(l, 6); return s && set_leading_varint(*s, 0x0FFFFFFFu); }},
        {"span-group-count", "R24", [](Layout& l) { auto* s = find_leaf(l, 7); return s && set_leading_varint(*s, 0x0FFFFFFFu); }},
        {"text-section-length", "R8", [](Layout& l) { auto* s = find_leaf(l, 2); if (!s) return false; s->length_override = 0xFFFFFFF0u; return true; }},
        {"record-count", "R11", [](Layout& l) {
             for (auto& s : l.sections) if (s.has_records) { s.count_override = 0xFFFFFFFFu; return true; }
             return false; }},
        {"record-length", "R11", [](Layout& l) {
             for (auto& s : l.sections)
                 if (s.has_records && !s.records.empty()) { s.records[0].length_override = 0xFFFFFFF0u; return true; }
             return false; }},
    };
}

}  // namespace

void derive_if_accepted(Case& c) {
    std::vector<Errc> relaxed;
    for (std::string code = c.error; relaxed.size() < 16;) {
        const ErrorInfo* info = find_error(code);
        if (!info || !detail::RelaxedChecks::relaxable(info->errc)) break;
        relaxed.push_back(info->errc);
        RefAnswer a;
        {
            detail::RelaxedChecks relax(relaxed);
            a = reference_decode(c.input);
        }
        if (a.too_large) return;  // no if-accepted content: an accepting reader must still give content JSON
        if (!a.accept && a.impl_defined) {  // another implementation-defined point behind the first
            code = a.code;
            continue;
        }
        if (!a.accept) {
            // Past its implementation-defined points the input breaks a rule every reader keeps.
            c.verdict = CaseVerdict::invalid;
            return;
        }
        c.if_accepted = a.out;
        // R9: sections 6 and 7 in a record may also be read as the record's own.
        if (std::find(relaxed.begin(), relaxed.end(), Errc::section_misplaced) != relaxed.end()) {
            detail::RelaxedChecks relax(relaxed, true);
            const RefAnswer read = reference_decode(c.input);
            if (read.accept && read.out != a.out) c.if_accepted_also.push_back(read.out);
        }
        return;
    }
}

namespace {

using Keep = std::function<bool(const std::string&)>;

// Bit flips of CRC-protected sources.
void derive_bitflips(const std::vector<const Case*>& sources, const DeriveOptions& opt, const Keep& keep, std::vector<Case>& out) {
    std::vector<const Case*> crc;
    std::vector<std::uint64_t> start;
    std::uint64_t total = 0;
    for (const auto* s : sources)
        if (static_cast<unsigned char>(s->input[6]) & 1) crc.push_back(s), start.push_back(total), total += s->input.size() * 8;
    std::size_t si = 0;
    sample(total, opt.max_per_kind, [&](std::uint64_t g) {
        while (si + 1 < crc.size() && start[si + 1] <= g) ++si;
        const Case& src = *crc[si];
        std::uint64_t bit = g - start[si];
        Case c = derived(src, Origin::bitflip, "bit" + std::to_string(bit));
        if (!keep(c.id)) return;
        c.input = src.input;
        c.input[bit / 8] = static_cast<char>(c.input[bit / 8] ^ (1 << (bit % 8)));
        c.verdict = CaseVerdict::invalid;
        c.expect_accept = false;
        c.rules = {"R7"};
        c.description = "bit " + std::to_string(bit) + " of " + src.id + " flipped; the CRC must catch it";
        c.check_memory = true;
        out.push_back(std::move(c));
    });
}

// Proper prefixes.
void derive_prefixes(const std::vector<const Case*>& sources, const DeriveOptions& opt, const Keep& keep, std::vector<Case>& out) {
    std::vector<std::uint64_t> start;
    std::uint64_t total = 0;
    for (const auto* s : sources) start.push_back(total), total += s->input.size();
    std::size_t si = 0;
    sample(total, opt.max_per_kind, [&](std::uint64_t g) {
        while (si + 1 < sources.size() && start[si + 1] <= g) ++si;
        const Case& src = *sources[si];
        std::uint64_t len = g - start[si];
        Case c = derived(src, Origin::prefix, "len" + std::to_string(len));
        if (!keep(c.id)) return;
        c.input = src.input.substr(0, len);
        c.verdict = CaseVerdict::invalid;
        c.expect_accept = false;
        c.rules = {"R6"};
        c.description = "the first " + std::to_string(len) + " of " + std::to_string(src.input.size()) + " bytes of " + src.id;
        c.check_memory = true;
        out.push_back(std::move(c));
    });
}

// Random structure-aware mutations, seeded.
void derive_mutations(const std::vector<const Case*>& sources, const DeriveOptions& opt, const Keep& keep, std::vector<Case>& out) {
    if (sources.empty()) return;
    Mutator m(opt.seed);
    std::set<std::string> ids;
    for (std::size_t k = 0, made = 0; made < opt.max_per_kind && k < 4 * opt.max_per_kind; ++k) {
        const Case& src = *sources[m.rng()() % sources.size()];
        std::string what;
        Case c;
        c.input = m.mutate(src.input, &what);
        // Named by what it is (source and bytes), not by the seed or its place in the run, so
        // that the same case lines up across runs and merged matrices.
        c.id = "derived/mutation/" + src.id + "/" + corpus::sha256_hex(c.input).substr(0, 12);
        if (!ids.insert(c.id).second) continue;
        ++made;
        if (!keep(c.id)) continue;
        c.kind = CaseKind::decode;
        c.area = "derived-mutation";
        c.origin = Origin::mutation;
        c.source = src.id;
        c.input_path = src.input_path;
        c.listing_path = src.listing_path;
        c.check_reason = false;
        c.description = src.id + ": " + what;
        if (!expect_reference(c, Op::decode)) continue;
        c.check_memory = !c.expect_accept;
        out.push_back(std::move(c));
    }
}

// A stream whose first container declares a body of almost 1 GiB but ends after a few bytes,
// made from the first ONDC source. Returns the part of the budget it took: 1 when there is one.
std::size_t derive_huge_stream(const std::vector<const Case*>& sources, const Keep& keep, std::vector<Case>& out) {
    auto src_it = std::find_if(sources.begin(), sources.end(), [](const Case* s) { return s->input.compare(0, 4, "ONDC") == 0; });
    if (src_it == sources.end()) return 0;
    const Case& src = **src_it;
    Case c = derived(src, Origin::memory, "stream-body-length");
    if (!keep(c.id)) return 1;
    c.kind = CaseKind::stream;
    c.area = "robustness-memory";
    c.input = src.input;
    put_u32(c.input, 8, (1u << 30) - 1);
    c.description = "a stream whose container declares a 1 GiB body and ends after " + std::to_string(src.input.size()) + " bytes";
    c.rules = {"R26"};
    if (!expect_reference(c, Op::stream)) return 1;
    c.check_memory = true;
    out.push_back(std::move(c));
    return 1;
}

// Huge declared lengths and counts: the memory bound. The cap is shared evenly by the kinds of
// field, each taking the sources in corpus order.
void derive_huge(const std::vector<const Case*>& sources, const DeriveOptions& opt, const Keep& keep, std::vector<Case>& out) {
    auto fields = huge_fields();
    std::size_t budget = opt.max_per_kind;
    if (opt.streams && budget > 0) budget -= derive_huge_stream(sources, keep, out);
    std::size_t per_field = std::max<std::size_t>(1, budget / fields.size());
    std::vector<std::optional<Layout>> parsed;
    for (const auto* src : sources) parsed.push_back(Layout::parse(src->input));
    for (const auto& f : fields) {
        std::size_t made = 0;
        for (std::size_t i = 0; i < sources.size() && made < per_field && budget > 0; ++i) {
            if (!parsed[i]) continue;
            Layout l = *parsed[i];
            if (!f.apply(l)) continue;
            const Case& src = *sources[i];
            Case c = derived(src, Origin::memory, f.name);
            ++made;
            --budget;
            if (!keep(c.id)) continue;
            c.area = "robustness-memory";
            c.input = l.serialize();
            c.rules = {f.rule};
            c.description = src.id + " declaring a huge " + f.name + "; the testee must not allocate it";
            if (!expect_reference(c, Op::decode)) continue;
            c.check_memory = true;
            out.push_back(std::move(c));
        }
    }
}

}  // namespace

std::vector<Case> derive_cases(const std::vector<Case>& corpus, const DeriveOptions& opt) {
    const Keep keep = [&](const std::string& id) { return !opt.keep || opt.keep(id); };
    std::vector<const Case*> sources;
    for (const auto& c : corpus)
        if (c.kind == CaseKind::decode && c.expect_accept && (c.verdict == CaseVerdict::valid || c.verdict == CaseVerdict::noncanonical) &&
            c.input.size() >= 12)
            sources.push_back(&c);
    std::vector<Case> out;
    derive_bitflips(sources, opt, keep, out);
    derive_prefixes(sources, opt, keep, out);
    derive_mutations(sources, opt, keep, out);
    derive_huge(sources, opt, keep, out);
    return out;
}

}  // namespace ond::conformance
