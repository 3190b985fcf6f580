// Validation of actions coming from a policy.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

// Larger actions make the tasks' squared-action control costs overflow float32 (17 actuators
// at 1e18 sum to 1.7e37; one at 1.9e19 is already inf), so they are refused like NaN: a reward
// of -inf would poison a training run silently.
constexpr float kMaxActionMagnitude = 1.0e18f;

inline bool UnusableActionValue(float v) { return !(std::fabs(v) <= kMaxActionMagnitude); }  // NaN too

// What is wrong with an unusable value, for error messages.
inline std::string UnusableActionWhat(float v) {
  return std::isfinite(v) ? "a value beyond ±1e18 (" + std::to_string(v) + ")" : "a non-finite value (" + std::to_string(v) + ")";
}

// Index of the first NaN, infinite or too large entry, or -1.
inline int FirstUnusableActionValue(const float* values, int n) {
  for (int i = 0; i < n; ++i)
    if (UnusableActionValue(values[i])) return i;
  return -1;
}

inline void RequireUsableAction(const float* action, int n) {
  const int bad = FirstUnusableActionValue(action, n);
  if (bad >= 0)
    throw std::invalid_argument("action contains " + UnusableActionWhat(action[bad]) + " at index " +
                                std::to_string(bad));
}

}  // namespace joltgym
