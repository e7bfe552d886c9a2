#include "ond/internal/fault.hpp"

#include <cstdio>
#include <cstdlib>

namespace ond::detail {

void abort_with(const char* kind, const std::string& what) noexcept {
    std::fprintf(stderr, "ond: %s: %s\n", kind, what.c_str());
    std::abort();
}

#if OND_EXCEPTIONS
Bail raise(Error e) { throw std::move(e); }
#else
FaultSlot& fault_slot() noexcept {
    static thread_local FaultSlot slot;
    return slot;
}

Bail raise(Error e) {
    FaultSlot& slot = fault_slot();
    // Outside capture() nobody takes the error: a throwing call in a program without exceptions.
    if (slot.captures == 0) abort_with("error", e.what());
    if (!slot.error) slot.error = std::move(e);
    return {};
}
#endif

}  // namespace ond::detail
