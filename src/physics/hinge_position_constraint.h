// A 3-D hinge whose velocity rows an ArticulationConstraint solves: this constraint only
// corrects positional drift (Jolt's hinge position step: anchor, then axis alignment) and
// links its two bodies into one island, so that Jolt iterates the robot's rows together.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/ConstraintPart/HingeRotationConstraintPart.h>
#include <Jolt/Physics/Constraints/ConstraintPart/PointConstraintPart.h>

#include "physics/own_constraint_settings.h"

namespace joltgym {

class HingePositionConstraint final : public OwnConstraint {
 public:
  // Anchor and axis in each body's centre-of-mass frame (the world's frame for a fixed body).
  HingePositionConstraint(JPH::Body& parent, JPH::Body& child, JPH::Vec3Arg anchor_local1, JPH::Vec3Arg anchor_local2,
                          JPH::Vec3Arg axis_local1, JPH::Vec3Arg axis_local2, JPH::uint32 priority);

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User4; }
  void ResetWarmStart() override {}
  void SetupVelocityConstraint(float) override {}
  void WarmStartVelocityConstraint(float) override {}
  bool SolveVelocityConstraint(float) override { return false; }
  bool SolvePositionConstraint(float, float baumgarte) override;

 private:
  JPH::Vec3 anchor_local1_, anchor_local2_, axis_local1_, axis_local2_;
  JPH::PointConstraintPart point_;
  JPH::HingeRotationConstraintPart rotation_;
};

}  // namespace joltgym
