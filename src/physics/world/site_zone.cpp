#include "physics/world/site_zone.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace joltgym {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// The ray's parameters inside, [lo, hi], narrowed by one more convex piece; false once empty.
struct Span {
  float lo = 0.0f;  // the ray starts at its origin
  float hi = kInfinity;

  bool Narrow(float a, float b) {
    lo = std::max(lo, a);
    hi = std::min(hi, b);
    return lo <= hi;
  }
  // |o + t d| <= half along one axis
  bool Slab(float o, float d, float half) {
    if (std::abs(d) < 1e-12f) return std::abs(o) <= half ? true : Narrow(kInfinity, -kInfinity);
    const float t1 = (-half - o) / d, t2 = (half - o) / d;
    return Narrow(std::min(t1, t2), std::max(t1, t2));
  }
  // a t^2 + 2 b t + c <= 0 (a >= 0): the inside of a sphere or an infinite cylinder
  bool Quadric(float a, float b, float c) {
    if (a < 1e-12f) return c <= 0.0f ? true : Narrow(kInfinity, -kInfinity);
    const float det = b * b - a * c;
    if (det < 0.0f) return Narrow(kInfinity, -kInfinity);
    const float root = std::sqrt(det);
    return Narrow((-b - root) / a, (-b + root) / a);
  }
};

bool MeetsSphere(JPH::Vec3Arg o, JPH::Vec3Arg d, float radius) {
  return Span{}.Quadric(d.Dot(d), d.Dot(o), o.Dot(o) - radius * radius);
}

// A cylinder along z: radius, half-height.
bool MeetsCylinder(JPH::Vec3Arg o, JPH::Vec3Arg d, float radius, float half_height) {
  Span span;
  const float a = d.GetX() * d.GetX() + d.GetY() * d.GetY();
  const float b = d.GetX() * o.GetX() + d.GetY() * o.GetY();
  const float c = o.GetX() * o.GetX() + o.GetY() * o.GetY() - radius * radius;
  return span.Quadric(a, b, c) && span.Slab(o.GetZ(), d.GetZ(), half_height);
}

}  // namespace

bool RayMeetsSiteZone(SiteType type, const Vec3f& size, JPH::Vec3Arg origin, JPH::Vec3Arg direction) {
  switch (type) {
    case SiteType::Sphere:
      return MeetsSphere(origin, direction, size[0]);
    case SiteType::Ellipsoid: {  // the unit sphere once each axis is scaled by its semi-axis
      const JPH::Vec3 scale(1.0f / size[0], 1.0f / size[1], 1.0f / size[2]);
      return MeetsSphere(origin * scale, direction * scale, 1.0f);
    }
    case SiteType::Box: {
      Span span;
      return span.Slab(origin.GetX(), direction.GetX(), size[0]) && span.Slab(origin.GetY(), direction.GetY(), size[1]) &&
             span.Slab(origin.GetZ(), direction.GetZ(), size[2]);
    }
    case SiteType::Cylinder:
      return MeetsCylinder(origin, direction, size[0], size[1]);
    case SiteType::Capsule: {
      const JPH::Vec3 end(0.0f, 0.0f, size[1]);
      return MeetsCylinder(origin, direction, size[0], size[1]) || MeetsSphere(origin - end, direction, size[0]) ||
             MeetsSphere(origin + end, direction, size[0]);
    }
  }
  return false;
}

}  // namespace joltgym
