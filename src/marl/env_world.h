// One multi-agent env's part of a Jolt world: robots [first, first + count) of a world that
// may hold other envs' robots too (packed: never touching these, MultiAgentTask::CanPack).
// Tasks see their env through it and number its robots from 0 whatever the packing.
#pragma once

#include "physics/world/world.h"

namespace joltgym {

class EnvWorld {
 public:
  EnvWorld(World& world, int first, int count) : world_(&world), first_(first), count_(count) {}

  World& world() const { return *world_; }
  int first_robot() const { return first_; }
  int num_robots() const { return count_; }
  Robot& robot(int i) const { return world_->robot(first_ + i); }
  // Whether the env's robots a and b touched since the last ClearTouches (World::Touched).
  bool Touched(int a, int b) const { return world_->Touched(first_ + a, first_ + b); }
  void ClearTouches() const { world_->ClearTouches(first_, count_); }
  // Whether any of the env's robots diverged: they interact, so the env's state then means
  // nothing for any of them.
  bool AnyRobotDiverged() const {
    for (int i = 0; i < count_; ++i)
      if (robot(i).Diverged()) return true;
    return false;
  }

 private:
  World* world_;
  int first_;
  int count_;
};

}  // namespace joltgym
