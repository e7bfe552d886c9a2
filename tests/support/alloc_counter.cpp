#include "alloc_counter.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace ond::alloc {
namespace {
std::atomic<std::uint64_t> g_live{0};
std::atomic<std::uint64_t> g_peak{0};
std::atomic<std::uint64_t> g_calls{0};
std::atomic<std::uint64_t> g_requested{0};
std::atomic<std::uint64_t> g_largest{0};

void* counted_alloc(std::size_t n) {
    void* p = std::malloc(n == 0 ? 1 : n);
    if (!p) return nullptr;
    g_requested.fetch_add(n, std::memory_order_relaxed);
    std::uint64_t largest = g_largest.load(std::memory_order_relaxed);
    while (n > largest && !g_largest.compare_exchange_weak(largest, n, std::memory_order_relaxed)) {
    }
    const std::uint64_t size = malloc_usable_size(p);
    const std::uint64_t live = g_live.fetch_add(size, std::memory_order_relaxed) + size;
    g_calls.fetch_add(1, std::memory_order_relaxed);
    std::uint64_t peak = g_peak.load(std::memory_order_relaxed);
    while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
    }
    return p;
}

void counted_free(void* p) noexcept {
    if (!p) return;
    g_live.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
    std::free(p);
}
}  // namespace

std::uint64_t live_bytes() noexcept { return g_live.load(std::memory_order_relaxed); }
std::uint64_t peak_bytes() noexcept { return g_peak.load(std::memory_order_relaxed); }
std::uint64_t allocations() noexcept { return g_calls.load(std::memory_order_relaxed); }
void reset_peak() noexcept { g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed); }
std::uint64_t requested_bytes() noexcept { return g_requested.load(std::memory_order_relaxed); }
std::uint64_t largest_request() noexcept { return g_largest.load(std::memory_order_relaxed); }
void reset_largest_request() noexcept { g_largest.store(0, std::memory_order_relaxed); }

}  // namespace ond::alloc

using ond::alloc::counted_alloc;
using ond::alloc::counted_free;

void* operator new(std::size_t n) {
    if (void* p = counted_alloc(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    if (void* p = counted_alloc(n)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
