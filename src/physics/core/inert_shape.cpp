#include "physics/core/inert_shape.h"

#include <Jolt/Physics/Collision/CollisionDispatch.h>
#include <Jolt/Physics/Collision/PhysicsMaterial.h>

namespace joltgym {

const JPH::PhysicsMaterial* InertShape::GetMaterial(const JPH::SubShapeID&) const {
  return JPH::PhysicsMaterial::sDefault;
}

void InertShape::sRegister() {
  JPH::ShapeFunctions& f = JPH::ShapeFunctions::sGet(JPH::EShapeSubType::User1);
  f.mConstruct = []() -> JPH::Shape* { return new InertShape(JPH::Vec3::sZero()); };
  f.mColor = JPH::Color::sBlack;
  auto collide_nothing = [](const JPH::Shape*, const JPH::Shape*, JPH::Vec3Arg, JPH::Vec3Arg, JPH::Mat44Arg,
                            JPH::Mat44Arg, const JPH::SubShapeIDCreator&, const JPH::SubShapeIDCreator&,
                            const JPH::CollideShapeSettings&, JPH::CollideShapeCollector&, const JPH::ShapeFilter&) {};
  auto cast_nothing = [](const JPH::ShapeCast&, const JPH::ShapeCastSettings&, const JPH::Shape*, JPH::Vec3Arg,
                         const JPH::ShapeFilter&, JPH::Mat44Arg, const JPH::SubShapeIDCreator&,
                         const JPH::SubShapeIDCreator&, JPH::CastShapeCollector&) {};
  for (const JPH::EShapeSubType s : JPH::sAllSubShapeTypes) {
    JPH::CollisionDispatch::sRegisterCollideShape(JPH::EShapeSubType::User1, s, collide_nothing);
    JPH::CollisionDispatch::sRegisterCollideShape(s, JPH::EShapeSubType::User1, collide_nothing);
    JPH::CollisionDispatch::sRegisterCastShape(JPH::EShapeSubType::User1, s, cast_nothing);
    JPH::CollisionDispatch::sRegisterCastShape(s, JPH::EShapeSubType::User1, cast_nothing);
  }
}

}  // namespace joltgym
