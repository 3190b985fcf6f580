// Validation of actions coming from a policy.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

// Index of the first NaN or infinite entry, or -1.
inline int FirstNonFinite(const float* values, int n) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(values[i])) return i;
  return -1;
}

inline void RequireFiniteAction(const float* action, int n) {
  const int bad = FirstNonFinite(action, n);
  if (bad >= 0)
    throw std::invalid_argument("action contains a non-finite value (" + std::to_string(action[bad]) +
                                ") at index " + std::to_string(bad));
}

}  // namespace joltgym
