// Counts the heap bytes this test binary holds (a replacement of the global operator new and
// delete, in alloc_counter.cpp), so that a property can bound a decode's peak memory.
#pragma once

#include <cstddef>

namespace ond::prop {

// Starts a measurement: the peak is reset to what is held now.
void alloc_reset_peak() noexcept;
// Bytes held now and the highest value since alloc_reset_peak().
std::size_t alloc_current() noexcept;
std::size_t alloc_peak() noexcept;

}  // namespace ond::prop
