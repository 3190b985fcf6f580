#include "physics/joints/gimbal_constraint.h"

#include "physics/core/own_constraint_settings.h"
#include "physics/joints/gimbal.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cfloat>

namespace joltgym {
namespace {

constexpr JPH::uint32 kGimbalPriority = 1;  // as the single-hinge joints: solved after the soft rows

}  // namespace

GimbalConstraint::GimbalConstraint(JPH::Body& parent, JPH::Body& child, const GimbalParams& params)
    : OwnConstraint(parent, child, kGimbalPriority), params_(params) {}

void GimbalConstraint::ResetWarmStart() {
  point_.Deactivate();
  lock_.Deactivate();
}

void GimbalConstraint::SetupPoint() {
  point_.CalculateConstraintProperties(*mBody1, JPH::Mat44::sRotation(mBody1->GetRotation()), params_.anchor_local1,
                                       *mBody2, JPH::Mat44::sRotation(mBody2->GetRotation()), params_.anchor_local2);
}

float GimbalConstraint::SetupLock() {
  const GimbalCoordinates g =
      MeasureGimbal(mBody1->GetRotation() * params_.rest_in_parent, params_.basis, mBody2->GetRotation(), true);
  lock_row_ = g.rate_rows[2];
  lock_.CalculateConstraintProperties(*mBody1, *mBody2, lock_row_);
  return g.angles.GetZ();
}

void GimbalConstraint::SetupVelocityConstraint(float) {
  SetupPoint();
  if (params_.lock_third) SetupLock();
}

void GimbalConstraint::WarmStartVelocityConstraint(float ratio) {
  point_.WarmStart(*mBody1, *mBody2, ratio);
  if (params_.lock_third) lock_.WarmStart(*mBody1, *mBody2, ratio);
}

bool GimbalConstraint::SolveVelocityConstraint(float) {
  bool applied = false;
  if (params_.lock_third) applied |= lock_.SolveVelocityConstraint(*mBody1, *mBody2, lock_row_, -FLT_MAX, FLT_MAX);
  applied |= point_.SolveVelocityConstraint(*mBody1, *mBody2);
  return applied;
}

bool GimbalConstraint::SolvePositionConstraint(float, float baumgarte) {
  bool applied = false;
  if (params_.lock_third) {
    const float angle = SetupLock();
    applied |= lock_.SolvePositionConstraint(*mBody1, *mBody2, angle, baumgarte);
  }
  SetupPoint();
  applied |= point_.SolvePositionConstraint(*mBody1, *mBody2, baumgarte);
  return applied;
}

void GimbalConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  point_.SaveState(stream);
  lock_.SaveState(stream);
}

void GimbalConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  point_.RestoreState(stream);
  lock_.RestoreState(stream);
}

}  // namespace joltgym
