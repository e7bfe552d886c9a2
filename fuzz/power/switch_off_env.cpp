// Linked into the fuzz-power builds of the harnesses (<harness>_fuzzer_switchable, on the
// codec's test-only ond_codec_switchable): before the first input, switches off the reader check
// or writer rule named by OND_FUZZ_OFF (an error code such as section.trailing-bytes, or a writer
// rule's id from writer_rules.def), so that fuzz/power/power.py can ask whether a harness notices it is gone.
// A static initializer rather than LLVMFuzzerInitialize, which some harnesses define themselves.
#include <cstdio>
#include <cstdlib>

#include "ond/internal/check_switch.hpp"

namespace {

const bool switched_off = [] {
    const char* name = std::getenv("OND_FUZZ_OFF");
    if (!name || !*name) return false;
    if (!ond::detail::switch_off(name)) {
        std::fprintf(stderr, "ond-fuzz-power: OND_FUZZ_OFF=%s is neither an error code nor a writer rule\n", name);
        std::_Exit(3);
    }
    std::fprintf(stderr, "ond-fuzz-power: %s switched off\n", name);
    return true;
}();

}  // namespace
