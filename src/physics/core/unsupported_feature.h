// The error for an MJCF element or a solver setting the Jolt mapping does not support; its
// message names the element. Python sees it as joltgym.UnsupportedFeatureError.
#pragma once

#include <stdexcept>

namespace joltgym {

class UnsupportedFeature : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace joltgym
