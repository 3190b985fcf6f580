#include "physics/articulation/tree_constraint.h"

#include <Jolt/Physics/Body/BodyManager.h>
#include <Jolt/Physics/IslandBuilder.h>
#include <Jolt/Physics/LargeIslandSplitter.h>

#include <stdexcept>

namespace joltgym {

TreeConstraint::TreeConstraint(const std::vector<JPH::Body*>& bodies, JPH::uint32 priority)
    // A lone world-hinged body pairs with the world.
    : OwnConstraint(bodies.size() > 1 ? *bodies[0] : JPH::Body::sFixedToWorld, bodies.size() > 1 ? *bodies[1] : *bodies[0],
                    priority),
      tree_(bodies),
      placed_position_(bodies.size()),
      placed_rotation_(bodies.size()) {}

UpdateScratch& TreeConstraint::scratch() const {
  // Only World::Step updates a robot's system, and it hands every tree its thread's scratch first.
  if (!scratch_) throw std::logic_error("a tree was updated outside World::Step, with no scratch to take its rows from");
  return *scratch_;
}

void TreeConstraint::SaveState(JPH::StateRecorder& stream) const {
  OwnConstraint::SaveState(stream);
  system_.SaveReleased(stream);
}

void TreeConstraint::RestoreState(JPH::StateRecorder& stream) {
  OwnConstraint::RestoreState(stream);
  system_.RestoreReleased(stream);
}

void TreeConstraint::SavePlacement(JPH::StateRecorder& stream) const {
  stream.Write(placed_);
  for (size_t i = 0; i < tree_.size(); ++i) {
    stream.Write(placed_position_[i]);
    stream.Write(placed_rotation_[i]);
  }
}

void TreeConstraint::RestorePlacement(JPH::StateRecorder& stream) {
  stream.Read(placed_);
  for (size_t i = 0; i < tree_.size(); ++i) {
    stream.Read(placed_position_[i]);
    stream.Read(placed_rotation_[i]);
  }
}

void TreeConstraint::BuildIslands(JPH::uint32 constraint_index, JPH::IslandBuilder& builder,
                                  JPH::BodyManager& body_manager) {
  for (JPH::Body* body : tree_)
    if (body->IsDynamic() && !body->IsActive()) {
      const JPH::BodyID id = body->GetID();
      body_manager.ActivateBodies(&id, 1);
    }
  const JPH::uint32 root = tree_[0]->GetIndexInActiveBodiesInternal();
  for (size_t i = 1; i < tree_.size(); ++i) builder.LinkBodies(root, tree_[i]->GetIndexInActiveBodiesInternal());
  builder.LinkConstraint(constraint_index, mBody1->GetIndexInActiveBodiesInternal(),
                         mBody2->GetIndexInActiveBodiesInternal());
}

void TreeConstraint::RememberPlacement() {
  placed_ = true;
  for (size_t i = 0; i < tree_.size(); ++i) {
    placed_position_[i] = tree_[i]->GetCenterOfMassPosition();
    placed_rotation_[i] = tree_[i]->GetRotation();
  }
}

void TreeConstraint::PlaceAgainIfMoved(float dt) {
  bool moved = !placed_;
  for (size_t i = 0; !moved && i < tree_.size(); ++i)
    moved = tree_[i]->GetCenterOfMassPosition() != placed_position_[i] || tree_[i]->GetRotation() != placed_rotation_[i];
  if (moved) SolvePositionConstraint(dt, 1.0f);
}

JPH::uint TreeConstraint::BuildIslandSplits(JPH::LargeIslandSplitter&) const {
  return JPH::LargeIslandSplitter::cNonParallelSplitIdx;
}

}  // namespace joltgym
