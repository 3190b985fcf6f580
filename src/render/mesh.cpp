#include "render/mesh.h"

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

constexpr float kPi = 3.14159265358979f;

void AddVertex(Mesh& mesh, JPH::Vec3 p, JPH::Vec3 n) {
  mesh.positions.push_back(JPH::Float3(p.GetX(), p.GetY(), p.GetZ()));
  const JPH::Vec3 u = n.NormalizedOr(JPH::Vec3::sAxisZ());
  mesh.normals.push_back(JPH::Float3(u.GetX(), u.GetY(), u.GetZ()));
}

void AddQuad(Mesh& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
}

// Rings of vertices stacked along z: ring r at height z[r] with radius rho[r] and the
// profile normal (radial, axial) n[r]; consecutive rings joined by quads. With poles, fans
// close the ends at heights pole_lo and pole_hi.
void Lathe(Mesh& mesh, const std::vector<float>& z, const std::vector<float>& rho, const std::vector<JPH::Vec3>& n,
           JPH::Vec3 scale, int around, bool poles, float pole_lo = 0.0f, float pole_hi = 0.0f) {
  const int kAround = around;
  const std::uint32_t base = std::uint32_t(mesh.positions.size());
  for (size_t r = 0; r < z.size(); ++r) {
    for (int k = 0; k < kAround; ++k) {
      const float a = 2.0f * kPi * float(k) / float(kAround);
      const float c = std::cos(a), s = std::sin(a);
      // A scaled shape (ellipsoid) takes normals scaled by the inverse scale.
      AddVertex(mesh, JPH::Vec3(rho[r] * c, rho[r] * s, z[r]) * scale,
                JPH::Vec3(n[r].GetX() * c, n[r].GetX() * s, n[r].GetZ()) / scale);
    }
  }
  for (size_t r = 0; r + 1 < z.size(); ++r)
    for (int k = 0; k < kAround; ++k) {
      const std::uint32_t a = base + std::uint32_t(r * kAround + k), b = base + std::uint32_t(r * kAround + (k + 1) % kAround);
      AddQuad(mesh, a, b, b + kAround, a + kAround);
    }
  if (!poles) return;
  for (int end = 0; end < 2; ++end) {
    const size_t r = end == 0 ? 0 : z.size() - 1;
    const JPH::Vec3 axis = end == 0 ? -JPH::Vec3::sAxisZ() : JPH::Vec3::sAxisZ();
    const std::uint32_t centre = std::uint32_t(mesh.positions.size());
    AddVertex(mesh, JPH::Vec3(0, 0, end == 0 ? pole_lo : pole_hi) * scale, axis / scale);
    for (int k = 0; k < kAround; ++k) {
      const std::uint32_t a = base + std::uint32_t(r * kAround + k), b = base + std::uint32_t(r * kAround + (k + 1) % kAround);
      if (end == 0)
        mesh.indices.insert(mesh.indices.end(), {centre, b, a});
      else
        mesh.indices.insert(mesh.indices.end(), {centre, a, b});
    }
  }
}

// A sphere of radius `radius` whose hemispheres are pushed apart along z by 2 * half_length
// (a capsule when > 0), then scaled (an ellipsoid).
Mesh Roundish(float radius, float half_length, JPH::Vec3 scale, MeshDetail detail) {
  const int kRings = detail.rings;  // per hemisphere, poles excluded
  std::vector<float> z, rho;
  std::vector<JPH::Vec3> n;
  for (int hemisphere = 0; hemisphere < 2; ++hemisphere)
    for (int i = 0; i < kRings; ++i) {
      const float phi = hemisphere == 0 ? -0.5f * kPi + 0.5f * kPi * float(i + 1) / float(kRings)
                                        : 0.5f * kPi * float(i) / float(kRings);
      z.push_back((hemisphere == 0 ? -half_length : half_length) + radius * std::sin(phi));
      rho.push_back(radius * std::cos(phi));
      n.push_back(JPH::Vec3(std::cos(phi), 0.0f, std::sin(phi)));
    }
  Mesh mesh;
  Lathe(mesh, z, rho, n, scale, detail.around, true, -half_length - radius, half_length + radius);
  return mesh;
}

Mesh Cylinder(float radius, float half_height, MeshDetail detail) {
  Mesh mesh;
  const int kAround = detail.around;
  Lathe(mesh, {-half_height, half_height}, {radius, radius}, {JPH::Vec3(1, 0, 0), JPH::Vec3(1, 0, 0)},
        JPH::Vec3::sReplicate(1.0f), kAround, false);
  // Flat caps: their own ring with axial normals.
  for (int end = 0; end < 2; ++end) {
    const float zc = end == 0 ? -half_height : half_height;
    const JPH::Vec3 n = end == 0 ? -JPH::Vec3::sAxisZ() : JPH::Vec3::sAxisZ();
    const std::uint32_t centre = std::uint32_t(mesh.positions.size());
    AddVertex(mesh, JPH::Vec3(0, 0, zc), n);
    for (int k = 0; k < kAround; ++k) {
      const float a = 2.0f * kPi * float(k) / float(kAround);
      AddVertex(mesh, JPH::Vec3(radius * std::cos(a), radius * std::sin(a), zc), n);
    }
    for (int k = 0; k < kAround; ++k) {
      const std::uint32_t a = centre + 1 + std::uint32_t(k), b = centre + 1 + std::uint32_t((k + 1) % kAround);
      if (end == 0)
        mesh.indices.insert(mesh.indices.end(), {centre, b, a});
      else
        mesh.indices.insert(mesh.indices.end(), {centre, a, b});
    }
  }
  return mesh;
}

