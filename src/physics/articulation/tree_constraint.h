// The base of a constraint that solves a whole tree of bodies (the articulations), positions
// included. The rows it solves itself (its hinges' drive and limit rows, its plane contacts)
// are not given to Jolt, and its hinges need no constraint of their own: Jolt's per-update cost
// grows with every constraint it lists (island links, sorting, three virtual calls per
// iteration), and a constraint per hinge would be most of a robot's constraints. Jolt links a
// constraint's two bodies into one island; this one links every body of its tree, as a
// constraint per hinge would.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>

#include "physics/articulation/joint_space_system.h"
#include "physics/core/own_constraint_settings.h"
#include "physics/core/update_scratch.h"

#include <vector>

namespace joltgym {

class TreeConstraint : public OwnConstraint {
 public:
  // bodies: the tree's bodies, the root first.
  TreeConstraint(const std::vector<JPH::Body*>& bodies, JPH::uint32 priority);

  void BuildIslands(JPH::uint32 constraint_index, JPH::IslandBuilder& builder, JPH::BodyManager& body_manager) override;
  // One constraint moves every body of the tree: nothing of it can run in parallel.
  JPH::uint BuildIslandSplits(JPH::LargeIslandSplitter& splitter) const override;

  // After an update: the tree placed on its hinges again (SolvePositionConstraint at full
  // strength) if a body moved after the last placement. In each position iteration Jolt corrects
  // its contacts after the constraints, so only a Jolt contact that reached the tree leaves it
  // off its hinges; most updates none does, and placing again every update would cost a
  // noticeable share of a step.
  void PlaceAgainIfMoved(float dt);

  // Takes the bodies' masses again after they changed (Robot::SetParameter).
  virtual void RefreshMasses() = 0;

  // What the joints' damping, taken after the constraint forces (SolverDesc::mujoco_euler), changed body
  // `local`'s velocity by in the last update: MuJoCo's accelerations are found before it. Zero without.
  virtual void DampingVelocityChange(int /*local*/, JPH::Vec3& linear, JPH::Vec3& angular) const {
    linear = angular = JPH::Vec3::sZero();
  }

  // Where the next update's matrix, rows and contact points live (Robot::BeforeUpdate): the
  // stepping thread's, set before every update.
  void UseScratch(UpdateScratch& scratch) { scratch_ = &scratch; }

  // With Jolt's, the limits the last update ended released (JointSpaceSystem::Reset).
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;
  // Where the last placement left the bodies (PlaceAgainIfMoved compares with it): part of a
  // saved mid-episode state (Robot::SaveState), not of Jolt's.
  void SavePlacement(JPH::StateRecorder& stream) const;
  void RestorePlacement(JPH::StateRecorder& stream);

 protected:
  // The tree's rates and their rows, solved by the owner (articulation_constraint.h,
  // planar_articulation_constraint.h).
  JointSpaceSystem system_;

  // Where the placement left the bodies: the owner's SolvePositionConstraint ends with it.
  void RememberPlacement();
  // This update's scratch (UseScratch).
  UpdateScratch& scratch() const;

 private:
  std::vector<JPH::Body*> tree_;
  std::vector<JPH::RVec3> placed_position_;  // the bodies' centres of mass and rotations
  std::vector<JPH::Quat> placed_rotation_;
  bool placed_ = false;
  UpdateScratch* scratch_ = nullptr;
};

}  // namespace joltgym
