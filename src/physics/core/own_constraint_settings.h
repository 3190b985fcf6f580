// What joltgym's own Jolt constraints (joint rows, gimbals, planar hinges, soft contacts) share.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/TwoBodyConstraint.h>

namespace joltgym {

// TwoBodyConstraint's constructor reads only the base settings (priority, iteration
// overrides); our constraints are never serialised, so Create is never called.
class OwnConstraintSettings final : public JPH::TwoBodyConstraintSettings {
 public:
  explicit OwnConstraintSettings(JPH::uint32 priority = 0) { mConstraintPriority = priority; }
  JPH::TwoBodyConstraint* Create(JPH::Body&, JPH::Body&) const override { return nullptr; }
};

// The base of our constraints: what Jolt asks of every constraint and ours answer alike
// (shapes never change, no constraint frames, settings only for the priority).
class OwnConstraint : public JPH::TwoBodyConstraint {
 public:
  OwnConstraint(JPH::Body& body1, JPH::Body& body2, JPH::uint32 priority = 0)
      : JPH::TwoBodyConstraint(body1, body2, OwnConstraintSettings(priority)) {}

  void NotifyShapeChanged(const JPH::BodyID&, JPH::Vec3Arg) override {}
  JPH::Mat44 GetConstraintToBody1Matrix() const override { return JPH::Mat44::sIdentity(); }
  JPH::Mat44 GetConstraintToBody2Matrix() const override { return JPH::Mat44::sIdentity(); }
  JPH::Ref<JPH::ConstraintSettings> GetConstraintSettings() const override { return new OwnConstraintSettings(); }
};

// Jolt's spring part is only soft for stiffness > 0; a negligible stiffness (with
// zero spring offset) makes a row soft without adding a spring.
constexpr float kNegligibleStiffness = 1.0e-9f;

}  // namespace joltgym
