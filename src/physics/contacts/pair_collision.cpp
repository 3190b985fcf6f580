#include "physics/contacts/pair_collision.h"

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

// Segments in double: the nearest points of two nearly parallel capsules come from a
// determinant that float loses to cancellation.
struct Segment {
  double centre[3];
  double half[3];  // centre to one end (zero for a sphere)
  double radius;
};

Segment SegmentOf(GeomType type, const Vec3f& size, const JPH::Mat44& t) {
  Segment s{};
  const JPH::Vec3 c = t.GetTranslation();
  const JPH::Vec3 axis = t.GetAxisZ();
  const double half_length = type == GeomType::Capsule ? double(size[1]) : 0.0;
  for (int i = 0; i < 3; ++i) {
    s.centre[i] = double(c[i]);
    s.half[i] = double(axis[i]) * half_length;
  }
  s.radius = double(size[0]);
  return s;
}

double Dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// The point centre + x half of a segment.
void PointAt(const Segment& s, double x, double* out) {
  for (int i = 0; i < 3; ++i) out[i] = s.centre[i] + x * s.half[i];
}

// Two spheres (centres p, q, radii of a and b): MuJoCo's mjraw_SphereSphere.
bool SpherePair(const double* p, const double* q, double ra, double rb, double margin, int feature,
                PairContactPoint& out) {
  double d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
  const double dist_sq = Dot(d, d);
  const double reach = margin + ra + rb;
  if (dist_sq > reach * reach) return false;
  const double dist = std::sqrt(dist_sq);
  if (dist < 1e-15) {  // coincident centres: any direction; MuJoCo crosses the geoms' axes
    d[0] = 0.0, d[1] = 0.0, d[2] = 1.0;
  } else {
    for (double& c : d) c /= dist;
  }
  out.dist = float(dist - ra - rb);
  const double along = ra + 0.5 * (dist - ra - rb);
  out.pos = JPH::Vec3(float(p[0] + along * d[0]), float(p[1] + along * d[1]), float(p[2] + along * d[2]));
  out.normal = JPH::Vec3(float(d[0]), float(d[1]), float(d[2]));
  out.feature = feature;
  return true;
}

int SegmentPair(const Segment& a, const Segment& b, double margin, PairContactPoint out[]) {
  const double dif[3] = {a.centre[0] - b.centre[0], a.centre[1] - b.centre[1], a.centre[2] - b.centre[2]};
  const double ma = Dot(a.half, a.half), mb = -Dot(a.half, b.half), mc = Dot(b.half, b.half);
  const double u = -Dot(a.half, dif), v = Dot(b.half, dif);
  const double det = ma * mc - mb * mb;
  double pa[3], pb[3];
  // A sphere against a segment: the sphere's centre against its projection, clipped.
  if (ma == 0.0 || mc == 0.0) {
    const double xa = ma == 0.0 ? 0.0 : std::clamp(u / ma, -1.0, 1.0);
    const double xb = mc == 0.0 ? 0.0 : std::clamp(v / mc, -1.0, 1.0);
    PointAt(a, xa, pa);
    PointAt(b, xb, pb);
    return SpherePair(pa, pb, a.radius, b.radius, margin, 0, out[0]) ? 1 : 0;
  }
  // Parallel below MuJoCo's mjMINVAL in double; our axes come from float rotations, whose
  // rounding (~1e-7 rad) turns MuJoCo's exactly parallel capsules (two contact points) into nearly
  // parallel ones (one), so the test is relative: below 1e-5 rad apart, sin^2 < 1e-10.
  if (std::abs(det) >= std::max(1e-15, 1e-10 * ma * mc)) {
    double xa = (mc * u - mb * v) / det, xb = (ma * v - mb * u) / det;
    if (xa > 1.0) {
      xa = 1.0;
      xb = (v - mb) / mc;
    } else if (xa < -1.0) {
      xa = -1.0;
      xb = (v + mb) / mc;
    }
    if (xb > 1.0) {
      xb = 1.0;
      xa = std::clamp((u - mb) / ma, -1.0, 1.0);
    } else if (xb < -1.0) {
      xb = -1.0;
      xa = std::clamp((u + mb) / ma, -1.0, 1.0);
    }
    PointAt(a, xa, pa);
    PointAt(b, xb, pb);
    return SpherePair(pa, pb, a.radius, b.radius, margin, 0, out[0]) ? 1 : 0;
  }
  // Parallel: a's ends against b, then b's ends against a, until two points are found.
  int n = 0;
  for (int end = 0; end < 4 && n < kMaxPairContacts; ++end) {
    const double sign = end % 2 == 0 ? 1.0 : -1.0;
    if (end < 2) {
      PointAt(a, sign, pa);
      PointAt(b, std::clamp((v - sign * mb) / mc, -1.0, 1.0), pb);
    } else {
      PointAt(b, sign, pb);
      PointAt(a, std::clamp((u - sign * mb) / ma, -1.0, 1.0), pa);
    }
    if (SpherePair(pa, pb, a.radius, b.radius, margin, n, out[n])) ++n;
  }
  return n;
}

bool Round(GeomType t) { return t == GeomType::Sphere || t == GeomType::Capsule; }

}  // namespace

bool PairCollisionSupported(GeomType a, GeomType b) { return Round(a) && Round(b); }

int CollidePair(GeomType type_a, const Vec3f& size_a, const JPH::Mat44& transform_a, GeomType type_b,
                const Vec3f& size_b, const JPH::Mat44& transform_b, float margin,
                PairContactPoint out[kMaxPairContacts]) {
  if (!PairCollisionSupported(type_a, type_b)) return 0;
  return SegmentPair(SegmentOf(type_a, size_a, transform_a), SegmentOf(type_b, size_b, transform_b), double(margin),
                     out);
}

}  // namespace joltgym
