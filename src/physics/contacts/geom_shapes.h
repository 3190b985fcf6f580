// MJCF geoms as Jolt shapes.
#pragma once

#include "model/model_desc.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Collision/Shape/Shape.h>

#include <vector>

namespace joltgym {

inline JPH::Vec3 ToVec3(const Vec3f& v) { return JPH::Vec3(v[0], v[1], v[2]); }
inline JPH::Quat ToQuat(const Quatf& q) { return JPH::Quat(q[1], q[2], q[3], q[0]).Normalized(); }

// A geom contributes contacts unless both its bitmasks are zero (visual geoms).
inline bool Collides(const GeomDesc& g) { return g.contype != 0 || g.conaffinity != 0; }

// The farthest a geom's surface reaches from its centre, plus a millimetre that covers the
// rounding between a bounding test with it and the collision functions' own (plane_collision.h,
// pair_collision.h): beyond it, no contact.
float GeomReach(GeomType type, const Vec3f& size);

// The geom's primitive and the rotation that takes the primitive's frame into the
// geom's frame (MuJoCo's capsules and cylinders run along local Z; Jolt's along Y).
struct GeomPrimitive {
  JPH::Ref<JPH::Shape> shape;
  JPH::Quat to_geom_frame = JPH::Quat::sIdentity();
};
GeomPrimitive MakeGeomPrimitive(const GeomDesc& geom, const std::string& owner);

// All colliding geoms of a body in the body frame, with the centre of mass moved
// to `com` (MuJoCo's value, which need not be the geometric one). A body with no
// colliding geom gets an empty shape.
JPH::RefConst<JPH::Shape> MakeBodyShape(const std::vector<GeomDesc>& geoms, JPH::Vec3 com,
                                        const std::string& owner);

}  // namespace joltgym
