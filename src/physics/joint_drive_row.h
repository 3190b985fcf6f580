// One soft constraint row along a joint's axis that reproduces MuJoCo's armature
// (reflected inertia) and joint damping, both solved implicitly.
//
// Per time step h, with q' the joint rate before the step and q'+ after it, the
// row's impulse is
//   lambda = -(a + h c) q'+  +  a q'
// i.e. a (q'+ - q')/h = -c q'+: armature adds to the joint-space mass exactly as
// MuJoCo's M + diag(armature), and damping is implicit as in MuJoCo's Euler
// integrator. Adding armature to a body's inertia instead is wrong by orders of
// magnitude (it is inertia of the joint, not of the link). Joint stiffness is an
// explicit torque, as in every MuJoCo integrator (see World::ApplyJointSprings).
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/ConstraintPart/AngleConstraintPart.h>
#include <Jolt/Physics/Constraints/ConstraintPart/AxisConstraintPart.h>
#include <Jolt/Physics/Constraints/TwoBodyConstraint.h>

namespace joltgym {

struct JointDriveParams {
  bool angular = true;       // hinge (angular row) or slide (linear row)
  JPH::Vec3 axis_local1;     // joint axis in body 1's COM frame
  JPH::Vec3 anchor_local2;   // anchor in body 2's COM frame (linear rows)
  float armature = 0.0f;
  float damping = 0.0f;
};

class JointDriveRow final : public JPH::TwoBodyConstraint {
 public:
  JointDriveRow(JPH::Body& parent, JPH::Body& child, const JointDriveParams& params);

  // Call before each physics update with the joint rate at the start of the step.
  void BeginStep(float joint_rate) { rate_before_ = joint_rate; }

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User1; }
  void NotifyShapeChanged(const JPH::BodyID&, JPH::Vec3Arg) override {}
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  JPH::Mat44 GetConstraintToBody1Matrix() const override { return JPH::Mat44::sIdentity(); }
  JPH::Mat44 GetConstraintToBody2Matrix() const override { return JPH::Mat44::sIdentity(); }
  JPH::Ref<JPH::ConstraintSettings> GetConstraintSettings() const override;
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  JointDriveParams params_;
  float rate_before_ = 0.0f;
  JPH::Vec3 world_axis_ = JPH::Vec3::sZero();
  JPH::Vec3 r2_ = JPH::Vec3::sZero();
  JPH::AngleConstraintPart angular_;
  JPH::AxisConstraintPart linear_;
};

}  // namespace joltgym
