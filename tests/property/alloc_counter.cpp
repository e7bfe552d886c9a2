#include "alloc_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::size_t> current{0};
std::atomic<std::size_t> peak{0};

// Each block carries its size in a 16-byte prefix (keeps the 16-byte alignment of new).
constexpr std::size_t prefix = 16;

void* allocate(std::size_t n) {
    void* p = std::malloc(n + prefix);
    if (!p) throw std::bad_alloc();
    *static_cast<std::size_t*>(p) = n;
    const std::size_t now = current.fetch_add(n, std::memory_order_relaxed) + n;
    std::size_t seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
    return static_cast<char*>(p) + prefix;
}

void release(void* q) noexcept {
    if (!q) return;
    void* p = static_cast<char*>(q) - prefix;
    current.fetch_sub(*static_cast<std::size_t*>(p), std::memory_order_relaxed);
    std::free(p);
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return allocate(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return allocate(n);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }

namespace ond::prop {

void alloc_reset_peak() noexcept { peak.store(current.load(std::memory_order_relaxed), std::memory_order_relaxed); }
std::size_t alloc_current() noexcept { return current.load(std::memory_order_relaxed); }
std::size_t alloc_peak() noexcept { return peak.load(std::memory_order_relaxed); }

}  // namespace ond::prop
