#include "physics/contacts/ellipsoid_shape.h"

#include <Jolt/Geometry/AABox.h>
#include <Jolt/Physics/Collision/Shape/SubShapeID.h>
#include <Jolt/Physics/Collision/TransformedShape.h>
#ifdef JPH_DEBUG_RENDERER
#include <Jolt/Renderer/DebugRenderer.h>
#endif

#include <new>

namespace joltgym {
namespace {

// The whole surface, no convex radius: an ellipsoid shrunk by a sphere's radius and grown back
// by it is not the ellipsoid, so Jolt's radius trick would move its contacts.
class EllipsoidSupport final : public JPH::ConvexShape::Support {
 public:
  explicit EllipsoidSupport(JPH::Vec3Arg semi_axes) : semi_axes_(semi_axes) {
    static_assert(sizeof(EllipsoidSupport) <= sizeof(JPH::ConvexShape::SupportBuffer), "support buffer too small");
  }
  JPH::Vec3 GetSupport(JPH::Vec3Arg direction) const override {
    const JPH::Vec3 scaled = semi_axes_ * direction;
    const float len = scaled.Length();
    return len > 0.0f ? semi_axes_ * scaled / len : JPH::Vec3::sZero();
  }
  float GetConvexRadius() const override { return 0.0f; }

 private:
  JPH::Vec3 semi_axes_;
};

}  // namespace

EllipsoidShape::EllipsoidShape(JPH::Vec3Arg semi_axes) : JPH::ConvexShape(kSubType), semi_axes_(semi_axes) {}

JPH::AABox EllipsoidShape::GetLocalBounds() const { return JPH::AABox(-semi_axes_, semi_axes_); }

float EllipsoidShape::GetVolume() const {
  return 4.0f / 3.0f * JPH::JPH_PI * semi_axes_.GetX() * semi_axes_.GetY() * semi_axes_.GetZ();
}

JPH::MassProperties EllipsoidShape::GetMassProperties() const {
  JPH::MassProperties p;
  p.mMass = GetVolume() * GetDensity();
  const JPH::Vec3 sq = semi_axes_ * semi_axes_;
  p.mInertia = JPH::Mat44::sScale(0.2f * p.mMass * JPH::Vec3(sq.GetY() + sq.GetZ(), sq.GetX() + sq.GetZ(),
                                                             sq.GetX() + sq.GetY()));
  return p;
}

JPH::Vec3 EllipsoidShape::GetSurfaceNormal(const JPH::SubShapeID&, JPH::Vec3Arg p) const {
  // The gradient of Σ (x_i / a_i)².
  const JPH::Vec3 gradient = p / (semi_axes_ * semi_axes_);
  const float len = gradient.Length();
  return len > 0.0f ? gradient / len : JPH::Vec3::sAxisY();
}

const JPH::ConvexShape::Support* EllipsoidShape::GetSupportFunction(ESupportMode, SupportBuffer& buffer,
                                                                    JPH::Vec3Arg scale) const {
  return new (&buffer) EllipsoidSupport(semi_axes_ * scale.Abs());
}

#ifdef JPH_DEBUG_RENDERER
void EllipsoidShape::Draw(JPH::DebugRenderer* renderer, JPH::RMat44Arg com_transform, JPH::Vec3Arg scale,
                          JPH::ColorArg color, bool use_material_colors, bool draw_wireframe) const {
  renderer->DrawUnitSphere(com_transform * JPH::Mat44::sScale(semi_axes_ * scale.Abs()),
                           use_material_colors ? GetMaterial()->GetDebugColor() : color, JPH::DebugRenderer::ECastShadow::On,
                           draw_wireframe ? JPH::DebugRenderer::EDrawMode::Wireframe : JPH::DebugRenderer::EDrawMode::Solid);
}
#endif

}  // namespace joltgym
