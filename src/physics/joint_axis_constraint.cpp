#include "physics/joint_axis_constraint.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cfloat>
#include <cmath>

namespace joltgym {
namespace {

// TwoBodyConstraint's constructor reads only the base settings (priority,
// iteration overrides); this constraint is never serialised.
class JointAxisSettings final : public JPH::TwoBodyConstraintSettings {
 public:
  JPH::TwoBodyConstraint* Create(JPH::Body&, JPH::Body&) const override { return nullptr; }
};

// Jolt's spring part is only soft for stiffness > 0; a negligible stiffness (with
// zero spring offset) makes the row soft without adding a spring.
constexpr float kNegligibleStiffness = 1.0e-9f;
// Fraction of a limit violation (from drift or a state set outside the range)
// removed per step.
constexpr float kLimitRecovery = 0.2f;
// The limit row engages this far ahead of the limit, beyond what the current
// rate covers in two steps, so that a strong torque cannot jump past it.
constexpr float kAngularLookahead = 0.05f;  // rad
constexpr float kLinearLookahead = 0.01f;   // m

}  // namespace

JointAxisConstraint::JointAxisConstraint(JPH::Body& parent, JPH::Body& child, const JointAxisParams& params)
    : JPH::TwoBodyConstraint(parent, child, JointAxisSettings()),
      params_(params),
      has_drive_(params.armature != 0.0f || params.damping != 0.0f) {}

void JointAxisConstraint::ResetWarmStart() {
  for (AxisRow* row : {&drive_, &limit_}) {
    row->angular.Deactivate();
    row->linear.Deactivate();
  }
}

void JointAxisConstraint::SetupVelocityConstraint(float dt) {
  world_axis_ = params_.axis_from_step ? step_axis_ : mBody1->GetRotation() * params_.axis_local1;
  if (!params_.angular) {
    r2_ = mBody2->GetRotation() * params_.anchor_local2;
    // r1 + u in Jolt's terms: body 2's anchor seen from body 1's COM.
    r1_plus_u_ = JPH::Vec3(mBody2->GetCenterOfMassPosition() - mBody1->GetCenterOfMassPosition()) + r2_;
  }
  if (has_drive_) {
    const float a = params_.armature;
    const float c = params_.damping;
    const float softness = 1.0f / (a + dt * c);
    const float bias = -softness * (a * rate_before_ + dt * effort_);
    const float damping = c + a / dt;
    if (params_.angular)
      drive_.angular.CalculateConstraintPropertiesWithStiffnessAndDamping(
          dt, *mBody1, *mBody2, world_axis_, bias, 0.0f, kNegligibleStiffness, damping);
    else
      drive_.linear.CalculateConstraintPropertiesWithStiffnessAndDamping(
          dt, *mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, bias, 0.0f, kNegligibleStiffness, damping);
  }
  if (params_.limited) {
    if (params_.soft)
      SetupSoftLimit(dt);
    else
      SetupLimit(dt);
  }
}

void JointAxisConstraint::SetLimitSide(LimitSide side) {
  if (side != limit_side_) {
    limit_.angular.Deactivate();
    limit_.linear.Deactivate();
  }
  limit_side_ = side;
}

void JointAxisConstraint::SetupSoftLimit(float dt) {
  const float gap_lo = q_ - params_.range_lo;
  const float gap_hi = params_.range_hi - q_;
  const bool lower = gap_lo < gap_hi;
  const float gap = lower ? gap_lo : gap_hi;
  if (!(gap < params_.soft_limit.margin)) {  // MuJoCo's activation: within the margin at the step's start
    SetLimitSide(LimitSide::None);
    return;
  }
  SetLimitSide(lower ? LimitSide::Lower : LimitSide::Upper);
  // The limit's row runs along +rate at the lower limit and -rate at the upper; Jolt's row
  // runs along +rate, so its bias is -sign * target (see soft_limit.h).
  const float sign = lower ? 1.0f : -1.0f;
  float softness, target;
  params_.soft_limit.Row(gap, sign * rate_before_, dt, softness, target);
  const float bias = -sign * target;
  const float damping = 1.0f / (dt * softness);  // Jolt's softness is 1 / (dt (damping + dt stiffness))
  if (params_.angular)
    limit_.angular.CalculateConstraintPropertiesWithStiffnessAndDamping(dt, *mBody1, *mBody2, world_axis_, bias, 0.0f,
                                                                        kNegligibleStiffness, damping);
  else
    limit_.linear.CalculateConstraintPropertiesWithStiffnessAndDamping(
        dt, *mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, bias, 0.0f, kNegligibleStiffness, damping);
}

void JointAxisConstraint::SetupLimit(float dt) {
  const float gap_lo = q_ - params_.range_lo;
  const float gap_hi = params_.range_hi - q_;
  const bool lower = gap_lo < gap_hi;
  const float gap = lower ? gap_lo : gap_hi;
  const float lookahead = 2.0f * std::abs(rate_before_) * dt + (params_.angular ? kAngularLookahead : kLinearLookahead);
  if (gap > lookahead) {
    SetLimitSide(LimitSide::None);
    return;
  }
  // The row drives the joint rate towards -bias; one-sided, it only keeps the rate
  // from exceeding gap/dt towards the limit (or pushes out of a violation).
  const float allowed = (gap >= 0.0f ? gap : kLimitRecovery * gap) / dt;
  const float bias = lower ? allowed : -allowed;
  SetLimitSide(lower ? LimitSide::Lower : LimitSide::Upper);
  if (params_.angular)
    limit_.angular.CalculateConstraintProperties(*mBody1, *mBody2, world_axis_, bias);
  else
    limit_.linear.CalculateConstraintProperties(*mBody1, r1_plus_u_, *mBody2, r2_, world_axis_, bias);
}

void JointAxisConstraint::WarmStartVelocityConstraint(float ratio) {
  for (AxisRow* row : {&drive_, &limit_}) {
    if (params_.angular)
      row->angular.WarmStart(*mBody1, *mBody2, ratio);
    else
      row->linear.WarmStart(*mBody1, *mBody2, world_axis_, ratio);
  }
}

bool JointAxisConstraint::Solve(AxisRow& row, float min_lambda, float max_lambda) {
  if (params_.angular)
    return row.angular.IsActive() &&
           row.angular.SolveVelocityConstraint(*mBody1, *mBody2, world_axis_, min_lambda, max_lambda);
  return row.linear.IsActive() &&
         row.linear.SolveVelocityConstraint(*mBody1, *mBody2, world_axis_, min_lambda, max_lambda);
}

bool JointAxisConstraint::SolveVelocityConstraint(float) {
  bool applied = has_drive_ && Solve(drive_, -FLT_MAX, FLT_MAX);
  // Positive impulses raise the joint rate: a lower limit may only push up.
  if (limit_side_ == LimitSide::Lower) applied |= Solve(limit_, 0.0f, FLT_MAX);
  if (limit_side_ == LimitSide::Upper) applied |= Solve(limit_, -FLT_MAX, 0.0f);
  return applied;
}

JPH::Ref<JPH::ConstraintSettings> JointAxisConstraint::GetConstraintSettings() const {
  return new JointAxisSettings();
}

void JointAxisConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  for (const AxisRow* row : {&drive_, &limit_}) {
    row->angular.SaveState(stream);
    row->linear.SaveState(stream);
  }
  stream.Write(limit_side_);
}

void JointAxisConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  for (AxisRow* row : {&drive_, &limit_}) {
    row->angular.RestoreState(stream);
    row->linear.RestoreState(stream);
  }
  stream.Read(limit_side_);
}

}  // namespace joltgym
