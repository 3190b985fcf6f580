#include "physics/contacts/height_field.h"

#include <Jolt/Physics/Collision/CollideConvexVsTriangles.h>
#include <Jolt/Physics/Collision/CollideShape.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {
namespace {

// The point of triangle (a, b, c) closest to p (Ericson, Real-Time Collision Detection 5.1.5).
JPH::Vec3 ClosestOnTriangle(JPH::Vec3Arg p, JPH::Vec3Arg a, JPH::Vec3Arg b, JPH::Vec3Arg c) {
  const JPH::Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = ab.Dot(ap), d2 = ac.Dot(ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return a;
  const JPH::Vec3 bp = p - b;
  const float d3 = ab.Dot(bp), d4 = ac.Dot(bp);
  if (d3 >= 0.0f && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return a + (d1 / (d1 - d3)) * ab;
  const JPH::Vec3 cp = p - c;
  const float d5 = ab.Dot(cp), d6 = ac.Dot(cp);
  if (d6 >= 0.0f && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return a + (d2 / (d2 - d6)) * ac;
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const float denom = 1.0f / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// Whether p lies over triangle (a, b, c) seen from above (along z).
bool OverTriangle(JPH::Vec3Arg p, JPH::Vec3Arg a, JPH::Vec3Arg b, JPH::Vec3Arg c) {
  auto side = [](JPH::Vec3Arg u, JPH::Vec3Arg v, JPH::Vec3Arg w) {
    return (v.GetX() - u.GetX()) * (w.GetY() - u.GetY()) - (v.GetY() - u.GetY()) * (w.GetX() - u.GetX());
  };
  const float s1 = side(a, b, p), s2 = side(b, c, p), s3 = side(c, a, p);
  return (s1 >= 0.0f && s2 >= 0.0f && s3 >= 0.0f) || (s1 <= 0.0f && s2 <= 0.0f && s3 <= 0.0f);
}

// Each triangle's hit (one at most) as a contact in the field's frame: the point on the triangle, the
// normal from the field towards the shape, the signed distance; none past `capacity`.
class TriangleContacts final : public JPH::CollideShapeCollector {
 public:
  TriangleContacts(SurfaceContact* found, int capacity) : found_(found), capacity_(capacity) {}
  void AddHit(const JPH::CollideShapeResult& hit) override {
    if (count_ == capacity_ || hit.mPenetrationAxis.IsNearZero()) return;
    // Jolt's axis moves the triangle (shape 2) out of the shape: the field's normal is its opposite.
    found_[count_++] = {hit.mContactPointOn2, -hit.mPenetrationAxis.Normalized(), -hit.mPenetrationDepth};
  }
  int count() const { return count_; }
  void Add(const SurfaceContact& contact) {
    if (count_ < capacity_) found_[count_++] = contact;
  }

 private:
  SurfaceContact* found_;
  int capacity_;
  int count_ = 0;
};

}  // namespace

HeightField::HeightField(const HeightFieldDesc& desc, const GeomDesc& geom)
    : nrow_(desc.nrow), ncol_(desc.ncol), size_(desc.size),
      pos_(geom.pos[0], geom.pos[1], geom.pos[2]),
      rot_(JPH::Quat(geom.quat[1], geom.quat[2], geom.quat[3], geom.quat[0]).Normalized()) {
  if (nrow_ < 2 || ncol_ < 2 || int(desc.data.size()) != nrow_ * ncol_)
    throw std::invalid_argument("height field '" + desc.name + "': needs at least 2 x 2 samples, nrow x ncol of them");
  dx_ = 2.0f * size_[0] / float(ncol_ - 1);
  dy_ = 2.0f * size_[1] / float(nrow_ - 1);
  z_.resize(desc.data.size());
  for (size_t i = 0; i < z_.size(); ++i) z_[i] = desc.data[i] * size_[2];
}

JPH::Vec3 HeightField::Vertex(int r, int c) const {
  return JPH::Vec3(dx_ * float(c) - size_[0], dy_ * float(r) - size_[1], z_[size_t(r) * size_t(ncol_) + size_t(c)]);
}

template <typename F>
void HeightField::ForEachTriangleNear(JPH::Vec3Arg p, float reach, F&& f) const {
  const int cmin = std::max(0, int(std::floor((p.GetX() - reach + size_[0]) / dx_)));
  const int cmax = std::min(ncol_ - 1, int(std::ceil((p.GetX() + reach + size_[0]) / dx_)));
  const int rmin = std::max(0, int(std::floor((p.GetY() - reach + size_[1]) / dy_)));
  const int rmax = std::min(nrow_ - 1, int(std::ceil((p.GetY() + reach + size_[1]) / dy_)));
  for (int r = rmin; r < rmax; ++r)
    for (int c = cmin + 1; c <= cmax; ++c) {
      // MuJoCo's prisms of cell (r, c - 1)-(r + 1, c): split along (r, c - 1)-(r + 1, c).
      const JPH::Vec3 a = Vertex(r + 1, c - 1), b = Vertex(r, c - 1), d = Vertex(r + 1, c), e = Vertex(r, c);
      f(a, b, d);
      f(b, d, e);
    }
}

int HeightField::Deepest(SurfaceContact* found, int n, SurfaceContact out[kMaxContacts], int first_sample) const {
  SurfaceContact kept[kMaxContacts];
  if (first_sample >= n) {
    std::sort(found, found + n, [](const SurfaceContact& x, const SurfaceContact& y) { return x.dist < y.dist; });
    n = std::min(n, kMaxContacts);
  } else {
    n = SamplesAfterCorners(found, n, first_sample, kept);
    found = kept;
  }
  for (int k = 0; k < n; ++k) {  // found[k].pos is the field's surface point: halfway is dist / 2 along the normal
    const JPH::Vec3 q = found[k].pos, normal = found[k].normal;
    out[k].normal = rot_ * normal;
    out[k].pos = rot_ * (q + 0.5f * found[k].dist * normal) + pos_;
    out[k].dist = found[k].dist;
  }
  return n;
}

int HeightField::SamplesAfterCorners(const SurfaceContact* found, int n, int first_sample,
                                     SurfaceContact kept[kMaxContacts]) {
  // A sample of the field under a box outranks a corner only when it pokes in deeper by kSampleLead:
  // on level ground the samples under a flat box are as deep as its corners, and four of them
  // picked from one side would tip it.
  constexpr float kSampleLead = 5.0e-4f;
  int order[8 + 64];
  n = std::min(n, int(std::size(order)));
  for (int i = 0; i < n; ++i) order[i] = i;
  auto rank = [&](int i) { return i >= first_sample ? found[i].dist + kSampleLead : found[i].dist; };
  std::stable_sort(order, order + n, [&](int x, int y) { return rank(x) < rank(y); });
  n = std::min(n, kMaxContacts);
  for (int k = 0; k < n; ++k) kept[k] = found[order[k]];
  return n;
}

int HeightField::CollideSphere(JPH::Vec3Arg centre, float radius, float margin, SurfaceContact out[kMaxContacts]) const {
  const JPH::Vec3 p = rot_.Conjugated() * (centre - pos_);
  int n = 0;
  SurfaceContact found[2 * 16];
  ForEachTriangleNear(p, radius + std::max(margin, 0.0f), [&](JPH::Vec3Arg t0, JPH::Vec3Arg t1, JPH::Vec3Arg t2) {
    JPH::Vec3 up = (t1 - t0).Cross(t2 - t0);
    if (up.GetZ() < 0.0f) up = -up;
    up = up.Normalized();
    SurfaceContact contact;
    const JPH::Vec3 q = ClosestOnTriangle(p, t0, t1, t2);
    const JPH::Vec3 to_centre = p - q;
    const float length = to_centre.Length();
    if (to_centre.Dot(up) > 0.0f) {
      // Above the face: its nearest point, on the face or an edge.
      contact = {q, length > 1e-7f ? to_centre / length : up, length - radius};
    } else if (OverTriangle(p, t0, t1, t2)) {
      // Sunk below the face, inside its prism: the prism's top is nearest.
      const float height = (p - t0).Dot(up);
      contact = {p - height * up, up, height - radius};
    } else {
      return;  // below the face's plane beside it: a neighbouring prism's face gives the contact
    }
    if (!(contact.dist < margin) || n == int(std::size(found))) return;
    found[n++] = contact;  // two prisms closest at their shared edge give two contacts, as MuJoCo's
  });
  return Deepest(found, n, out, n);
}

int HeightField::CollideBox(const JPH::Mat44& transform, const Vec3f& half, float margin,
                            SurfaceContact out[kMaxContacts]) const {
  SurfaceContact found[8 + 64];
  int n = 0;
  // Each corner as a point: its nearest triangle.
  for (int k = 0; k < 8; ++k) {
    const JPH::Vec3 corner = transform * JPH::Vec3(k & 1 ? half[0] : -half[0], k & 2 ? half[1] : -half[1],
                                                   k & 4 ? half[2] : -half[2]);
    SurfaceContact c[kMaxContacts];
    if (CollideSphere(corner, 0.0f, margin, c) == 0) continue;
    // Back into the field's frame, the surface point: Deepest() moves it halfway again.
    found[n++] = {rot_.Conjugated() * (c[0].pos - pos_) - 0.5f * c[0].dist * (rot_.Conjugated() * c[0].normal),
                  rot_.Conjugated() * c[0].normal, c[0].dist};
  }
  const int corners = n;
  // Each sample of the field inside the box: pushed out through the box's nearest face.
  const JPH::Mat44 to_field = JPH::Mat44::sRotation(rot_.Conjugated()) * JPH::Mat44::sTranslation(-pos_);
  const JPH::Mat44 box_in_field = to_field * transform;
  const JPH::Mat44 field_in_box = box_in_field.InversedRotationTranslation();
  const JPH::Vec3 p = box_in_field.GetTranslation();
  const float reach = std::sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
  const int cmin = std::max(0, int(std::ceil((p.GetX() - reach + size_[0]) / dx_)));
  const int cmax = std::min(ncol_ - 1, int(std::floor((p.GetX() + reach + size_[0]) / dx_)));
  const int rmin = std::max(0, int(std::ceil((p.GetY() - reach + size_[1]) / dy_)));
  const int rmax = std::min(nrow_ - 1, int(std::floor((p.GetY() + reach + size_[1]) / dy_)));
  for (int r = rmin; r <= rmax; ++r)
    for (int c = cmin; c <= cmax && n < int(std::size(found)); ++c) {
      const JPH::Vec3 v = Vertex(r, c);
      const JPH::Vec3 local = field_in_box * v;
      int face = -1;
      float depth = FLT_MAX;
      for (int axis = 0; axis < 3; ++axis) {
        const float inside = half[size_t(axis)] - std::abs(local[axis]);
        if (inside < 0.0f) face = -2;
        if (face != -2 && inside < depth) depth = inside, face = axis;
      }
      if (face < 0) continue;
      JPH::Vec3 outward = JPH::Vec3::sZero();
      outward.SetComponent(face, local[face] >= 0.0f ? 1.0f : -1.0f);
      // The box moves away from the sample: the normal from the field points into the box's face.
      const JPH::Vec3 normal = -box_in_field.Multiply3x3(outward);
      found[n++] = {v, normal, -depth};
    }
  return Deepest(found, n, out, corners);
}

JPH::Vec3 HeightField::CellTriangleNormal(int r, int c, int k) const {
  if (r < 0 || c < 0 || r >= nrow_ - 1 || c >= ncol_ - 1) return JPH::Vec3::sZero();
  const JPH::Vec3 b = Vertex(r, c), d = Vertex(r + 1, c + 1);
  const JPH::Vec3 n = k == 0 ? (b - Vertex(r + 1, c)).Cross(d - Vertex(r + 1, c)) : (d - b).Cross(Vertex(r, c + 1) - b);
  return (n.GetZ() >= 0.0f ? n : -n).Normalized();
}

int HeightField::CollideConvex(const JPH::ConvexShape& shape, const JPH::Mat44& transform, float reach, float margin,
                               SurfaceContact out[kMaxContacts]) const {
  // An edge between two faces that meet flat (within Jolt's own 5 degrees) is inactive: a contact on it
  // takes the face's normal, as one on the face would, where an active edge's would tilt.
  constexpr float kFlatEdgeCos = 0.996195f;
  const JPH::Mat44 in_field = JPH::Mat44::sRotation(rot_.Conjugated()) * JPH::Mat44::sTranslation(-pos_) * transform;
  JPH::CollideShapeSettings settings;
  settings.mMaxSeparationDistance = std::max(margin, 0.0f);
  settings.mActiveEdgeMode = JPH::EActiveEdgeMode::CollideOnlyWithActive;
  SurfaceContact found[2 * 64];
  TriangleContacts contacts(found, int(std::size(found)));
  JPH::CollideConvexVsTriangles collide(&shape, JPH::Vec3::sOne(), JPH::Vec3::sOne(), in_field, JPH::Mat44::sIdentity(),
                                        JPH::SubShapeID(), settings, contacts);
  JPH::ConvexShape::SupportBuffer buffer;
  const JPH::ConvexShape::Support* support =
      shape.GetSupportFunction(JPH::ConvexShape::ESupportMode::IncludeConvexRadius, buffer, JPH::Vec3::sOne());
  const JPH::Vec3 centre = in_field.GetTranslation();
  const float near = reach + std::max(margin, 0.0f);
  const int cmin = std::max(0, int(std::floor((centre.GetX() - near + size_[0]) / dx_)));
  const int cmax = std::min(ncol_ - 2, int(std::ceil((centre.GetX() + near + size_[0]) / dx_)));
  const int rmin = std::max(0, int(std::floor((centre.GetY() - near + size_[1]) / dy_)));
  const int rmax = std::min(nrow_ - 2, int(std::ceil((centre.GetY() + near + size_[1]) / dy_)));
  const auto active = [&](JPH::Vec3Arg n, int r, int c, int k) {
    const JPH::Vec3 other = CellTriangleNormal(r, c, k);
    return other.IsNearZero() || n.Dot(other) < kFlatEdgeCos;
  };
  const auto face = [&](JPH::Vec3Arg t0, JPH::Vec3Arg t1, JPH::Vec3Arg t2, JPH::Vec3Arg up, JPH::uint8 edges) {
    if ((centre - t0).Dot(up) > 0.0f) {
      collide.Collide(t0, t1, t2, edges, JPH::SubShapeID());  // counter-clockwise seen from above: Jolt's front
      return;
    }
    // Sunk to its centre below the face (a hard landing into soft rows): the face's prism holds it, at the
    // shape's lowest point along the face's normal, as MuJoCo's prism does where the shape stands in it.
    const JPH::Vec3 lowest = in_field * support->GetSupport(in_field.Multiply3x3Transposed(-up));
    if (!OverTriangle(centre, t0, t1, t2) && !OverTriangle(lowest, t0, t1, t2)) return;
    const float dist = (lowest - t0).Dot(up);
    if (dist < margin) contacts.Add({lowest - dist * up, up, dist});
  };
  for (int r = rmin; r <= rmax; ++r)
    for (int c = cmin; c <= cmax; ++c) {
      // MuJoCo's prisms of cell (r, c)-(r + 1, c + 1), split along (r, c)-(r + 1, c + 1).
      const JPH::Vec3 a = Vertex(r + 1, c), b = Vertex(r, c), d = Vertex(r + 1, c + 1), e = Vertex(r, c + 1);
      const JPH::Vec3 n0 = CellTriangleNormal(r, c, 0), n1 = CellTriangleNormal(r, c, 1);
      // (a, b, d): edges a-b (the cell's left), b-d (its diagonal), d-a (its top).
      face(a, b, d, n0, JPH::uint8(active(n0, r, c - 1, 1) | active(n0, r, c, 1) << 1 | active(n0, r + 1, c, 1) << 2));
      // (b, e, d): edges b-e (its bottom), e-d (its right), d-b (its diagonal).
      face(b, e, d, n1, JPH::uint8(active(n1, r - 1, c, 0) | active(n1, r, c + 1, 0) << 1 | active(n1, r, c, 0) << 2));
    }
  const int n = contacts.count();
  for (int k = 0; k < n; ++k)  // beyond the margin Jolt may still report a near miss
    if (!(found[k].dist < margin)) found[k].dist = FLT_MAX;
  std::sort(found, found + n, [](const SurfaceContact& x, const SurfaceContact& y) { return x.dist < y.dist; });
  int kept = n;
  while (kept > 0 && found[kept - 1].dist == FLT_MAX) --kept;
  return Deepest(found, kept, out, kept);
}

}  // namespace joltgym