Mesh Box(JPH::Vec3 half) {
  Mesh mesh;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2) {
      JPH::Vec3 n = JPH::Vec3::sZero();
      n.SetComponent(axis, float(side));
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      const std::uint32_t base = std::uint32_t(mesh.positions.size());
      const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
      for (const auto& c : corners) {
        JPH::Vec3 p = n;
        p.SetComponent(u, c[0] * float(side));
        p.SetComponent(v, c[1]);
        AddVertex(mesh, p * half, n);
      }
      AddQuad(mesh, base, base + 1, base + 2, base + 3);
    }
  return mesh;
}

}  // namespace

Mesh MeshForGeom(const GeomDesc& geom, MeshDetail detail) {
  const auto& s = geom.size;
  switch (int(geom.type)) {
    case int(GeomType::Sphere): return Roundish(s[0], 0.0f, JPH::Vec3::sReplicate(1.0f), detail);
    case int(GeomType::Capsule): return Roundish(s[0], s[1], JPH::Vec3::sReplicate(1.0f), detail);
    case int(GeomType::Ellipsoid):
      return Roundish(1.0f, 0.0f, JPH::Vec3(s[0], s[1], s[2]), detail);
    case int(GeomType::Cylinder): return Cylinder(s[0], s[1], detail);
    case int(GeomType::Box): return Box(JPH::Vec3(s[0], s[1], s[2]));
    default: return Mesh{};
  }
}

Mesh MeshForHeightField(const HeightFieldDesc& field, int stride) {
  Mesh mesh;
  stride = std::max(1, stride);
  std::vector<int> rows, cols;
  for (int r = 0; r < field.nrow; r += stride) rows.push_back(r);
  if (rows.back() != field.nrow - 1) rows.push_back(field.nrow - 1);
  for (int c = 0; c < field.ncol; c += stride) cols.push_back(c);
  if (cols.back() != field.ncol - 1) cols.push_back(field.ncol - 1);
  auto point = [&](int r, int c) {
    const float x = 2.0f * field.size[0] * float(c) / float(field.ncol - 1) - field.size[0];
    const float y = 2.0f * field.size[1] * float(r) / float(field.nrow - 1) - field.size[1];
    return JPH::Vec3(x, y, field.data[size_t(r) * size_t(field.ncol) + size_t(c)] * field.size[2]);
  };
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < cols.size(); ++j) {
      const int r = rows[i], c = cols[j];
      const int r0 = rows[i > 0 ? i - 1 : i], r1 = rows[i + 1 < rows.size() ? i + 1 : i];
      const int c0 = cols[j > 0 ? j - 1 : j], c1 = cols[j + 1 < cols.size() ? j + 1 : j];
      const JPH::Vec3 n = (point(r, c1) - point(r, c0)).Cross(point(r1, c) - point(r0, c)).NormalizedOr(JPH::Vec3::sAxisZ());
      AddVertex(mesh, point(r, c), n);
    }
  const std::uint32_t width = std::uint32_t(cols.size());
  for (std::uint32_t i = 0; i + 1 < rows.size(); ++i)
    for (std::uint32_t j = 0; j + 1 < width; ++j) {
      const std::uint32_t a = i * width + j;
      AddQuad(mesh, a, a + 1, a + width + 1, a + width);
    }
  return mesh;
}

Mesh MeshForMesh(const MeshDesc& desc) {
  Mesh mesh;
  const size_t n = desc.vertices.size() / 3;
  for (size_t i = 0; i < n; ++i)
    mesh.positions.emplace_back(desc.vertices[3 * i], desc.vertices[3 * i + 1], desc.vertices[3 * i + 2]);
  std::vector<JPH::Vec3> normals(n, JPH::Vec3::sZero());
  for (size_t f = 0; f + 2 < desc.faces.size(); f += 3) {
    const int a = desc.faces[f], b = desc.faces[f + 1], c = desc.faces[f + 2];
    if (a < 0 || b < 0 || c < 0 || size_t(a) >= n || size_t(b) >= n || size_t(c) >= n) continue;
    const JPH::Vec3 pa(mesh.positions[size_t(a)]), pb(mesh.positions[size_t(b)]), pc(mesh.positions[size_t(c)]);
    const JPH::Vec3 face = (pb - pa).Cross(pc - pa);  // area-weighted
    for (int v : {a, b, c}) normals[size_t(v)] += face;
    mesh.indices.insert(mesh.indices.end(), {std::uint32_t(a), std::uint32_t(b), std::uint32_t(c)});
  }
  for (const JPH::Vec3& v : normals) {
    const JPH::Vec3 unit = v.LengthSq() > 0.0f ? v.Normalized() : JPH::Vec3::sAxisZ();
    mesh.normals.emplace_back(unit.GetX(), unit.GetY(), unit.GetZ());
  }
  return mesh;
}

}  // namespace joltgym
