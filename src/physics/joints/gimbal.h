// Two or three hinges on one body, about one anchor (MuJoCo's abdomen, hips and
// shoulders): the body's rotation relative to its rest pose is
//   R(a1, q1) R(a2, q2) [R(a3, q3)]
// with the axes in the body frame, each applied in the frame the previous ones left.
// For orthogonal axes this is a Tait-Bryan sequence in the basis (a1, a2, a1 x a2), so
// the coordinates come from a closed-form decomposition instead of being integrated,
// and nothing drifts. A third hinge whose axis is -(a1 x a2) reads its angle negated.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Math/Quat.h>

namespace joltgym {

struct GimbalCoordinates {
  // (q1, q2, q3) in the basis (a1, a2, a1 x a2), relative to the rest pose. q2 stays
  // in [-pi/2, pi/2]; at +-pi/2 the sequence is singular (gimbal lock).
  JPH::Vec3 angles;
  // World vectors j_k with dq_k/dt = j_k . (w_child - w_parent): the rows of the
  // inverse of the matrix of world joint axes. A generalized force f on coordinate k
  // is the torque f * j_k on the child (and -f * j_k on the parent).
  JPH::Vec3 rate_rows[3];
  // The world joint axes e_k themselves (a1; a2 after q1; a3 after q1 and q2), of which the
  // rate rows are the inverse.
  JPH::Vec3 axes[3];
};

// parent_rest: world orientation the child's body frame would have with every
// coordinate zero (parent rotation times the rest offset); basis: body-frame rotation
// whose columns are (a1, a2, a1 x a2).
GimbalCoordinates MeasureGimbal(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child);

// The same without the angles (left zero), for callers that need only the axes and rate rows.
GimbalCoordinates MeasureGimbalAxes(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child);

// A body on two hinges: the rotation R(a1, q1) R(a2, q2) nearest the child's, its third
// rotation (about a1 x a2) dropped, in world space.
JPH::Quat TwoHingeRotation(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child);

}  // namespace joltgym
