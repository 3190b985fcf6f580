#include "physics/hinge_position_constraint.h"

#include <Jolt/Physics/Body/Body.h>

namespace joltgym {

HingePositionConstraint::HingePositionConstraint(JPH::Body& parent, JPH::Body& child, JPH::Vec3Arg anchor_local1,
                                                 JPH::Vec3Arg anchor_local2, JPH::Vec3Arg axis_local1,
                                                 JPH::Vec3Arg axis_local2, JPH::uint32 priority)
    : OwnConstraint(parent, child, priority),
      anchor_local1_(anchor_local1),
      anchor_local2_(anchor_local2),
      axis_local1_(axis_local1),
      axis_local2_(axis_local2) {}

bool HingePositionConstraint::SolvePositionConstraint(float, float baumgarte) {
  point_.CalculateConstraintProperties(*mBody1, JPH::Mat44::sRotation(mBody1->GetRotation()), anchor_local1_, *mBody2,
                                       JPH::Mat44::sRotation(mBody2->GetRotation()), anchor_local2_);
  const bool moved = point_.SolvePositionConstraint(*mBody1, *mBody2, baumgarte);
  const JPH::Mat44 rot1 = JPH::Mat44::sRotation(mBody1->GetRotation());  // the point step turned the bodies
  const JPH::Mat44 rot2 = JPH::Mat44::sRotation(mBody2->GetRotation());
  rotation_.CalculateConstraintProperties(*mBody1, rot1, rot1.Multiply3x3(axis_local1_), *mBody2, rot2,
                                          rot2.Multiply3x3(axis_local2_));
  return rotation_.SolvePositionConstraint(*mBody1, *mBody2, baumgarte) || moved;
}

}  // namespace joltgym
