#include "physics/world/world_collision_filter.h"

#include "physics/world/world.h"

namespace joltgym {

WorldCollisionFilter::WorldCollisionFilter(std::vector<ModelPtr> robots, ModelPtr scene, const CollisionRule& rule)
    : robots_(std::move(robots)), scene_(std::move(scene)), n_(int(robots_.size())) {
  contact_.resize(size_t(n_) * size_t(n_));
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b) contact_[size_t(a) * size_t(n_) + size_t(b)] = (unsigned char)(rule.Between(a, b));
  if (scene_->solver().soft_contacts)
    for (const CompiledStaticGeom& s : scene_->static_geoms()) {
      if (soft_plane_.size() <= size_t(s.collision_entry)) soft_plane_.resize(size_t(s.collision_entry) + 1, 0);
      soft_plane_[size_t(s.collision_entry)] = s.plane || s.height_field;
    }
}

bool WorldCollisionFilter::RobotAndScene(JPH::uint32 robot, JPH::uint32 entry, JPH::uint32 scene_entry) const {
  if (scene_entry < soft_plane_.size() && soft_plane_[scene_entry]) return false;
  const CompiledModel& model = *robots_[robot];
  if (&model == scene_.get()) return model.EntriesCollide(int(entry), int(scene_entry));
  return model.CollidesWithWorldGeom(int(entry), scene_->collision_bits(int(scene_entry)));
}

bool WorldCollisionFilter::CanCollide(const JPH::CollisionGroup& g1, const JPH::CollisionGroup& g2) const {
  const JPH::uint32 r1 = g1.GetGroupID(), r2 = g2.GetGroupID();
  const JPH::uint32 e1 = g1.GetSubGroupID(), e2 = g2.GetSubGroupID();
  if (r1 == kSceneGroup) return r2 != kSceneGroup && RobotAndScene(r2, e2, e1);
  if (r2 == kSceneGroup) return RobotAndScene(r1, e1, e2);
  if (r1 == r2) return robots_[r1]->EntriesCollide(int(e1), int(e2));
  switch (RobotContact(contact_[size_t(r1) * size_t(n_) + size_t(r2)])) {
    case RobotContact::kNone: return false;
    case RobotContact::kAlways: return Collides(robots_[r1]->collision_bits(int(e1))) &&
                                       Collides(robots_[r2]->collision_bits(int(e2)));
    case RobotContact::kBitmasks: break;
  }
  return BitmasksMeet(robots_[r1]->collision_bits(int(e1)), robots_[r2]->collision_bits(int(e2)));
}

std::vector<std::vector<bool>> WorldCollisionFilter::InertBodies() const {
  std::vector<JPH::CollisionGroup> everything;
  for (const CompiledStaticGeom& s : scene_->static_geoms())
    everything.emplace_back(nullptr, kSceneGroup, JPH::uint32(s.collision_entry));
  for (int r = 0; r < n_; ++r)
    for (const CompiledBody& b : robots_[size_t(r)]->bodies())
      everything.emplace_back(nullptr, JPH::uint32(r), JPH::uint32(b.collision_entry));
  std::vector<std::vector<bool>> inert(static_cast<size_t>(n_));
  size_t self = scene_->static_geoms().size();
  for (int r = 0; r < n_; ++r)
    for (size_t b = 0; b < robots_[size_t(r)]->bodies().size(); ++b, ++self) {
      bool touches = false;
      for (size_t other = 0; other < everything.size() && !touches; ++other)
        touches = other != self && CanCollide(everything[self], everything[other]);
      inert[size_t(r)].push_back(!touches);
    }
  return inert;
}

}  // namespace joltgym
