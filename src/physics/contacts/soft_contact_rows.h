// The rows of one MuJoCo soft contact (contact_pair.h), shared by a body's contacts with a
// plane (soft_contact_constraint.h) and a robot's contacts with itself
// (self_contact_constraint.h): J v+ + R lambda = J v - h (B J v + K d (dist - margin)),
// lambda >= 0, with J v and dist taken at the update's start, one row for a frictionless
// contact and MuJoCo's pyramid of four for a frictional one.
#pragma once

#include "physics/contacts/contact_pair.h"
#include "physics/core/own_constraint_settings.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/StateRecorder.h>
#include <Jolt/Physics/Constraints/ConstraintPart/AxisConstraintPart.h>

namespace joltgym {

// A row as an articulation solves it (joint_space_contacts.h); a plane contact that Jolt solves
// keeps its JPH::AxisConstraintPart beside it (SoftContactConstraint::parts_), which the many
// rows an articulation solves do without.
struct SoftContactRow {
  JPH::Vec3 axis = JPH::Vec3::sZero();  // unit; the impulse pushes body 2 along it (body 1 against)
  float bias = 0.0f;
  float damping = 0.0f;                 // Jolt's damping for the row's softness
  float total = 0.0f;                   // accumulated impulse when an articulation solves the row

  void Clear() { total = 0.0f; }
  void SaveState(JPH::StateRecorder& stream) const;
  void RestoreState(JPH::StateRecorder& stream);
};

constexpr int kMaxSoftContactRows = 4;

// Jolt's softness for a row of this damping (SpringPart, with kNegligibleStiffness).
inline float SoftContactSoftness(float dt, float damping) {
  return 1.0f / (dt * (damping + dt * kNegligibleStiffness));
}

// The contact's normal from its rows (unit, pushing body 2): a frictional contact's pyramid rows
// come in pairs mirrored about it.
inline JPH::Vec3 SoftContactNormal(const SoftContactRow rows[], int count) {
  JPH::Vec3 sum = JPH::Vec3::sZero();
  for (int i = 0; i < count; ++i) sum += rows[i].axis;
  return sum.NormalizedOr(JPH::Vec3::sAxisZ());
}

// Sets up a contact's rows for an update of length h and returns how many it has. normal:
// unit, from body 1 towards body 2; tangent_hint: MuJoCo's first tangent (a capsule's axis)
// or zero; velocity and bias: body 2's point velocity and bias acceleration
// (bias_acceleration.h) at the contact less body 1's.
int SetUpSoftContactRows(const ContactPair& pair, JPH::Vec3Arg normal, JPH::Vec3Arg tangent_hint, float dist,
                         JPH::Vec3Arg velocity, JPH::Vec3Arg bias, float h, SoftContactRow rows[kMaxSoftContactRows]);

}  // namespace joltgym
