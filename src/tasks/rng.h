// The per-environment random stream for reset noise. Transforms are written out
// (not std::*_distribution) so a seed gives the same noise with any standard library.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>

namespace joltgym {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) : engine_(seed) {}
  void Seed(std::uint64_t seed) { engine_.seed(seed); }

  // Uniform in [0, 1).
  double Unit() { return double(engine_() >> 11) * (1.0 / 9007199254740992.0); }
  float Uniform(float lo, float hi) { return float(lo + (hi - lo) * Unit()); }
  // Standard normal (Box-Muller; one draw per call keeps the stream simple to reason about).
  float Normal() {
    const double u1 = 1.0 - Unit();  // (0, 1]
    const double u2 = Unit();
    return float(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }

 // The stream's exact position as raw bytes (a saved env's state), valid within one build.
  template <class Recorder>
  void SaveTo(Recorder& out) const {
    out.WriteBytes(&engine_, sizeof(engine_));
  }
  template <class Recorder>
  void RestoreFrom(Recorder& in) {
    in.ReadBytes(&engine_, sizeof(engine_));
  }

 private:
  static_assert(std::is_trivially_copyable_v<std::mt19937_64>, "Rng::SaveTo copies the engine's bytes");
  std::mt19937_64 engine_;
};

}  // namespace joltgym
