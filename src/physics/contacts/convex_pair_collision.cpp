#include "physics/contacts/convex_pair_collision.h"

#include "physics/contacts/geom_shapes.h"

#include <Jolt/Physics/Collision/CollideShape.h>
#include <Jolt/Physics/Collision/CollisionCollectorImpl.h>
#include <Jolt/Physics/Collision/CollisionDispatch.h>
#include <Jolt/Physics/Collision/ManifoldBetweenTwoFaces.h>

namespace joltgym {

namespace {

bool Primitive(GeomType t) {
  return t == GeomType::Sphere || t == GeomType::Capsule || t == GeomType::Ellipsoid || t == GeomType::Box ||
         t == GeomType::Cylinder;
}

}  // namespace

bool SoftPairSupported(GeomType a, GeomType b) { return Primitive(a) && Primitive(b); }

ConvexGeom MakeConvexGeom(const GeomDesc& geom, const std::string& owner) {
  GeomPrimitive p = MakeGeomPrimitive(geom, owner);
  return {JPH::StaticCast<JPH::ConvexShape>(p.shape), p.to_geom_frame};
}

int CollideConvexPair(const ConvexGeom& a, const JPH::Mat44& transform_a, const ConvexGeom& b,
                      const JPH::Mat44& transform_b, float margin, PairContactPoint out[kMaxConvexPairContacts]) {
  JPH::CollideShapeSettings settings;
  settings.mMaxSeparationDistance = margin;
  settings.mCollectFacesMode = JPH::ECollectFacesMode::CollectFaces;
  settings.mActiveEdgeMode = JPH::EActiveEdgeMode::CollideWithAll;
  JPH::ClosestHitCollisionCollector<JPH::CollideShapeCollector> deepest;
  // The primitives' centres of mass are their origins.
  JPH::CollisionDispatch::sCollideShapeVsShape(a.shape, b.shape, JPH::Vec3::sOne(), JPH::Vec3::sOne(),
                                               transform_a * JPH::Mat44::sRotation(a.to_geom_frame),
                                               transform_b * JPH::Mat44::sRotation(b.to_geom_frame),
                                               JPH::SubShapeIDCreator(), JPH::SubShapeIDCreator(), settings, deepest);
  if (!deepest.HadHit()) return 0;
  const JPH::CollideShapeResult& hit = deepest.mHit;
  if (hit.mPenetrationAxis.IsNearZero()) return 0;
  // Jolt's penetration axis is the way to move b out of a: the normal from a towards b.
  const JPH::Vec3 normal = hit.mPenetrationAxis.Normalized();
  JPH::ContactPoints on_a, on_b;
  JPH::ManifoldBetweenTwoFaces(hit.mContactPointOn1, hit.mContactPointOn2, normal, margin + 1.0e-3f,
                               hit.mShape1Face, hit.mShape2Face, on_a, on_b JPH_IF_DEBUG_RENDERER(, JPH::RVec3::sZero()));
  if (on_a.size() > kMaxConvexPairContacts) JPH::PruneContactPoints(normal, on_a, on_b JPH_IF_DEBUG_RENDERER(, JPH::RVec3::sZero()));
  int n = 0;
  for (JPH::uint i = 0; i < on_a.size() && n < kMaxConvexPairContacts; ++i) {
    PairContactPoint& c = out[n];
    c.pos = 0.5f * (on_a[i] + on_b[i]);
    c.normal = normal;
    c.dist = (on_b[i] - on_a[i]).Dot(normal);
    c.feature = n;
    ++n;
  }
  return n;
}

}  // namespace joltgym
