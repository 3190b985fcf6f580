#include "physics/core/soft_limit.h"

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

constexpr float kMinImpedance = 0.0001f, kMaxImpedance = 0.9999f;  // MuJoCo's mjMINIMP, mjMAXIMP
constexpr float kMinValue = 1e-15f;                                  // MuJoCo's mjMINVAL

float Clamp01(float d) { return std::clamp(d, kMinImpedance, kMaxImpedance); }

}  // namespace

SoftLimit SoftLimit::FromMuJoCo(const std::array<float, 2>& solref, const std::array<float, 5>& solimp, float margin,
                                float invweight, float timestep) {
  SoftLimit s;
  s.dmin = Clamp01(solimp[0]);
  s.dmax = Clamp01(solimp[1]);
  s.width = std::max(0.0f, solimp[2]);
  s.midpoint = Clamp01(solimp[3]);
  s.power = std::max(1.0f, solimp[4]);
  s.margin = margin;
  s.invweight = invweight;
  std::array<float, 2> ref = solref;
  if ((ref[0] > 0.0f) != (ref[1] > 0.0f)) ref = {0.02f, 1.0f};  // mixed formats: MuJoCo's default
  if (ref[0] > 0.0f) {
    const float timeconst = std::max(ref[0], 2.0f * timestep);
    s.stiffness = 1.0f / std::max(kMinValue, s.dmax * s.dmax * timeconst * timeconst * ref[1] * ref[1]);
    s.damping = 2.0f / std::max(kMinValue, s.dmax * timeconst);
  } else {
    s.stiffness = -ref[0] / std::max(kMinValue, s.dmax * s.dmax);
    s.damping = -ref[1] / std::max(kMinValue, s.dmax);
  }
  return s;
}

float SoftLimit::Impedance(float distance) const {
  if (dmin == dmax || width <= kMinValue) return 0.5f * (dmin + dmax);
  const float x = std::abs(distance - margin) / width;
  if (x >= 1.0f) return dmax;
  if (x <= 0.0f) return dmin;
  float y;
  if (power == 1.0f) {
    y = x;
  } else if (x <= midpoint) {
    y = std::pow(x, power) / std::pow(midpoint, power - 1.0f);
  } else {
    y = 1.0f - std::pow(1.0f - x, power) / std::pow(1.0f - midpoint, power - 1.0f);
  }
  return dmin + y * (dmax - dmin);
}

void SoftLimit::Row(float distance, float rate, float h, float& softness, float& target) const {
  const float d = Impedance(distance);
  softness = std::max(kMinValue, (1.0f - d) * invweight / d);
  target = rate - h * (damping * rate + stiffness * d * (distance - margin));
}

}  // namespace joltgym
