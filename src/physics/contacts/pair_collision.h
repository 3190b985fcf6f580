// Contact points between two round geoms (spheres and capsules), as MuJoCo's primitive
// collision functions find them (engine_collision_primitive.c): each geom is a segment (a
// sphere's has length zero) swept by its radius, and the contact is the sphere-sphere one
// between the segments' nearest points; two parallel capsules touch at up to two points,
// found from the segments' ends. Each point is halfway between the two surfaces and carries
// the signed distance between them (negative: penetrating), as in plane_collision.h.
#pragma once

#include "model/model_desc.h"

#include <Jolt/Jolt.h>
#include <Jolt/Math/Mat44.h>

namespace joltgym {

struct PairContactPoint {
  JPH::Vec3 pos;     // world
  JPH::Vec3 normal;  // unit, from geom a towards geom b
  float dist = 0.0f;
  int feature = 0;   // which of the pair's points (0 or 1): stable across steps
};

constexpr int kMaxPairContacts = 2;

// Whether CollidePair handles this pair of types.
bool PairCollisionSupported(GeomType a, GeomType b);

// The contacts of geom a with geom b (world transforms, MuJoCo's sizes) closer than
// `margin`; returns how many were written to out. Both types must be supported.
int CollidePair(GeomType type_a, const Vec3f& size_a, const JPH::Mat44& transform_a, GeomType type_b,
                const Vec3f& size_b, const JPH::Mat44& transform_b, float margin,
                PairContactPoint out[kMaxPairContacts]);

}  // namespace joltgym
