// What joltgym's own Jolt constraints (joint rows, gimbals, soft contacts) share.
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

// Jolt's spring part is only soft for stiffness > 0; a negligible stiffness (with
// zero spring offset) makes a row soft without adding a spring.
constexpr float kNegligibleStiffness = 1.0e-9f;

}  // namespace joltgym
