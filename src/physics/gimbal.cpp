#include "physics/gimbal.h"

#include <Jolt/Math/Mat44.h>

#include <algorithm>
#include <cmath>

namespace joltgym {

GimbalCoordinates MeasureGimbal(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child) {
  const JPH::Quat frame = parent_rest * basis;
  // R = Rx(q1) Ry(q2) Rz(q3) in the basis frame.
  const JPH::Mat44 r = JPH::Mat44::sRotation((frame.Conjugated() * child * basis).Normalized());
  GimbalCoordinates out;
  const float s2 = std::clamp(r(0, 2), -1.0f, 1.0f);
  const float q1 = std::atan2(-r(1, 2), r(2, 2));
  out.angles = JPH::Vec3(q1, std::asin(s2), std::atan2(-r(0, 1), r(0, 0)));

  // World joint axes: a1; a2 after q1; a3 after q1 and q2 (Rz leaves z alone).
  const float c1 = std::cos(q1), s1 = std::sin(q1), c2 = std::sqrt(std::max(0.0f, 1.0f - s2 * s2));
  const JPH::Vec3 e1 = frame * JPH::Vec3::sAxisX();
  const JPH::Vec3 e2 = frame * JPH::Vec3(0.0f, c1, s1);
  const JPH::Vec3 e3 = frame * JPH::Vec3(s2, -s1 * c2, c1 * c2);
  // Rows of [e1 e2 e3]^-1; the determinant is cos(q2) >= 0, kept away from zero at gimbal lock.
  const float det = std::max(c2, 1.0e-3f);
  out.rate_rows[0] = e2.Cross(e3) / det;
  out.rate_rows[1] = e3.Cross(e1) / det;
  out.rate_rows[2] = e1.Cross(e2) / det;
  out.axes[0] = e1;
  out.axes[1] = e2;
  out.axes[2] = e3;
  return out;
}

}  // namespace joltgym
