// The constraint of a multi-hinge body (see gimbal.h): the shared anchor as a point
// constraint and, with two hinges, a lock on the third rotation (a1 x a2). Armature,
// damping and ranges of each coordinate are JointAxisConstraint rows driven along the
// coordinate's rate row, so one body needs no helper bodies and no chain of hinges.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/ConstraintPart/AngleConstraintPart.h>
#include <Jolt/Physics/Constraints/ConstraintPart/PointConstraintPart.h>
#include <Jolt/Physics/Constraints/TwoBodyConstraint.h>

#include "physics/core/own_constraint_settings.h"

namespace joltgym {

struct GimbalParams {
  JPH::Vec3 anchor_local1;   // anchor in body 1's COM frame (world frame for the world)
  JPH::Vec3 anchor_local2;   // anchor in body 2's COM frame
  JPH::Quat rest_in_parent;  // body 2's body frame in body 1's, all coordinates zero
  JPH::Quat basis;           // (a1, a2, a1 x a2) as columns, body 2's body frame
  bool lock_third = false;   // two hinges: the third rotation is held at zero
};

class GimbalConstraint final : public OwnConstraint {
 public:
  GimbalConstraint(JPH::Body& parent, JPH::Body& child, const GimbalParams& params);

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User2; }
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float dt, float baumgarte) override;
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  void SetupPoint();
  // The locked rotation's angle and rate row at the bodies' current orientations.
  float SetupLock();

  GimbalParams params_;
  JPH::PointConstraintPart point_;
  JPH::AngleConstraintPart lock_;
  JPH::Vec3 lock_row_ = JPH::Vec3::sZero();
};

}  // namespace joltgym
