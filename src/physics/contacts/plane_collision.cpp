#include "physics/contacts/plane_collision.h"

#include <cmath>

namespace joltgym {
namespace {

// A sphere of `radius` at `centre`: MuJoCo's mjraw_PlaneSphere.
bool SphereContact(JPH::Vec3Arg point, JPH::Vec3Arg normal, JPH::Vec3Arg centre, float radius, float margin,
                   int feature, PlaneContactPoint& out) {
  const float centre_dist = (centre - point).Dot(normal);
  if (centre_dist > margin + radius) return false;
  out.dist = centre_dist - radius;
  out.pos = centre - (0.5f * out.dist + radius) * normal;
  out.feature = feature;
  out.tangent = JPH::Vec3::sZero();
  return true;
}

void Emit(JPH::Vec3Arg pos, float dist, JPH::Vec3Arg normal, int feature, PlaneContactPoint& out) {
  out.dist = dist;
  out.pos = pos - 0.5f * dist * normal;
  out.feature = feature;
  out.tangent = JPH::Vec3::sZero();
}

int Capsule(JPH::Vec3Arg point, JPH::Vec3Arg normal, const Vec3f& size, const JPH::Mat44& t, float margin,
            PlaneContactPoint out[]) {
  const JPH::Vec3 axis = t.GetAxisZ();
  const JPH::Vec3 centre = t.GetTranslation();
  int n = 0;
  for (int end = 0; end < 2; ++end) {
    const JPH::Vec3 tip = centre + (end == 0 ? size[1] : -size[1]) * axis;
    if (SphereContact(point, normal, tip, size[0], margin, end, out[n])) out[n++].tangent = axis;
  }
  return n;
}

// MuJoCo's mjc_PlaneConvex: one contact, at the ellipsoid's support point against the plane.
int Ellipsoid(JPH::Vec3Arg point, JPH::Vec3Arg normal, const Vec3f& size, const JPH::Mat44& t, float margin,
              PlaneContactPoint out[]) {
  const JPH::Vec3 semi_axes(size[0], size[1], size[2]);
  const JPH::Vec3 scaled = semi_axes * t.Multiply3x3Transposed(-normal);
  const JPH::Vec3 deepest = t * (semi_axes * scaled / scaled.Length());
  const float dist = (deepest - point).Dot(normal);
  if (dist > margin) return 0;
  Emit(deepest, dist, normal, 0, out[0]);
  return 1;
}

int Box(JPH::Vec3Arg point, JPH::Vec3Arg normal, const Vec3f& size, const JPH::Mat44& t, float margin,
        PlaneContactPoint out[]) {
  const float centre_dist = (t.GetTranslation() - point).Dot(normal);
  int n = 0;
  for (int i = 0; i < 8; ++i) {
    const JPH::Vec3 local(i & 1 ? size[0] : -size[0], i & 2 ? size[1] : -size[1], i & 4 ? size[2] : -size[2]);
    const JPH::Vec3 corner = t.Multiply3x3(local);
    const float along = normal.Dot(corner);
    if (centre_dist + along > margin || along > 0.0f) continue;
    Emit(t.GetTranslation() + corner, centre_dist + along, normal, i, out[n]);
    if (++n == kMaxPlaneContacts) break;
  }
  return n;
}

int Cylinder(JPH::Vec3Arg point, JPH::Vec3Arg normal, const Vec3f& size, const JPH::Mat44& t, float margin,
             PlaneContactPoint out[]) {
  const JPH::Vec3 centre = t.GetTranslation();
  JPH::Vec3 axis = t.GetAxisZ();
  float axis_along = normal.Dot(axis);
  if (axis_along > 0.0f) {  // the axis points towards the plane
    axis = -axis;
    axis_along = -axis_along;
  }
  const float centre_dist = (centre - point).Dot(normal);
  // The rim's point nearest the plane, from the centre of the lower disk.
  JPH::Vec3 rim = axis * axis_along - normal;
  const float len_sq = rim.LengthSq();
  rim = len_sq >= 1.0e-30f ? rim * (size[0] / std::sqrt(len_sq)) : t.GetAxisX() * size[0];
  const float rim_along = rim.Dot(normal);
  const JPH::Vec3 half_axis = axis * size[1];
  const float half_along = axis_along * size[1];

  int n = 0;
  if (centre_dist + half_along + rim_along > margin) return 0;
  Emit(centre + rim + half_axis, centre_dist + half_along + rim_along, normal, 0, out[n++]);
  if (centre_dist - half_along + rim_along <= margin)
    Emit(centre + rim - half_axis, centre_dist - half_along + rim_along, normal, 1, out[n++]);
  const float side_along = -0.5f * rim_along;
  if (centre_dist + half_along + side_along <= margin) {
    const JPH::Vec3 side = rim.Cross(half_axis).Normalized() * (size[0] * std::sqrt(3.0f) * 0.5f);
    const JPH::Vec3 base = centre + half_axis - 0.5f * rim;
    Emit(base + side, centre_dist + half_along + side_along, normal, 2, out[n++]);
    Emit(base - side, centre_dist + half_along + side_along, normal, 3, out[n++]);
  }
  return n;
}

}  // namespace

int PlaneContactFeatures(GeomType type) {
  switch (type) {
    case GeomType::Sphere: return 1;
    case GeomType::Capsule: return 2;
    case GeomType::Ellipsoid: return 1;
    case GeomType::Box: return 8;
    case GeomType::Cylinder: return 4;
    case GeomType::Plane: return 0;
  }
  return 0;
}

int CollidePlane(JPH::Vec3Arg point, JPH::Vec3Arg normal, GeomType type, const Vec3f& size,
                 const JPH::Mat44& geom_transform, float margin, PlaneContactPoint out[kMaxPlaneContacts]) {
  switch (type) {
    case GeomType::Sphere:
      return SphereContact(point, normal, geom_transform.GetTranslation(), size[0], margin, 0, out[0]) ? 1 : 0;
    case GeomType::Capsule: return Capsule(point, normal, size, geom_transform, margin, out);
    case GeomType::Ellipsoid: return Ellipsoid(point, normal, size, geom_transform, margin, out);
    case GeomType::Box: return Box(point, normal, size, geom_transform, margin, out);
    case GeomType::Cylinder: return Cylinder(point, normal, size, geom_transform, margin, out);
    case GeomType::Plane: return 0;
  }
  return 0;
}

}  // namespace joltgym
