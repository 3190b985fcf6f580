// Env indices for error messages: the first ten, then how many in all.
#pragma once

#include <string>
#include <vector>

namespace joltgym {

inline std::string EnvList(const std::vector<int>& envs) {
  std::string out;
  for (size_t k = 0; k < envs.size() && k < 10; ++k) out += (k ? ", " : "") + std::to_string(envs[k]);
  if (envs.size() > 10) out += ", ... (" + std::to_string(envs.size()) + " envs)";
  return out;
}

}  // namespace joltgym
