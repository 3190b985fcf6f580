// Contact points between two convex geoms where MuJoCo's round-geom formulas (pair_collision.h)
// do not apply: a box or a cylinder on either side. Jolt's GJK/EPA finds the deepest points and
// the two supporting faces; the faces clipped against each other give the manifold, pruned to
// four points as Jolt's own contacts are, each point halfway between the surfaces with its own
// distance along the common normal.
//
// MuJoCo's colliders pick their points otherwise (its box-box keeps up to eight corners, its
// general convex search one point a call), so where faces meet the points and their number
// differ from MuJoCo's while the total force and the resting pose agree
// (tests/test_contact_pairs.py).
#pragma once

#include "model/model_desc.h"
#include "physics/contacts/pair_collision.h"

#include <Jolt/Jolt.h>
#include <Jolt/Math/Mat44.h>
#include <Jolt/Physics/Collision/Shape/ConvexShape.h>

namespace joltgym {

constexpr int kMaxConvexPairContacts = 4;

// Whether joltgym finds this pair's contacts itself: spheres, capsules, boxes and cylinders.
bool SoftPairSupported(GeomType a, GeomType b);

// A geom as Jolt's convex shape, and the rotation from the shape's frame into the geom's.
struct ConvexGeom {
  JPH::RefConst<JPH::ConvexShape> shape;
  JPH::Quat to_geom_frame = JPH::Quat::sIdentity();
};
ConvexGeom MakeConvexGeom(const GeomDesc& geom, const std::string& owner);

// The contacts of geom a with geom b (world transforms of the geoms' own frames) closer than
// `margin`, normals from a towards b; returns how many were written to out (feature: the point's
// index in the manifold).
int CollideConvexPair(const ConvexGeom& a, const JPH::Mat44& transform_a, const ConvexGeom& b,
                      const JPH::Mat44& transform_b, float margin, PairContactPoint out[kMaxConvexPairContacts]);

}  // namespace joltgym
