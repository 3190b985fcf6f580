// Triangle meshes of MuJoCo's primitive geoms in the geom's own frame, for drawing:
// capsules, spheres, ellipsoids and cylinders along z, boxes. Outward counter-clockwise
// triangles (seen from outside), one normal per vertex.
#pragma once

#include "model/model_desc.h"

#include <Jolt/Jolt.h>
#include <Jolt/Math/Float3.h>

#include <cstdint>
#include <vector>

namespace joltgym {

struct Mesh {
  std::vector<JPH::Float3> positions;
  std::vector<JPH::Float3> normals;
  std::vector<std::uint32_t> indices;  // three per triangle
};

// How finely round geoms are cut: segments around their axis, rings per hemisphere.
struct MeshDetail {
  int around = 14;
  int rings = 4;
};
constexpr MeshDetail kFineMesh{14, 4};   // round enough at 480 px, cheap to draw
constexpr MeshDetail kCoarseMesh{8, 2};  // frames of pixel observations (64, 84 px): a segment spans a pixel or two

// The mesh of a geom (size as MuJoCo's geom_size); empty for types that are not drawn as
// meshes (planes are drawn as the floor).
Mesh MeshForGeom(const GeomDesc& geom, MeshDetail detail = kFineMesh);
// The surface of a height field in its geom's frame, every `stride`-th sample.
Mesh MeshForHeightField(const HeightFieldDesc& field, int stride);
// A mesh geom's triangles, each vertex's normal the mean of its faces' (smooth shading).
Mesh MeshForMesh(const MeshDesc& mesh);

}  // namespace joltgym
