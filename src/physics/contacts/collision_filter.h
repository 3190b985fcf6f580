// MuJoCo's contact rules as a Jolt group filter: contype/conaffinity bitmasks,
// parent-child exclusion and <contact><exclude> pairs, precomputed per model.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Collision/CollisionGroup.h>
#include <Jolt/Physics/Collision/GroupFilter.h>

#include <vector>

namespace joltgym {

// Group ids index "collision entries": first the dynamic bodies, then each static
// world geom. The table is immutable once built and shared by every world.
class ModelCollisionFilter final : public JPH::GroupFilter {
 public:
  explicit ModelCollisionFilter(int num_entries);

  void Allow(int a, int b, bool allowed);
  bool Allowed(int a, int b) const {
    return a < num_entries_ && b < num_entries_ && allowed_[size_t(a) * size_t(num_entries_) + size_t(b)] != 0;
  }
  bool CanCollide(const JPH::CollisionGroup& g1, const JPH::CollisionGroup& g2) const override;

 private:
  int num_entries_;
  std::vector<unsigned char> allowed_;
};

}  // namespace joltgym
