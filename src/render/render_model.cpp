#include "render/render_model.h"

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

JPH::Mat44 GeomFrame(const GeomDesc& g) {
  const JPH::Quat q(g.quat[1], g.quat[2], g.quat[3], g.quat[0]);
  return JPH::Mat44::sRotationTranslation(q.Normalized(), JPH::Vec3(g.pos[0], g.pos[1], g.pos[2]));
}

bool Visible(const GeomDesc& g) { return g.group < kVisibleGroups && g.rgba[3] > 0.0f; }

}  // namespace

RenderModel::RenderModel(const CompiledModel& model, MeshDetail detail) {
  const ModelDesc& desc = model.desc();
  float extent = 0.0f;
  JPH::Vec3 centre = JPH::Vec3::sZero();
  for (const BodyDesc& b : desc.bodies) centre += JPH::Vec3(b.pos[0], b.pos[1], b.pos[2]);
  if (!desc.bodies.empty()) centre /= float(desc.bodies.size());
  for (size_t i = 0; i < desc.bodies.size(); ++i) {
    const BodyDesc& b = desc.bodies[i];
    extent = std::max(extent, (JPH::Vec3(b.pos[0], b.pos[1], b.pos[2]) - centre).Length());
    for (const GeomDesc& g : b.geoms) {
      if (!Visible(g)) continue;
      Mesh mesh = g.mesh >= 0 && g.mesh < int(desc.meshes.size()) ? MeshForMesh(desc.meshes[size_t(g.mesh)]) : MeshForGeom(g, detail);
      RenderGeom r{int(i), GeomFrame(g), std::move(mesh), JPH::Vec3(g.rgba[0], g.rgba[1], g.rgba[2])};
      if (!r.mesh.indices.empty()) body_geoms_.push_back(std::move(r));
      extent = std::max(extent, (JPH::Vec3(b.pos[0], b.pos[1], b.pos[2]) - centre).Length() +
                                    std::sqrt(g.size[0] * g.size[0] + g.size[1] * g.size[1]));
    }
  }
  extent_ = std::max(extent, 0.2f);
  // Visible sites, as MuJoCo draws them (groups 0-2).
  for (size_t s = 0; s < desc.sites.size(); ++s) {
    const SiteDesc& site = desc.sites[s];
    if (site.group >= kVisibleGroups || site.rgba[3] <= 0.0f) continue;
    GeomDesc g;
    g.pos = site.pos;
    g.quat = site.quat;
    g.size = site.size;
    g.type = GeomType(int(site.type));  // a site's types number as a geom's
    RenderGeom r{site.body, GeomFrame(g), MeshForGeom(g, detail), JPH::Vec3(site.rgba[0], site.rgba[1], site.rgba[2])};
    if (site.body < 0) r.world_site = int(s);
    if (r.mesh.indices.empty()) continue;
    (site.body >= 0 ? body_geoms_ : static_geoms_).push_back(std::move(r));
  }
  for (const SpatialTendonDesc& t : desc.spatial_tendons)
    if (t.group < kVisibleGroups && t.rgba[3] > 0.0f && t.width > 0.0f)
      tendons_.push_back({t.site1, t.site2, t.width, JPH::Vec3(t.rgba[0], t.rgba[1], t.rgba[2])});
  if (!tendons_.empty()) {
    GeomDesc cylinder;
    cylinder.type = GeomType::Cylinder;
    cylinder.size = {1.0f, 1.0f, 0.0f};
    unit_cylinder_ = MeshForGeom(cylinder, detail);
  }
  for (const GeomDesc& g : desc.world_geoms) {
    const int world_geom = int(&g - desc.world_geoms.data());
    if (!Visible(g)) continue;
    if (g.type == GeomType::Plane) {
      const JPH::Quat q(g.quat[1], g.quat[2], g.quat[3], g.quat[0]);
      const bool horizontal = (q.Normalized() * JPH::Vec3::sAxisZ()).GetZ() > 0.999f;
      if (horizontal && !has_floor_) {  // the floor; MuJoCo planes are infinite
        has_floor_ = true;
        floor_height_ = g.pos[2];
        floor_rgb_ = JPH::Vec3(g.rgba[0], g.rgba[1], g.rgba[2]);
      }
      continue;
    }
    Mesh mesh = MeshForGeom(g, detail);
    if (g.type == GeomType::HeightField && g.height_field >= 0 && g.height_field < int(desc.height_fields.size())) {
      const HeightFieldDesc& field = desc.height_fields[size_t(g.height_field)];
      mesh = MeshForHeightField(field, std::max(1, std::max(field.nrow, field.ncol) / 96));  // ~96 x 96 quads drawn
    }
    RenderGeom r{-1, GeomFrame(g), std::move(mesh), JPH::Vec3(g.rgba[0], g.rgba[1], g.rgba[2]), world_geom};
    if (!r.mesh.indices.empty()) static_geoms_.push_back(std::move(r));
  }
}

}  // namespace joltgym
