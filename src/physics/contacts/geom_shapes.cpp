#include "physics/contacts/geom_shapes.h"

#include "physics/contacts/ellipsoid_shape.h"
#include "physics/core/unsupported_feature.h"

#include <Jolt/Physics/Collision/Shape/BoxShape.h>
#include <Jolt/Physics/Collision/Shape/CapsuleShape.h>
#include <Jolt/Physics/Collision/Shape/CylinderShape.h>
#include <Jolt/Physics/Collision/Shape/EmptyShape.h>
#include <Jolt/Physics/Collision/Shape/OffsetCenterOfMassShape.h>
#include <Jolt/Physics/Collision/Shape/RotatedTranslatedShape.h>
#include <Jolt/Physics/Collision/Shape/SphereShape.h>
#include <Jolt/Physics/Collision/Shape/StaticCompoundShape.h>

#include <algorithm>
#include <cmath>

namespace joltgym {

float GeomReach(GeomType type, const Vec3f& size) {
  float reach = 0.0f;
  switch (type) {
    case GeomType::Sphere: reach = size[0]; break;
    case GeomType::Capsule: reach = size[0] + size[1]; break;
    case GeomType::Box: reach = std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]); break;
    case GeomType::Ellipsoid: reach = std::max({size[0], size[1], size[2]}); break;
    case GeomType::Cylinder: reach = std::sqrt(size[0] * size[0] + size[1] * size[1]); break;
    case GeomType::Plane: break;
  }
  return reach + 1.0e-3f;
}
namespace {

// Rounded corners change contact geometry; keep them small but valid for Jolt.
float ConvexRadius(float smallest_half_extent) {
  return std::min(0.005f, 0.5f * smallest_half_extent);
}

const JPH::Quat kZToY = JPH::Quat::sRotation(JPH::Vec3::sAxisX(), 0.5f * JPH::JPH_PI);

std::string Describe(const GeomDesc& geom, const std::string& owner) {
  return "geom '" + (geom.name.empty() ? std::string("<unnamed>") : geom.name) + "' of body '" + owner + "'";
}


GeomPrimitive MakeUntaggedPrimitive(const GeomDesc& geom, const std::string& owner) {
  const auto& s = geom.size;
  switch (geom.type) {
    case GeomType::Sphere:
      return {new JPH::SphereShape(s[0])};
    case GeomType::Capsule:
      return {new JPH::CapsuleShape(s[1], s[0]), kZToY};
    case GeomType::Ellipsoid:
      return {new EllipsoidShape(JPH::Vec3(s[0], s[1], s[2]))};
    case GeomType::Cylinder:
      return {new JPH::CylinderShape(s[1], s[0], ConvexRadius(std::min(s[0], s[1]))), kZToY};
    case GeomType::Box:
      return {new JPH::BoxShape(JPH::Vec3(s[0], s[1], s[2]), ConvexRadius(std::min({s[0], s[1], s[2]})))};
    case GeomType::Plane:
      throw UnsupportedFeature(Describe(geom, owner) + ": a plane can only belong to the world body");
  }
  throw UnsupportedFeature(Describe(geom, owner) + ": unsupported geom type " + std::to_string(int(geom.type)));
}

}  // namespace

GeomPrimitive MakeGeomPrimitive(const GeomDesc& geom, const std::string& owner) {
  GeomPrimitive primitive = MakeUntaggedPrimitive(geom, owner);
  // Contacts name the leaf shape they touch; its user data tells which MuJoCo body that is.
  primitive.shape->SetUserData(JPH::uint64(geom.mj_body + 1));
  return primitive;
}

JPH::RefConst<JPH::Shape> MakeBodyShape(const std::vector<GeomDesc>& geoms, JPH::Vec3 com,
                                        const std::string& owner) {
  std::vector<const GeomDesc*> colliding;
  for (const GeomDesc& g : geoms)
    if (Collides(g)) colliding.push_back(&g);
  if (colliding.empty()) return new JPH::EmptyShape(com);

  JPH::RefConst<JPH::Shape> shape;
  if (colliding.size() == 1) {
    const GeomDesc& g = *colliding.front();
    GeomPrimitive p = MakeGeomPrimitive(g, owner);
    shape = new JPH::RotatedTranslatedShape(ToVec3(g.pos), ToQuat(g.quat) * p.to_geom_frame, p.shape);
  } else {
    JPH::StaticCompoundShapeSettings compound;
    for (const GeomDesc* g : colliding) {
      GeomPrimitive p = MakeGeomPrimitive(*g, owner);
      compound.AddShape(ToVec3(g->pos), ToQuat(g->quat) * p.to_geom_frame, p.shape);
    }
    JPH::ShapeSettings::ShapeResult result = compound.Create();
    if (result.HasError())
      throw UnsupportedFeature("body '" + owner + "': " + std::string(result.GetError().c_str()));
    shape = result.Get();
  }
  return new JPH::OffsetCenterOfMassShape(shape, com - shape->GetCenterOfMass());
}

}  // namespace joltgym
