#include "physics/joints/tendon_limit_constraint.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cfloat>

namespace joltgym {
namespace {

// The length below which the tendon's direction is taken as it was (its two ends meet).
constexpr float kLeastLength = 1.0e-9f;

}  // namespace

TendonLimitConstraint::TendonLimitConstraint(JPH::Body& body1, JPH::Body& body2, const TendonLimitParams& params)
    : OwnConstraint(body1, body2), params_(params) {
  BeginStep();
}

void TendonLimitConstraint::BeginStep() {
  const JPH::Vec3 r1 = mBody1->GetRotation() * params_.point_local1;
  r2_ = mBody2->GetRotation() * params_.point_local2;
  const JPH::Vec3 span = JPH::Vec3(mBody2->GetCenterOfMassPosition() - mBody1->GetCenterOfMassPosition()) + r2_ - r1;
  length_ = span.Length();
  if (length_ > kLeastLength) direction_ = span / length_;
  r1_plus_u_ = r1 + span;
  rate_ = direction_.Dot(mBody2->GetPointVelocityCOM(r2_) - mBody1->GetPointVelocityCOM(r1));
}

void TendonLimitConstraint::ResetWarmStart() {
  lower_.Deactivate();
  upper_.Deactivate();
}

bool TendonLimitConstraint::SetupSide(JPH::AxisConstraintPart& row, float dt, float distance, float sign) {
  if (!(distance < params_.limit.margin)) {
    row.Deactivate();
    return false;
  }
  float softness, target;
  params_.limit.Row(distance, sign * rate_, dt, softness, target);
  // Jolt's soft row: J v + softness lambda + bias = 0, softness 1 / (dt (damping + dt stiffness)).
  row.CalculateConstraintPropertiesWithStiffnessAndDamping(dt, *mBody1, r1_plus_u_, *mBody2, r2_, sign * direction_,
                                                          -target, 0.0f, kNegligibleStiffness, 1.0f / (dt * softness));
  return true;
}

void TendonLimitConstraint::SetupVelocityConstraint(float dt) {
  SetupSide(lower_, dt, length_ - params_.range_lo, 1.0f);
  SetupSide(upper_, dt, params_.range_hi - length_, -1.0f);
}

void TendonLimitConstraint::WarmStartVelocityConstraint(float ratio) {
  if (lower_.IsActive()) lower_.WarmStart(*mBody1, *mBody2, direction_, ratio);
  if (upper_.IsActive()) upper_.WarmStart(*mBody1, *mBody2, -direction_, ratio);
}

bool TendonLimitConstraint::SolveVelocityConstraint(float) {
  bool applied = false;
  if (lower_.IsActive()) applied |= lower_.SolveVelocityConstraint(*mBody1, *mBody2, direction_, 0.0f, FLT_MAX);
  if (upper_.IsActive()) applied |= upper_.SolveVelocityConstraint(*mBody1, *mBody2, -direction_, 0.0f, FLT_MAX);
  return applied;
}

void TendonLimitConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  lower_.SaveState(stream);
  upper_.SaveState(stream);
}

void TendonLimitConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  lower_.RestoreState(stream);
  upper_.RestoreState(stream);
}

}  // namespace joltgym
