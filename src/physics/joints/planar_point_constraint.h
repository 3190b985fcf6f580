// The hinge of a planar link (SolverDesc::planar_links): both bodies already move only in
// the plane and turn only about its normal, a world axis, so the shared anchor needs just
// its two in-plane rows, and every product is a scalar one: the 2x2 effective mass costs a
// few dozen flops where Jolt's 3-D point constraint spends many times that per setup, and with
// its velocity and position solves a large share of a HalfCheetah step.
// The rows' solution is the 3-D constraint's: the out-of-plane row never has anything to do.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/TwoBodyConstraint.h>

#include "physics/core/own_constraint_settings.h"

namespace joltgym {

class PlanarPointConstraint final : public OwnConstraint {
 public:
  // anchor: the hinge's world position with both bodies at their current poses; normal_axis:
  // the plane's normal (0, 1 or 2: world x, y or z).
  PlanarPointConstraint(JPH::Body& parent, JPH::Body& child, JPH::RVec3Arg anchor, int normal_axis,
                        JPH::uint32 priority);

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User3; }
  void ResetWarmStart() override { lambda_u_ = lambda_w_ = 0.0f; }
  void SetupVelocityConstraint(float) override { Setup(); }
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float) override;
  bool SolvePositionConstraint(float, float baumgarte) override;
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  struct Side {
    JPH::Vec3 r_local;          // anchor in the body's centre-of-mass frame (world frame for the world)
    float inv_mass = 0.0f;
    float inv_inertia = 0.0f;   // about the plane's normal: constant while the body turns about it
    JPH::Vec3 r;                // world arm from the centre of mass, at the last setup
    float arm_u = 0.0f, arm_w = 0.0f;  // (n x r) along the row axes: the rows' angular lever
  };
  void Setup();
  // Applies the in-plane impulse (lu, lw) to body 2 and its opposite to body 1, as velocity
  // (positions = false) or as a position step.
  void Apply(float lu, float lw, bool positions);

  JPH::Vec3 n_, u_, w_;  // unit world axes: the plane's normal, the first and the second row
  Side side_[2];
  float mass_uu_ = 0.0f, mass_uw_ = 0.0f, mass_ww_ = 0.0f;  // the inverse of the 2x2 K
  float lambda_u_ = 0.0f, lambda_w_ = 0.0f;
};

}  // namespace joltgym
