// The codec built without exceptions against the throwing one, in one process: what
// outcomes.hpp prints of the input (every try_ form, every reader, the listings: an error's
// code, offset, path and detail, a digest of what was read) through ond::codec here and through
// a renamed copy of ond::codec_noexcept's build (noexcept_side.cpp) must be the same, line for
// line. Under ASan and UBSan this also runs the no-exceptions error paths (a check that returns
// instead of throwing, every caller leaving through OND_BAIL) on inputs no corpus holds. Uses the
// structure-aware mutator.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#ifdef ond
#error "this half links the throwing codec, not the renamed one"
#endif

#include "fuzz_support.hpp"
#include "mutator.hpp"
#include "ond/internal/outcomes.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

std::string noexcept_outcomes(const std::uint8_t* data, std::size_t size);

namespace {

// The first line where the two texts differ, numbered from 1, as each has it.
std::string first_difference(std::string_view with, std::string_view without) {
    std::size_t number = 1, begin = 0;
    for (;;) {
        const std::size_t a = with.find('\n', begin), b = without.find('\n', begin);
        const std::string_view la = with.substr(begin, a == std::string_view::npos ? a : a - begin);
        const std::string_view lb = without.substr(begin, b == std::string_view::npos ? b : b - begin);
        if (la != lb || a != b || a == std::string_view::npos) {
            return "line " + std::to_string(number) + "\n  with exceptions:    " + std::string(la) +
                   "\n  without exceptions: " + std::string(lb);
        }
        begin = a + 1;
        ++number;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string with = describe_outcomes(ond::as_bytes(data, size));
    const std::string without = noexcept_outcomes(data, size);
    OND_FUZZ_CHECK_MSG(with == without, first_difference(with, without));
    return 0;
}
