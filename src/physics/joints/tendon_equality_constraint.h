// A fixed tendon held at a length (MuJoCo's tendon equality with one tendon, as dm_control's
// manipulator couples its fingers and its quadruped each leg's three joints): one soft bilateral row
// over the tendon's joints, r = L - length, with L = sum c_i q_i, its rate sum c_i q'_i, MuJoCo's
// equality impedance (from |r|), reference and regulariser (eq_solref, eq_solimp, tendon_invweight0;
// soft_limit.h with no margin).
//
// The row acts on every body its joints connect, more than two where the joints are on several bodies:
// its impulse is J^T lambda, a hinge's c_i lambda about its axis on the child and against it on the
// parent, a slide's c_i lambda along its axis at its anchor. Jolt sees the constraint as between two of
// those bodies; the rest are in the same island through the joints' own constraints, and each world
// steps on one thread, so the impulses on them are safe.
#pragma once

#include "physics/core/own_constraint_settings.h"
#include "physics/core/soft_limit.h"

#include <Jolt/Jolt.h>

#include <vector>

namespace joltgym {

// One joint of the tendon, as the row reads it.
struct TendonEqualityTerm {
  JPH::Body* child = nullptr;
  JPH::Body* parent = nullptr;   // null: the world
  bool angular = true;           // hinge, else slide
  JPH::Vec3 axis_in_parent;      // the joint's axis in the parent's frame (the world's without one)
  JPH::Vec3 anchor_in_child;     // a slide's anchor in the child's frame (its body position frame)
  float coef = 0.0f;
};

class TendonEqualityConstraint final : public OwnConstraint {
 public:
  // body1, body2: the two bodies Jolt sees it join (see above); terms: every joint with its coefficient.
  TendonEqualityConstraint(JPH::Body& body1, JPH::Body& body2, std::vector<TendonEqualityTerm> terms, float length,
                           const SoftLimit& soft);

  // Call before each physics update with the tendon's length and rate at its start.
  void BeginStep(float tendon_length, float tendon_rate) {
    length_now_ = tendon_length;
    rate_before_ = tendon_rate;
  }

  // The row is solved in its tree's joint space (joint_space_equalities.h), which keeps this
  // constraint out of Jolt's lists.
  void SolveInArticulation() { in_articulation_ = true; }
  bool in_articulation() const { return in_articulation_; }
  // The row's softness and bias (Jolt's sign) for an update of length dt, for the joint-space solve.
  void ArticulatedRow(float dt, double& softness, double& bias) const;
  // The row's accumulated impulse (warm start), solved in joint space.
  float& total() { return total_; }

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User4; }
  void ResetWarmStart() override { total_ = 0.0f; }
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  // Each moving body's share of the row: J v = sum of linear . v + angular . w over them, and the
  // velocity change of an impulse lambda is lambda (linear / m, I^-1 angular).
  struct BodyRow {
    JPH::Body* body = nullptr;
    JPH::Vec3 linear = JPH::Vec3::sZero();
    JPH::Vec3 angular = JPH::Vec3::sZero();
    JPH::Vec3 inv_i_angular = JPH::Vec3::sZero();
  };
  BodyRow& RowOf(JPH::Body* body);
  float Rate() const;
  void Apply(float impulse);

  std::vector<TendonEqualityTerm> terms_;
  std::vector<BodyRow> rows_;  // one per moving body of the terms
  float length_;
  SoftLimit soft_;
  float length_now_ = 0.0f, rate_before_ = 0.0f;
  float softness_ = 0.0f, bias_ = 0.0f, effective_ = 0.0f;  // 1 / (J M^-1 J^T + softness)
  float total_ = 0.0f;
  bool in_articulation_ = false;
};

}  // namespace joltgym
