// Contact points of a geom against a plane, as MuJoCo's plane collision functions find
// them (engine_collision_primitive.c): a sphere touches at one point, a capsule at its
// two end spheres, an ellipsoid at its deepest point, a box at up to four corners, a cylinder at
// up to four rim points.
// Each point is halfway between the two surfaces and carries the signed distance
// between them (negative: penetrating), so that a soft contact can engage within its
// margin before the surfaces touch.
#pragma once

#include "model/model_desc.h"

#include <Jolt/Jolt.h>
#include <Jolt/Math/Mat44.h>

namespace joltgym {

struct PlaneContactPoint {
  JPH::Vec3 pos;           // world
  float dist = 0.0f;       // signed distance between the surfaces along the plane's normal
  int feature = 0;         // which point of the geom (end, corner, rim point): stable across steps
  JPH::Vec3 tangent = JPH::Vec3::sZero();  // MuJoCo's first tangent hint (a capsule's axis), or zero
};

constexpr int kMaxPlaneContacts = 4;

// How many distinct features (feature ids) a geom type can touch a plane with.
int PlaneContactFeatures(GeomType type);

// The contacts of a geom (its world transform, MuJoCo's size) with the plane through
// `point` with unit `normal`, closer than `margin`; returns how many were written to out.
int CollidePlane(JPH::Vec3Arg point, JPH::Vec3Arg normal, GeomType type, const Vec3f& size,
                 const JPH::Mat44& geom_transform, float margin, PlaneContactPoint out[kMaxPlaneContacts]);

}  // namespace joltgym
