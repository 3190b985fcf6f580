// MuJoCo's ellipsoid geom as a Jolt convex shape (Jolt has none): a surface given by its support
// point S² d / |S d| for semi-axes S, which is what MuJoCo's convex collider asks of it too. Jolt's
// GJK/EPA, its ray casts and its contacts with every other convex shape run on that support
// function; a supporting face is never returned, so each contact is one point, as in MuJoCo.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Collision/Shape/ConvexShape.h>

namespace joltgym {

class EllipsoidShape final : public JPH::ConvexShape {
 public:
  // Jolt's user convex subtype taken by ellipsoids; Jolt registers convex-vs-convex collision for it.
  static constexpr JPH::EShapeSubType kSubType = JPH::EShapeSubType::UserConvex1;

  explicit EllipsoidShape(JPH::Vec3Arg semi_axes);

  JPH::Vec3 semi_axes() const { return semi_axes_; }

  JPH::AABox GetLocalBounds() const override;
  float GetInnerRadius() const override { return semi_axes_.ReduceMin(); }
  JPH::MassProperties GetMassProperties() const override;
  JPH::Vec3 GetSurfaceNormal(const JPH::SubShapeID& sub_shape, JPH::Vec3Arg local_surface_position) const override;
  const Support* GetSupportFunction(ESupportMode mode, SupportBuffer& buffer, JPH::Vec3Arg scale) const override;
  // No soft bodies in joltgym's worlds.
  void CollideSoftBodyVertices(JPH::Mat44Arg, JPH::Vec3Arg, const JPH::CollideSoftBodyVertexIterator&, JPH::uint,
                               int) const override {}
  Stats GetStats() const override { return Stats(sizeof(*this), 0); }
  float GetVolume() const override;
#ifdef JPH_DEBUG_RENDERER
  void Draw(JPH::DebugRenderer* renderer, JPH::RMat44Arg com_transform, JPH::Vec3Arg scale, JPH::ColorArg color,
            bool use_material_colors, bool draw_wireframe) const override;
#endif

 private:
  JPH::Vec3 semi_axes_;
};

}  // namespace joltgym
