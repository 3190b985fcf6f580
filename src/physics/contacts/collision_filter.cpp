#include "physics/contacts/collision_filter.h"

namespace joltgym {

ModelCollisionFilter::ModelCollisionFilter(int num_entries)
    : num_entries_(num_entries), allowed_(size_t(num_entries) * size_t(num_entries), 0) {}

void ModelCollisionFilter::Allow(int a, int b, bool allowed) {
  allowed_[size_t(a) * num_entries_ + b] = allowed;
  allowed_[size_t(b) * num_entries_ + a] = allowed;
}

bool ModelCollisionFilter::CanCollide(const JPH::CollisionGroup& g1,
                                      const JPH::CollisionGroup& g2) const {
  const JPH::uint32 a = g1.GetGroupID(), b = g2.GetGroupID();
  if (a >= JPH::uint32(num_entries_) || b >= JPH::uint32(num_entries_)) return true;
  return allowed_[size_t(a) * num_entries_ + b] != 0;
}

}  // namespace joltgym
