// The no-exceptions half of the `noexcept` harness: compiled with -fno-exceptions against the
// renamed copy of the codec (fuzz/CMakeLists.txt: the macro `ond` makes every ond:: here
// ond_noexcept_::), so outcomes.hpp, included here and in noexcept_fuzzer.cpp, reads the same
// bytes through the other codec. Defined outside namespace ond, so the name is not renamed.
#include <cstddef>
#include <cstdint>
#include <string>

#if !defined(ond) || defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "compile with -fno-exceptions against ond_codec_noexcept_renamed"
#endif

#include "ond/internal/outcomes.hpp"

std::string noexcept_outcomes(const std::uint8_t* data, std::size_t size);

std::string noexcept_outcomes(const std::uint8_t* data, std::size_t size) {
    return describe_outcomes(ond::as_bytes(data, size));
}
