// The shape of a body that Jolt never collides (layers::kInert: the robot's contacts are
// all with the ground plane, which we detect ourselves). Only its centre of mass matters,
// and its bounds are one fixed point: a body whose bounds never move leaves its broadphase
// tree clean, so Jolt neither widens nor rebuilds it. With the real geoms' bounds Jolt would
// recompute every body's bounds (compound, rotated, capsule shapes) and rebuild the inert
// tree on every update, a tenth of a HalfCheetah step, for a body nothing collides with.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Collision/Shape/Shape.h>

namespace joltgym {

class InertShape final : public JPH::Shape {
 public:
  explicit InertShape(JPH::Vec3Arg center_of_mass)
      : JPH::Shape(JPH::EShapeType::User1, JPH::EShapeSubType::User1), center_of_mass_(center_of_mass) {}

  // Registers collide and cast functions that find nothing, so a query that reaches an
  // inert body by mistake is a miss rather than Jolt's invalid-combination report.
  static void sRegister();

  JPH::Vec3 GetCenterOfMass() const override { return center_of_mass_; }
  JPH::AABox GetLocalBounds() const override { return {JPH::Vec3::sZero(), JPH::Vec3::sZero()}; }
  JPH::AABox GetWorldSpaceBounds(JPH::Mat44Arg, JPH::Vec3Arg) const override { return GetLocalBounds(); }
  JPH::uint GetSubShapeIDBitsRecursive() const override { return 0; }
  float GetInnerRadius() const override { return 0.0f; }
  JPH::MassProperties GetMassProperties() const override { return {}; }
  const JPH::PhysicsMaterial* GetMaterial(const JPH::SubShapeID&) const override;
  JPH::Vec3 GetSurfaceNormal(const JPH::SubShapeID&, JPH::Vec3Arg) const override { return JPH::Vec3::sZero(); }
  void GetSubmergedVolume(JPH::Mat44Arg, JPH::Vec3Arg, const JPH::Plane&, float& total, float& submerged,
                          JPH::Vec3& center_of_buoyancy
#ifdef JPH_DEBUG_RENDERER
                          , JPH::RVec3Arg
#endif
                          ) const override {
    total = submerged = 0.0f;
    center_of_buoyancy = JPH::Vec3::sZero();
  }
#ifdef JPH_DEBUG_RENDERER
  void Draw(JPH::DebugRenderer*, JPH::RMat44Arg, JPH::Vec3Arg, JPH::ColorArg, bool, bool) const override {}
#endif
  bool CastRay(const JPH::RayCast&, const JPH::SubShapeIDCreator&, JPH::RayCastResult&) const override { return false; }
  void CastRay(const JPH::RayCast&, const JPH::RayCastSettings&, const JPH::SubShapeIDCreator&, JPH::CastRayCollector&,
               const JPH::ShapeFilter&) const override {}
  void CollidePoint(JPH::Vec3Arg, const JPH::SubShapeIDCreator&, JPH::CollidePointCollector&,
                    const JPH::ShapeFilter&) const override {}
  void CollideSoftBodyVertices(JPH::Mat44Arg, JPH::Vec3Arg, const JPH::CollideSoftBodyVertexIterator&, JPH::uint,
                               int) const override {}
  void GetTrianglesStart(GetTrianglesContext&, const JPH::AABox&, JPH::Vec3Arg, JPH::QuatArg,
                         JPH::Vec3Arg) const override {}
  int GetTrianglesNext(GetTrianglesContext&, int, JPH::Float3*, const JPH::PhysicsMaterial**) const override {
    return 0;
  }
  Stats GetStats() const override { return {sizeof(*this), 0}; }
  float GetVolume() const override { return 0.0f; }
  bool IsValidScale(JPH::Vec3Arg) const override { return true; }

 private:
  JPH::Vec3 center_of_mass_;
};

}  // namespace joltgym
