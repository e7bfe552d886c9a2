// Structure-aware mutation of a container: change one field (found by ond::inspect), a section
// or a byte, then re-frame every length and recompute the CRC so the change is the only fault
// (now and then a framing field is left wrong on purpose).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace ond::framing {
struct Layout;
struct Section;
}  // namespace ond::framing

namespace ond::conformance {

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : rng_(seed) {}
    // Returns the mutated bytes; `what` (if given) receives a short description of the change.
    // Inputs whose framing does not parse get a byte-level mutation.
    std::string mutate(std::string_view input, std::string* what = nullptr);
    std::mt19937_64& rng() { return rng_; }

private:
    std::uint64_t pick(std::uint64_t n) { return n ? std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_) : 0; }
    std::string byte_mutation(std::string data, std::string* what);
    // The parts of mutate(), each drawing from the one generator in a fixed order (a seed gives
    // the same cases): new bytes for the field content[pos, pos + len); a section removed,
    // repeated, swapped, inserted or renumbered (its description; none: `l` holds no fit, and a
    // byte-level mutation is made instead); one framing field left wrong (the bytes).
    std::string field_replacement(const std::string& content, std::size_t pos, std::size_t len);
    std::optional<std::string> section_mutation(framing::Layout& l);
    std::string framing_mutation(framing::Layout& l, std::string* what);
    std::mt19937_64 rng_;
};

}  // namespace ond::conformance
