// A spatial tendon straight between a point on body 1 and a point on body 2, whose length L may
// not leave [range_lo, range_hi] (dm_control's ball_in_cup's string): MuJoCo's tendon limit
// (mj_instantiateLimit), one soft row per side, engaged while that side's distance
// (L - range_lo, range_hi - L) is below the margin at the step's start, with the softness and
// reference of soft_limit.h. Its Jacobian is MuJoCo's ten_J: the points' relative velocity
// along the unit vector between them, +u at the lower limit (which may only push the points
// apart) and -u at the upper (which may only pull them together).
#pragma once

#include "physics/core/own_constraint_settings.h"
#include "physics/core/soft_limit.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/ConstraintPart/AxisConstraintPart.h>

namespace joltgym {

struct TendonLimitParams {
  JPH::Vec3 point_local1;  // the tendon's end on body 1, in its centre-of-mass frame
  JPH::Vec3 point_local2;
  float range_lo = 0.0f, range_hi = 0.0f;
  SoftLimit limit;
};

class TendonLimitConstraint final : public OwnConstraint {
 public:
  TendonLimitConstraint(JPH::Body& body1, JPH::Body& body2, const TendonLimitParams& params);

  // Call before each physics update, while the bodies still move as at its start (before any
  // force of the update reaches their velocities): reads the length and its rate.
  void BeginStep();

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User2; }
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  // One side's row along `axis` (+u lower, -u upper) at `distance` into the range; false: inactive.
  bool SetupSide(JPH::AxisConstraintPart& row, float dt, float distance, float sign);

  TendonLimitParams params_;
  float length_ = 0.0f, rate_ = 0.0f;  // MuJoCo's ten_length and ten_velocity at the update's start
  JPH::Vec3 direction_ = JPH::Vec3::sAxisX();  // u, from the end on body 1 to the end on body 2
  JPH::Vec3 r1_plus_u_ = JPH::Vec3::sZero();  // body 2's end from body 1's centre of mass
  JPH::Vec3 r2_ = JPH::Vec3::sZero();
  JPH::AxisConstraintPart lower_, upper_;
};

}  // namespace joltgym
