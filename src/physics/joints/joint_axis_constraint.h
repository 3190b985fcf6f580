// The rows Jolt's hinge and slider lack, along one joint's axis:
//
// * Armature and damping, one soft row solved implicitly. Per step h, with q' the
//   joint rate before the step, q'+ after it and f the joint's motor and spring force,
//   the row's impulse is
//     lambda = -(a + h c) q'+  +  a q'  +  h f
//   i.e. a (q'+ - q')/h = f - c q'+: armature adds to the joint-space mass as MuJoCo's
//   M + diag(armature), damping is implicit as in MuJoCo's Euler integrator. Adding
//   armature to a body's inertia instead is wrong by orders of magnitude (it is
//   inertia of the joint, not of the link). Stiffness is an explicit torque, as in
//   every MuJoCo integrator (World::ApplyJointSprings).
//
// * The joint range, one-sided: by default MuJoCo's soft limit (soft_limit.h), which
//   engages once the joint is within its margin of the range and lets it in by about
//   what the joint carries over the limit's stiffness; or (SolverDesc::soft_limits off) a
//   hard speculative row: the joint may approach its limit by at most the remaining gap
//   in one step, so it stops exactly there. Jolt's own hinge/slider limits engage only
//   after the limit is passed and then correct positions, which tears joint anchors
//   apart under hard impacts.
//
// * Dry friction (MuJoCo's frictionloss), a bilateral soft row whose impulse stays within
//   +-frictionloss h: softness and target from MuJoCo's friction row (soft_limit.h at distance
//   zero: impedance dmin, no position term), so that, as in MuJoCo, a joint under a load below
//   its frictionloss creeps rather than sticks.
//
// A hinge's rows run along one axis between the same bodies, so they are solved together,
// exactly (the drive and the limit a 2x2 system per iteration, the limit clamped; with dry
// friction, all three as one scalar problem in the joint's rate). Solved one after the
// other, each row sees only the link's inertia while the drive row carries the armature:
// with Ant's armature 190x its link's, the limit row would need hundreds of iterations to
// let go of a joint leaving it: an Ant ankle starting outside its range would cross back at
// about half MuJoCo's rate, even at hundreds of iterations.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/ConstraintPart/AxisConstraintPart.h>
#include <Jolt/Physics/Constraints/TwoBodyConstraint.h>

#include <memory>

#include "physics/core/own_constraint_settings.h"

#include "physics/core/soft_limit.h"

namespace joltgym {

// A soft row along a joint's axis: J v + softness * total + bias = 0 at convergence.
struct AxisRowState {
  float softness = 0.0f;
  float bias = 0.0f;
  float total = 0.0f;  // accumulated impulse (warm start); positive raises the joint rate
  // A drive row whose damping its articulation applies after the constraints
  // (JointAxisParams::damping_after_constraints): h c, and the joint rate at the update's start
  // (the row then carries the armature and the damping explicitly, -h c rate_before).
  float damping_h = 0.0f;
  float rate_before = 0.0f;
};

struct JointAxisParams {
  bool angular = true;       // hinge (angular rows) or slide (linear rows)
  JPH::Vec3 axis_local1;     // joint axis in body 1's COM frame
  // The rate row is given each step (BeginStep's world_axis) instead of following
  // body 1: a coordinate of a multi-hinge body (gimbal.h).
  bool axis_from_step = false;
  // Deliver the joint's motor and spring forces through the drive row. Exact either way
  // once converged; it matters where the armature dwarfs the link (Reacher: 1 on 1e-4
  // kg m^2, Ant: 1 on ~1e-3): a torque put on the bodies first spins the light link up
  // thousands of times too fast, and the row, converging slowly against the joint's
  // other rows, never quite takes it back.
  bool forces_through_row = false;
  JPH::Vec3 anchor_local2;   // anchor in body 2's COM frame (linear rows)
  float armature = 0.0f;
  float damping = 0.0f;
  bool limited = false;
  float range_lo = 0.0f;     // in joint coordinates (MuJoCo's qpos)
  float range_hi = 0.0f;
  bool soft = true;          // MuJoCo's soft limit, else the hard speculative row
  SoftLimit soft_limit;
  float frictionloss = 0.0f; // bound of the dry-friction force; 0: no friction row
  SoftLimit friction;        // its softness and damping (margin 0)
  bool after_joints = true;  // solved after the joint constraints (SolverDesc::joint_rows_last)
  // MuJoCo's Euler order (SolverDesc::mujoco_euler; articulated rows only): the drive row carries
  // the armature and the damping as an explicit force, and the articulation applies the damping
  // implicitly after the constraint forces are found.
  bool damping_after_constraints = false;
};

class JointAxisConstraint final : public OwnConstraint {
 public:
  JointAxisConstraint(JPH::Body& parent, JPH::Body& child, const JointAxisParams& params);

