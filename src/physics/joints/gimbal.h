// Two or three hinges on one body (MuJoCo's abdomen, hips and shoulders; with anchors of
// their own, dm_control's ankles: GimbalAnchorOnChild). The body's rotation relative to its
// rest pose is
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
  // (q1, q2, q3) in the basis (a1, a2, a1 x a2), relative to the rest pose. Three hinges: q2 stays in
  // [-pi/2, pi/2], and at +-pi/2 the sequence is singular (gimbal lock). Two hinges: q1 and q2 over
  // the whole circle, and q3 the locked rotation left over, an angle about a1 x a2 after q1 (the lock
  // holds it at zero).
  JPH::Vec3 angles;
  // World vectors j_k with dq_k/dt = j_k . (w_child - w_parent): the rows of the
  // inverse of the matrix of world joint axes. A generalized force f on coordinate k
  // is the torque f * j_k on the child (and -f * j_k on the parent).
  JPH::Vec3 rate_rows[3];
  // The world joint axes e_k themselves (a1; a2 after q1; a3 after q1 and q2, or for two hinges the
  // normal of the first two), of which the rate rows are the inverse.
  JPH::Vec3 axes[3];
};

// parent_rest: world orientation the child's body frame would have with every
// coordinate zero (parent rotation times the rest offset); basis: body-frame rotation
// whose columns are (a1, a2, a1 x a2); two_hinges: the body has two hinges, not three.
GimbalCoordinates MeasureGimbal(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child, bool two_hinges);

// The same without the angles (left zero), for callers that need only the axes and rate rows.
GimbalCoordinates MeasureGimbalAxes(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child, bool two_hinges);

// A body on two hinges: the rotation R(a1, q1) R(a2, q2) nearest the child's, its third
// rotation (about a1 x a2) dropped, in world space.
JPH::Quat TwoHingeRotation(JPH::QuatArg parent_rest, JPH::QuatArg basis, JPH::QuatArg child);

// Hinges with anchors of their own (the ankles of dm_control's humanoid): MuJoCo turns the
// body about each hinge's anchor in turn, so hinge k's anchor rides on the hinges before it
// and the later ones turn the body away from it. The point of the child, in its frame, that sits
// on hinge `slot`'s anchor: the later turns undone, last first, from that hinge's own anchor p_k:
//   y = p_k; for j = k+1 .. count-1: y = p_j + R_j^T (y - p_j).
// anchors: the hinges' anchors in the child's frame, in slot order; angles: MeasureGimbal's.
JPH::Vec3 GimbalAnchorOnChild(const JPH::Vec3* anchors, int count, int slot, JPH::QuatArg basis, JPH::Vec3Arg angles);

}  // namespace joltgym
