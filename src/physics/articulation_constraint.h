// Every joint row of one robot tree solved exactly at each velocity iteration, in joint space:
// the tree's motions are its root's (six freedoms, or one hinge to the world) and one rate per
// hinge, and each iteration projects the bodies' velocities onto them in the bodies' mass
// metric, each hinge's armature/damping drive and range limit as soft rows on its rate
// (joint_space_system.h). The result is the maximal-coordinate KKT solution of all the joint
// rows (Baraff, "Linear-time dynamics using Lagrange multipliers", 1996) for an n x n
// Cholesky per update and a few hundred flops per iteration.
//
// Why: a joint's armature row is nearly a lock on its rate (Ant: armature 1 on links of
// ~1e-3 kg m^2), so joint-by-joint Gauss-Seidel passes corrections back and forth across
// light links for hundreds of iterations. The airborne Ant was 5.8 off converged MuJoCo at
// 4 sub-steps x 20 iterations and still 2.5 at 80 (benchmarks/step_fidelity.py, summed |qvel|
// over five frames; converged at 4 sub-steps: 1.4; benchmarks/solver_measurements.md).
// The tree's plane contacts (AddContacts) are solved in the same joint space
// (joint_space_contacts.h), after the projection in each iteration; other contacts stay Jolt
// rows iterated around it. A limit whose accumulated impulse would pull is dropped for the
// rest of the update and the system refactorised without it.
//
// Positions: Jolt integrates each body on its own, so a child's rotation drifts off its hinge's
// axis and its anchor off its parent's. The position step places the tree again, parents first:
// each child keeps its turn about the hinge axis (the joint angle; the swing is dropped) and sits
// where its parent's anchor puts it; then the whole tree moves so that its centre of mass stays
// where Jolt integrated it (a hinged-to-the-world tree stays on its anchor). One pass closes the
// anchors exactly, where Jolt's hinge position parts, iterated joint by joint, cost 26% of an Ant
// step and left 0.9 mm.
//
// Supported trees: a free or world-hinged root and single 3-D hinges below it, one constraint
// per tree (CompiledModel::CompileArticulation).
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>

#include "physics/joint_axis_constraint.h"
#include "physics/joint_space_contacts.h"
#include "physics/joint_space_system.h"
#include "physics/tree_constraint.h"

#include <vector>

namespace joltgym {

class ArticulationConstraint final : public TreeConstraint, public PlaneContactSolver {
 public:
  // bodies: one tree's bodies, parents before children, bodies[0] the root; one hinge per
  // other body (and possibly one from the world to the root), in body order.
  ArticulationConstraint(std::vector<JPH::Body*> bodies, std::vector<ArticulatedHinge> hinges, JPH::uint32 priority);

  void AddContacts(int body, SoftContactConstraint* contacts) override { contacts_.Attach(body, contacts); }

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User4; }
  void ResetWarmStart() override {}
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float dt, float baumgarte) override;

 private:
  static constexpr int kMaxBodies = 24;
  static constexpr int kMaxRates = JointSpaceSystem::kMaxRates;

  struct BodyInfo {
    JPH::Body* body = nullptr;
    float mass = 0.0f;
    JPH::Mat44 inertia;      // world, at this update's pose
    JPH::Mat44 inv_inertia;
  };
  // One body's row of T: the rates that move it (its root's and its ancestors' hinges') and
  // how, (linear, angular) velocity per unit rate; `inertia_ang` is the body's inertia times
  // the angular part.
  struct BodyMotion {
    int count = 0;
    int rate[kMaxRates];
    JPH::Vec3 lin[kMaxRates], ang[kMaxRates], inertia_ang[kMaxRates];
  };

  int HingeRate(int hinge) const { return root_rates_ + hinge; }
  // T and the hinges' world axes at the bodies' current poses.
  void BuildMotions();
  // T^T M T into the system, factorised.
  void Factorise();
  // One exact solve on the current velocities; false if a limit had to be dropped first.
  bool SolveOnce();
  // Impulse on a hinge's rate: its two bodies' turning about its axis (M^-1 J^T lambda).
  void ApplyRateImpulse(int hinge, float impulse);

  std::vector<BodyInfo> bodies_;
  std::vector<ArticulatedHinge> hinges_;
  std::vector<JPH::Vec3> axis_;     // per hinge: its world axis at this update
  std::vector<int> parent_of_;      // per body: its parent body, -1 for the root
  std::vector<int> hinge_of_;       // per body: the hinge it hangs from, -1 for a free root
  int root_rates_ = 0;              // 6: the root is free; 0: hinged to the world
  std::vector<BodyMotion> motion_;  // T, per body
  std::vector<int> rate_parent_;    // per rate: its parent in the tree of rates (JointSpaceSystem::Reset)
  JPH::Vec3 v_[kMaxBodies], w_[kMaxBodies];  // scratch: the bodies' velocities
  std::vector<JPH::Quat> rest_;                // per hinge: the child's rotation in its parent's frame, less the turn
  JPH::Vec3 placed_[kMaxBodies];               // scratch: where the hinges place each body's centre of mass
  JPH::Quat placed_rotation_[kMaxBodies];      // and how they turn it
  JointSpaceSystem system_;
  JointSpaceContacts<3> contacts_;  // along world x, y and z
};

}  // namespace joltgym
