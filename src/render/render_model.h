// What drawing a model needs, built once per model: every visible geom as a mesh in its
// simulated body's frame (or the world's) with its colour, and the floor plane.
#pragma once

#include "physics/model/compiled_model.h"
#include "render/mesh.h"

#include <Jolt/Jolt.h>

#include <memory>
#include <vector>

namespace joltgym {

struct RenderGeom {
  int body = -1;             // simulated body, -1: static (world)
  JPH::Mat44 local;          // geom frame in the body's frame (the world's for static geoms)
  Mesh mesh;
  JPH::Vec3 rgb;             // linear 0-1
  int world_geom = -1;       // a static geom's index into ModelDesc::world_geoms
  int world_site = -1;       // or a world site's into ModelDesc::sites
};

// A spatial tendon drawn as a cylinder of its width between its two sites.
struct RenderTendon {
  int site1 = -1, site2 = -1;  // indices into ModelDesc::sites
  float radius = 0.0f;
  JPH::Vec3 rgb;
};

class RenderModel {
 public:
  explicit RenderModel(const CompiledModel& model, MeshDetail detail = kFineMesh);

  const std::vector<RenderGeom>& body_geoms() const { return body_geoms_; }
  const std::vector<RenderGeom>& static_geoms() const { return static_geoms_; }
  const std::vector<RenderTendon>& tendons() const { return tendons_; }
  // A cylinder of unit radius and unit half-length along z, which each tendon's frame stretches.
  const Mesh& unit_cylinder() const { return unit_cylinder_; }
  bool has_floor() const { return has_floor_; }
  float floor_height() const { return floor_height_; }
  JPH::Vec3 floor_rgb() const { return floor_rgb_; }
  // Radius of a sphere around the model's bodies at qpos0 (MuJoCo's stat.extent, roughly).
  float extent() const { return extent_; }

 private:
  std::vector<RenderGeom> body_geoms_, static_geoms_;
  std::vector<RenderTendon> tendons_;
  Mesh unit_cylinder_;
  bool has_floor_ = false;
  float floor_height_ = 0.0f;
  JPH::Vec3 floor_rgb_ = JPH::Vec3(0.8f, 0.85f, 0.8f);
  float extent_ = 1.0f;
};

// MuJoCo draws geom groups 0 to 2 by default.
constexpr int kVisibleGroups = 3;

}  // namespace joltgym
