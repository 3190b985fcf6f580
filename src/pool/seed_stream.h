// Each pooled env's stream of episode seeds (SplitMix64): reseeding sets the state, every
// reset draws the next seed, so an env's episodes never depend on its neighbours.
#pragma once

#include <cstdint>

namespace joltgym {

inline std::uint64_t NextSeed(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace joltgym
