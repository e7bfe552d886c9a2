// A counting global operator new (a replacement of the global operator new and delete, in
// alloc_counter.cpp) for the binaries that measure memory, the benchmarks and the property tests:
// live bytes (as malloc_usable_size counts them) and their high-water mark. Only allocations
// through operator new are seen (the codec and the model allocate that way); malloc called
// directly (zlib's inflate state, msgpack's zone) is not.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ond::alloc {

std::uint64_t live_bytes() noexcept;
std::uint64_t peak_bytes() noexcept;
std::uint64_t allocations() noexcept;  // calls to operator new so far
// Starts a new high-water mark at the current live bytes.
void reset_peak() noexcept;

// Peak bytes above the live bytes at construction, over the scope's lifetime.
class PeakScope {
public:
    PeakScope() noexcept : base_(live_bytes()), calls_(allocations()) { reset_peak(); }
    std::uint64_t peak() const noexcept { return peak_bytes() - base_; }
    std::uint64_t calls() const noexcept { return allocations() - calls_; }

private:
    std::uint64_t base_;
    std::uint64_t calls_;
};

}  // namespace ond::alloc
