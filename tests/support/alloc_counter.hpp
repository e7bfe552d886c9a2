// A counting global operator new (a replacement of the global operator new and delete, in
// alloc_counter.cpp) for the binaries that measure memory (the benchmarks, the property tests,
// the stream tests): live bytes (as malloc_usable_size counts them) and their high-water mark,
// and the sizes asked for (their sum, the largest one). Only allocations
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
std::uint64_t requested_bytes() noexcept;  // the sizes passed to operator new so far, summed
std::uint64_t largest_request() noexcept;  // the largest size passed since reset_largest_request()
void reset_largest_request() noexcept;

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

// The sizes requested over the scope's lifetime: their sum and the largest one (so a test can show
// that memory follows the bytes that arrived, not a length a header declares). One at a time.
class RequestScope {
public:
    RequestScope() noexcept : base_(requested_bytes()) { reset_largest_request(); }
    std::uint64_t total() const noexcept { return requested_bytes() - base_; }
    std::uint64_t largest() const noexcept { return largest_request(); }

private:
    std::uint64_t base_;
};

}  // namespace ond::alloc