  // Call before each physics update with the joint's coordinate and rate, and for
  // axis_from_step rows the world vector j with rate = j . (w2 - w1). `effort` is the
  // generalized force (motor, spring) the drive row delivers this step; see takes_joint_forces().
  void BeginStep(float q, float rate, JPH::Vec3Arg world_axis = JPH::Vec3::sZero(), float effort = 0.0f) {
    q_ = q;
    rate_before_ = rate;
    step_axis_ = world_axis;
    effort_ = effort;
  }

  // Another armature, implicit damping or dry-friction bound (per-env randomisation); a row the
  // constraint was built without (JointAxisParams) comes into use, the friction row's softness
  // stays the model's.
  void SetArmatureAndDamping(float armature, float damping) {
    params_.armature = armature;
    params_.damping = damping;
    has_drive_ = armature != 0.0f || damping != 0.0f;
  }
  void SetFrictionloss(float frictionloss) { params_.frictionloss = frictionloss; }
  const JointAxisParams& params() const { return params_; }

  // Whether the joint's forces go through the drive row instead of onto the bodies (see
  // JointAxisParams::forces_through_row).
  bool takes_joint_forces() const { return has_drive_ && params_.forces_through_row; }

  // The rows a tree's articulation solves (SolverDesc::articulated_joints; such a row is not in
  // Jolt's lists, so Jolt never solves it) for this update: null where the joint has none or
  // the limit is inactive. lower_limit: the limit may only push the rate up.
  struct ArticulatedRows {
    JPH::Vec3 axis;  // world
    AxisRowState* drive = nullptr;
    AxisRowState* limit = nullptr;
    bool lower_limit = true;
    AxisRowState* friction = nullptr;
    float friction_bound = 0.0f;  // the friction row's impulse stays within +-this
  };
  ArticulatedRows PrepareForArticulation(float dt);

  // Impulse the range limit applied in the last step (positive raises the joint rate).
  float limit_impulse() const {
    if (limit_side_ == LimitSide::None) return 0.0f;
    return linear_ ? linear_->limit.GetTotalLambda() : angular_limit_.total;
  }

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User1; }
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  enum class LimitSide : unsigned char { None, Lower, Upper };

  // A slide's rows along its axis, which Jolt solves; a hinge's rows are scalars on its rate
  // (AngularRow) and need none of them.
  struct LinearRows {
    JPH::AxisConstraintPart drive, limit, friction;
  };
  using AngularRow = AxisRowState;

  // The limit row's softness and bias for this step (Jolt's +rate direction); false: inactive.
  bool LimitRow(float dt, float& softness, float& bias);
  void SetupAngular(float dt);
  // The drive and limit rows' softness and bias (SetupAngular's, without the axis inertia).
  void SetupAngularRows(float dt);
  bool SolveAngular();
  // With a friction row: the drive, limit and friction rows solved together as one scalar problem.
  bool SolveAngularWithFriction(float k, float rate);
  void ApplyAngularImpulse(float impulse);
  // Makes the limit row act on `side` (none: off); a warm start from the other side would push the wrong way.
  void SetLimitSide(LimitSide side);
  bool SolveLinear(JPH::AxisConstraintPart& row, float min_lambda, float max_lambda);

  JointAxisParams params_;
  bool has_drive_;
  float q_ = 0.0f;
  float rate_before_ = 0.0f;
  float effort_ = 0.0f;
  LimitSide limit_side_ = LimitSide::None;
  JPH::Vec3 world_axis_ = JPH::Vec3::sZero();
  JPH::Vec3 step_axis_ = JPH::Vec3::sZero();
  JPH::Vec3 r1_plus_u_ = JPH::Vec3::sZero();
  JPH::Vec3 r2_ = JPH::Vec3::sZero();
  std::unique_ptr<LinearRows> linear_;  // a slide's only
  AngularRow angular_drive_;
  AngularRow angular_limit_;
  AngularRow angular_friction_;
  float friction_bound_ = 0.0f;  // frictionloss h of this update
  JPH::Vec3 inv_i1_axis_ = JPH::Vec3::sZero();  // I1^-1 axis, I2^-1 axis (world)
  JPH::Vec3 inv_i2_axis_ = JPH::Vec3::sZero();
  float axis_inv_inertia_ = 0.0f;               // axis . (I1^-1 + I2^-1) axis
};

}  // namespace joltgym
