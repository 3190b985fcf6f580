#include "physics/joint_drive_row.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cfloat>

namespace joltgym {
namespace {

// TwoBodyConstraint's constructor reads only the base settings (priority,
// iteration overrides); this row is never serialised.
class DriveRowSettings final : public JPH::TwoBodyConstraintSettings {
 public:
  JPH::TwoBodyConstraint* Create(JPH::Body&, JPH::Body&) const override { return nullptr; }
};

// Jolt's spring part is only soft for stiffness > 0; a negligible stiffness (with
// zero spring offset) makes the row soft without adding a spring.
constexpr float kNegligibleStiffness = 1.0e-9f;

}  // namespace

JointDriveRow::JointDriveRow(JPH::Body& parent, JPH::Body& child, const JointDriveParams& params)
    : JPH::TwoBodyConstraint(parent, child, DriveRowSettings()), params_(params) {}

void JointDriveRow::ResetWarmStart() {
  angular_.Deactivate();
  linear_.Deactivate();
}

void JointDriveRow::SetupVelocityConstraint(float dt) {
  const float a = params_.armature;
  const float c = params_.damping;
  const float softness = 1.0f / (a + dt * c);
  const float bias = -softness * a * rate_before_;
  const float damping = c + a / dt;
  world_axis_ = mBody1->GetRotation() * params_.axis_local1;
  if (params_.angular) {
    angular_.CalculateConstraintPropertiesWithStiffnessAndDamping(
        dt, *mBody1, *mBody2, world_axis_, bias, 0.0f, kNegligibleStiffness, damping);
  } else {
    r2_ = mBody2->GetRotation() * params_.anchor_local2;
    // r1 + u in Jolt's terms: body 2's anchor seen from body 1's COM.
    const JPH::Vec3 r1_plus_u = JPH::Vec3(mBody2->GetCenterOfMassPosition() - mBody1->GetCenterOfMassPosition()) + r2_;
    linear_.CalculateConstraintPropertiesWithStiffnessAndDamping(
        dt, *mBody1, r1_plus_u, *mBody2, r2_, world_axis_, bias, 0.0f, kNegligibleStiffness, damping);
  }
}

void JointDriveRow::WarmStartVelocityConstraint(float ratio) {
  if (params_.angular)
    angular_.WarmStart(*mBody1, *mBody2, ratio);
  else
    linear_.WarmStart(*mBody1, *mBody2, world_axis_, ratio);
}

bool JointDriveRow::SolveVelocityConstraint(float) {
  if (params_.angular)
    return angular_.SolveVelocityConstraint(*mBody1, *mBody2, world_axis_, -FLT_MAX, FLT_MAX);
  return linear_.SolveVelocityConstraint(*mBody1, *mBody2, world_axis_, -FLT_MAX, FLT_MAX);
}

JPH::Ref<JPH::ConstraintSettings> JointDriveRow::GetConstraintSettings() const {
  return new DriveRowSettings();
}

void JointDriveRow::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  angular_.SaveState(stream);
  linear_.SaveState(stream);
}

void JointDriveRow::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  angular_.RestoreState(stream);
  linear_.RestoreState(stream);
}

}  // namespace joltgym
