// Row r of a row-major [rows, width] array copied to row k of another: the asynchronous pools
// gather a batch's rows out of every env's.
#pragma once

#include <algorithm>
#include <cstddef>

namespace joltgym {

template <class T>
void CopyRow(const T* from, size_t r, T* to, size_t k, size_t width) {
  std::copy(from + r * width, from + (r + 1) * width, to + k * width);
}

}  // namespace joltgym
