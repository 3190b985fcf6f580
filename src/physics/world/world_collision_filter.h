// Contacts in a world of robots: within one robot, its model's rules (contype/conaffinity,
// parent-child, <exclude>); between a robot and the scene, the robot's model's rules
// against the world body; between two robots, the world's CollisionRule and the two
// geoms' contype/conaffinity, as MuJoCo would apply them in one model.
//
// A body's CollisionGroup holds its robot's index (kSceneGroup for the static scene) and
// its entry in that model's collision table (CompiledModel::collision_entry).
//
// With soft contacts (SolverDesc::soft_contacts, the scene's setting), robots never touch
// the scene's planes through Jolt: their SoftContactConstraints do; nor, with their model's
// setting, the body pairs of CompiledModel::self_contacts (SelfContactConstraint).
#pragma once

#include "physics/model/compiled_model.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Collision/GroupFilter.h>

#include <vector>

namespace joltgym {

class CollisionRule;

class WorldCollisionFilter final : public JPH::GroupFilter {
 public:
  static constexpr JPH::uint32 kSceneGroup = 0xFFFFFFFFu;

  // robots: each robot's model; the scene's static geoms are those of `scene`.
  WorldCollisionFilter(std::vector<ModelPtr> robots, ModelPtr scene, const CollisionRule& rule);

  bool CanCollide(const JPH::CollisionGroup& g1, const JPH::CollisionGroup& g2) const override;

  // Per robot, per body: whether the body can touch nothing through Jolt (no other body of
  // any robot and no static geom of the scene passes CanCollide with it).
  std::vector<std::vector<bool>> InertBodies() const;

 private:
  bool RobotAndScene(JPH::uint32 robot, JPH::uint32 entry, JPH::uint32 scene_entry) const;

  std::vector<ModelPtr> robots_;
  ModelPtr scene_;
  int n_;
  std::vector<unsigned char> contact_;  // RobotContact per pair of robots
  // Per scene entry: a plane whose contacts with robots are soft (soft_contact_constraint.h), not Jolt's.
  std::vector<unsigned char> soft_plane_;
};

}  // namespace joltgym
