#include "physics/contacts/height_field.h"

#include <algorithm>
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

int HeightField::CollideSphere(JPH::Vec3Arg centre, float radius, float margin, SurfaceContact out[kMaxContacts]) const {
  const JPH::Vec3 p = rot_.Conjugated() * (centre - pos_);
  const float reach = radius + std::max(margin, 0.0f);
  const int cmin = std::max(0, int(std::floor((p.GetX() - reach + size_[0]) / dx_)));
  const int cmax = std::min(ncol_ - 1, int(std::ceil((p.GetX() + reach + size_[0]) / dx_)));
  const int rmin = std::max(0, int(std::floor((p.GetY() - reach + size_[1]) / dy_)));
  const int rmax = std::min(nrow_ - 1, int(std::ceil((p.GetY() + reach + size_[1]) / dy_)));
  int n = 0;
  SurfaceContact found[2 * 16];
  for (int r = rmin; r < rmax; ++r)
    for (int c = cmin + 1; c <= cmax; ++c) {
      // MuJoCo's prisms of cell (r, c - 1)-(r + 1, c): split along (r, c - 1)-(r + 1, c).
      const JPH::Vec3 a = Vertex(r + 1, c - 1), b = Vertex(r, c - 1), d = Vertex(r + 1, c), e = Vertex(r, c);
      const JPH::Vec3 triangles[2][3] = {{a, b, d}, {b, d, e}};
      for (const auto& t : triangles) {
        JPH::Vec3 up = (t[1] - t[0]).Cross(t[2] - t[0]);
        if (up.GetZ() < 0.0f) up = -up;
        up = up.Normalized();
        SurfaceContact contact;
        const JPH::Vec3 q = ClosestOnTriangle(p, t[0], t[1], t[2]);
        const JPH::Vec3 to_centre = p - q;
        const float length = to_centre.Length();
        if (to_centre.Dot(up) > 0.0f) {
          // Above the face: its nearest point, on the face or an edge.
          contact = {q, length > 1e-7f ? to_centre / length : up, length - radius};
        } else if (OverTriangle(p, t[0], t[1], t[2])) {
          // Sunk below the face, inside its prism: the prism's top is nearest.
          const float height = (p - t[0]).Dot(up);
          contact = {p - height * up, up, height - radius};
        } else {
          continue;  // below the face's plane beside it: a neighbouring prism's face gives the contact
        }
        if (!(contact.dist < margin) || n == int(std::size(found))) continue;
        found[n++] = contact;  // two prisms closest at their shared edge give two contacts, as MuJoCo's
      }
    }
  std::sort(found, found + n, [](const SurfaceContact& x, const SurfaceContact& y) { return x.dist < y.dist; });
  n = std::min(n, kMaxContacts);
  for (int k = 0; k < n; ++k) {  // found[k].pos is the field's surface point: halfway is dist / 2 along the normal
    const JPH::Vec3 q = found[k].pos, normal = found[k].normal;
    out[k].normal = rot_ * normal;
    out[k].pos = rot_ * (q + 0.5f * found[k].dist * normal) + pos_;
    out[k].dist = found[k].dist;
  }
  return n;
}

}  // namespace joltgym
