#include "physics/joints/gimbal.h"

#include <Jolt/Math/Mat44.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace joltgym {

namespace {

// The relative rotation R = Rx(q1) Ry(q2) Rz(q3) in the basis frame, and q1's and q2's cosines
// and sines read off its entries rather than through atan2 and sin/cos (those calls would be a
// tenth of a HumanoidStandup step).
struct GimbalFrame {
  JPH::Quat frame;  // parent_rest * basis
  JPH::Mat44 r;
  float c1, s1, c2, s2;
};

GimbalFrame ReadGimbal(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child, bool two_hinges) {
  GimbalFrame g;
  g.frame = parent_rest * basis;
  g.r = JPH::Mat44::sRotation((g.frame.Conjugated() * child * basis).Normalized());
  if (two_hinges) {
    // Rx(q1) Ry(q2) has the column (0, cos q1, sin q1) and the row (cos q2, 0, sin q2): both angles over
    // the whole circle, with no singular pose.
    const float n1 = std::sqrt(g.r(1, 1) * g.r(1, 1) + g.r(2, 1) * g.r(2, 1));
    const float n2 = std::sqrt(g.r(0, 0) * g.r(0, 0) + g.r(0, 2) * g.r(0, 2));
    g.c1 = n1 > 1.0e-12f ? g.r(1, 1) / n1 : 1.0f;
    g.s1 = n1 > 1.0e-12f ? g.r(2, 1) / n1 : 0.0f;
    g.c2 = n2 > 1.0e-12f ? g.r(0, 0) / n2 : 1.0f;
    g.s2 = n2 > 1.0e-12f ? g.r(0, 2) / n2 : 0.0f;
    return g;
  }
  g.s2 = std::clamp(g.r(0, 2), -1.0f, 1.0f);
  // (r22, -r12) = cos(q2) (cos q1, sin q1); at gimbal lock q1 reads 0, as atan2(0, 0) does.
  const float cos_q2 = std::sqrt(g.r(1, 2) * g.r(1, 2) + g.r(2, 2) * g.r(2, 2));  // entries <= 1: no hypot needed
  g.c1 = cos_q2 > 1.0e-12f ? g.r(2, 2) / cos_q2 : 1.0f;
  g.s1 = cos_q2 > 1.0e-12f ? -g.r(1, 2) / cos_q2 : 0.0f;
  g.c2 = std::sqrt(std::max(0.0f, 1.0f - g.s2 * g.s2));
  return g;
}

void FillAxes(const GimbalFrame& g, bool two_hinges, GimbalCoordinates& out) {
  // World joint axes: a1; a2 after q1; a3 after q1 and q2 (Rz leaves z alone).
  const JPH::Vec3 e1 = g.frame * JPH::Vec3::sAxisX();
  const JPH::Vec3 e2 = g.frame * JPH::Vec3(0.0f, g.c1, g.s1);
  out.axes[0] = e1;
  out.axes[1] = e2;
  if (two_hinges) {  // e1 and e2 stay orthogonal; the locked third direction is their normal
    out.axes[2] = e1.Cross(e2);
    for (int k = 0; k < 3; ++k) out.rate_rows[k] = out.axes[k];
    return;
  }
  const JPH::Vec3 e3 = g.frame * JPH::Vec3(g.s2, -g.s1 * g.c2, g.c1 * g.c2);
  // Rows of [e1 e2 e3]^-1; the determinant is cos(q2) >= 0, kept away from zero at gimbal lock.
  const float det = std::max(g.c2, 1.0e-3f);
  out.rate_rows[0] = e2.Cross(e3) / det;
  out.rate_rows[1] = e3.Cross(e1) / det;
  out.rate_rows[2] = e1.Cross(e2) / det;
  out.axes[2] = e3;
}

// The rotation by q about one axis as a quaternion's (sin(q/2), cos(q/2)), from cos q and sin q:
// each half-angle term from whichever of 1 +- cos q is not cancelling.
std::pair<float, float> HalfTurn(float c, float s) {
  if (c >= 0.0f) {
    const float ch = std::sqrt(0.5f * (1.0f + c));
    return {s / (2.0f * ch), ch};
  }
  const float sh = std::copysign(std::sqrt(0.5f * (1.0f - c)), s);
  return {sh, s / (2.0f * sh)};
}

}  // namespace

GimbalCoordinates MeasureGimbal(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child, bool two_hinges) {
  const GimbalFrame g = ReadGimbal(parent_rest, basis, child, two_hinges);
  GimbalCoordinates out;
  if (two_hinges) {
    // The rotation left after Rx(q1) Ry(q2), about their normal: its (x . R x, x's normal component).
    const float along = g.r(0, 0) * g.c2 + g.s2 * (g.r(1, 0) * g.s1 - g.r(2, 0) * g.c1);
    const float across = g.r(1, 0) * g.c1 + g.r(2, 0) * g.s1;
    out.angles = JPH::Vec3(std::atan2(g.s1, g.c1), std::atan2(g.s2, g.c2), std::atan2(across, along) * g.c2);
  } else {
    out.angles = JPH::Vec3(std::atan2(g.s1, g.c1), std::asin(g.s2), std::atan2(-g.r(0, 1), g.r(0, 0)));
  }
  FillAxes(g, two_hinges, out);
  return out;
}

GimbalCoordinates MeasureGimbalAxes(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child, bool two_hinges) {
  const GimbalFrame g = ReadGimbal(parent_rest, basis, child, two_hinges);
  GimbalCoordinates out;
  out.angles = JPH::Vec3::sZero();
  FillAxes(g, two_hinges, out);
  return out;
}

JPH::Quat TwoHingeRotation(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child) {
  const GimbalFrame g = ReadGimbal(parent_rest, basis, child, true);
  const auto [sh1, ch1] = HalfTurn(g.c1, g.s1);
  const auto [sh2, ch2] = HalfTurn(g.c2, g.s2);
  // Rx(q1) Ry(q2) = (sh1, 0, 0, ch1) (0, sh2, 0, ch2)
  const JPH::Quat turn(ch2 * sh1, ch1 * sh2, sh1 * sh2, ch1 * ch2);
  return (g.frame * turn * basis.Conjugated()).Normalized();
}

JPH::Vec3 GimbalAnchorOnChild(const JPH::Vec3* anchors, int count, int slot, JPH::QuatArg basis, JPH::Vec3Arg angles) {
  const JPH::Vec3 axes[3] = {JPH::Vec3::sAxisX(), JPH::Vec3::sAxisY(), JPH::Vec3::sAxisZ()};
  JPH::Vec3 y = anchors[slot];
  for (int j = slot + 1; j < count; ++j) {
    const JPH::Quat undo = JPH::Quat::sRotation(basis * axes[j], -angles[j]);
    y = anchors[j] + undo * (y - anchors[j]);
  }
  return y;
}

}  // namespace joltgym
