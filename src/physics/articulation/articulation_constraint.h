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
// light links for hundreds of iterations, and an airborne Ant stays far from converged MuJoCo
// at any iteration count a step affords (benchmarks/solver_measurements.md).
// The tree's plane contacts (AddContacts) are solved in the same joint space
// (joint_space_contacts.h), after the projection in each iteration, and then its tendon
// equalities (joint_space_equalities.h); other contacts stay Jolt rows iterated around it. A limit whose accumulated impulse would pull is dropped for the
// rest of the update and the system refactorised without it.
//
// A body on two or three hinges about one anchor (gimbal.h: the Humanoid's abdomen, hips and
// shoulders) has one rate per hinge; each hinge's world axis is the one the coordinates before
// it leave (MeasureGimbal), so the rates are MuJoCo's qvel and the drive and limit rows act on
// them as on a single hinge's. Where the hinges have anchors of their own (dm_control's humanoid's
// ankles), each rate turns the body about its own hinge's anchor (GimbalAnchorOnChild).
//
// Positions: Jolt integrates each body on its own, so a child's rotation drifts off its hinge's
// axis and its anchor off its parent's. The position step places the tree again, parents first:
// each child keeps its joint angles (a single hinge's turn about its axis, the swing dropped; a
// multi-hinge body's coordinates, a two-hinge body's third rotation dropped) and sits where its
// parent's anchor puts it; then the whole tree moves so that its centre of mass stays where Jolt
// integrated it (a hinged-to-the-world tree stays on its anchor). One pass closes the anchors
// exactly, where Jolt's hinge position parts, iterated joint by joint, cost a large share of a
// step and still leave the anchors apart.
//
// Supported trees: a free or world-hinged root and 3-D hinges below it (one per body, or two or
// three on one body), one constraint per tree (CompiledModel::CompileArticulation).
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>

#include "physics/articulation/joint_space_contacts.h"
#include "physics/articulation/joint_space_damping.h"
#include "physics/articulation/joint_space_equalities.h"
#include "physics/articulation/joint_space_system.h"
#include "physics/articulation/tree_constraint.h"
#include "physics/joints/joint_axis_constraint.h"

#include <vector>

namespace joltgym {

class ArticulationConstraint final : public TreeConstraint, public TreeRowSolver {
 public:
  // bodies: one tree's bodies, parents before children, bodies[0] the root; one to three hinges
  // per other body (and possibly some from the world to the root), in body order.
  // mujoco_euler (SolverDesc::mujoco_euler): the hinges' drive rows carry their damping explicitly
  // (JointAxisParams::damping_after_constraints) and each velocity iteration ends with the damping taken
  // after the constraint forces (joint_space_damping.h), as MuJoCo's Euler step takes it.
  ArticulationConstraint(std::vector<JPH::Body*> bodies, std::vector<ArticulatedHinge> hinges, JPH::uint32 priority,
                         bool mujoco_euler = false);

  void AddContacts(int body, SoftContactConstraint* contacts) override { contacts_.Attach(body, contacts); }
  void AddSelfContacts(int body1, int body2, SelfContactConstraint* contacts) override {
    contacts_.AttachSelf(body1, body2, contacts);
  }
  void AddTendonEquality(TendonEqualityConstraint* equality, const std::vector<int>& joints,
                         const std::vector<float>& coefs) override;

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User4; }
  void ResetWarmStart() override {}
  void RefreshMasses() override;
  void DampingVelocityChange(int local, JPH::Vec3& linear, JPH::Vec3& angular) const override {
    if (!mujoco_euler_) return TreeConstraint::DampingVelocityChange(local, linear, angular);
    linear = damping_linear_[size_t(local)];
    angular = damping_angular_[size_t(local)];
  }
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float dt, float baumgarte) override;

 private:
  static constexpr int kMaxBodies = 40;
  static constexpr int kMaxRates = JointSpaceSystem::kMaxRates;

  struct BodyInfo {
    JPH::Body* body = nullptr;
    float mass = 0.0f;
    JPH::Mat44 inertia;      // world, at this update's pose
    JPH::Mat44 inv_inertia;
  };
  // One body's row of T: the rates that move it (its root's and its ancestors' hinges', its
  // own last) and how, (linear, angular) velocity of its centre of mass per unit rate.
  struct BodyMotion {
    int count = 0;
    // Room for the rates of the body's path (motion_rates_ and motion_twists_, its share of them).
    int* rate = nullptr;
    JPH::Vec3* lin = nullptr;
    JPH::Vec3* ang = nullptr;
  };
  // A body's subtree as one rigid body about the root's centre of mass (the composite rigid
  // body of Featherstone's CRBA): mass, first moment sum m d and rotational inertia
  // sum (I + m (|d|^2 1 - d d^T)), d a body's offset from the root's centre of mass.
  struct Composite {
    float mass;
    JPH::Vec3 moment;
    JPH::Mat44 inertia;
  };

  int HingeRate(int hinge) const { return root_rates_ + hinge; }
  // A body's velocity (linear at its centre of mass, angular) for the rates rate(r): T_body x.
  template <typename Rate>
  static void VelocityOf(const BodyMotion& m, Rate&& rate, JPH::Vec3& lin, JPH::Vec3& ang) {
    lin = ang = JPH::Vec3::sZero();
    for (int c = 0; c < m.count; ++c) {
      const float x = float(rate(m.rate[c]));
      lin += x * m.lin[c];
      ang += x * m.ang[c];
    }
  }
  // T and the hinges' rate rows at the bodies' current poses.
  void BuildMotions();
  // T^T M T into the system, factorised.
  void Factorise();
  // The factor again after a limit's release: T^T M T is unchanged, only the rows are fewer.
  void Refactorise();
  // T^T M T from the subtrees' composite inertias: entry (r, s) is the motion of rate r met by
  // the momentum that rate s gives the deeper one's subtree. Summed body by body over each
  // body's rates it would cost n_b^2 / 2 pairs of 3-D products per body, a large share of a
  // Humanoid's step; this is one momentum per rate and one 6-D product per pair of rates on a path.
  void AddMassMatrix();
  // One exact solve on the current velocities; false if a limit had to be dropped first.
  bool SolveOnce();
  // The iteration's rates changed by damping_'s, carried to the bodies (mujoco_euler).
  void DampAfterConstraints();
  // Impulse on a hinge's rate: its two bodies' turning along its rate row (M^-1 J^T lambda).
  void ApplyRateImpulse(int hinge, float impulse);
  // Where the hinges put body i's rotation, its parent's placed at `parent` (identity: the world).
  JPH::Quat PlacedRotation(int i, JPH::QuatArg parent) const;
  // Body i's point, in its COM frame, on the anchor of its hinge `slot`, hinges with anchors apart.
  JPH::Vec3 AnchorOnChild(int i, int slot, JPH::Vec3Arg angles) const;

  std::vector<BodyInfo> bodies_;
  std::vector<ArticulatedHinge> hinges_;
  // Per hinge: j with rate = j . (w_child - w_parent) at this update (a single hinge's axis).
  std::vector<JPH::Vec3> rate_row_;
  std::vector<int> parent_of_;      // per body: its parent body, -1 for the root
  std::vector<int> hinge_of_;       // per body: its first hinge, -1 for a free root
  std::vector<int> hinges_on_;      // per body: how many hinges it hangs from (0 to 3)
  int root_rates_ = 0;              // 6: the root is free; 0: hinged to the world
  std::vector<BodyMotion> motion_;  // T, per body
  std::vector<int> motion_rates_;          // every body's path of rates, one after another
  std::vector<JPH::Vec3> motion_twists_;   // and their (lin, ang): two per entry there
  // Per rate: its motion as a twist about the root's centre of mass (turning, and the velocity
  // of the point there), for AddMassMatrix.
  std::vector<JPH::Vec3> rate_w_, rate_v_;
  std::vector<Composite> composite_;        // per body
  std::vector<JPH::Vec3> v_, w_;            // per body, scratch: the bodies' velocities
  std::vector<JPH::Quat> rest_;                // per hinge: the child's rotation in its parent's frame, less the turn
  std::vector<JPH::Vec3> placed_;              // per body, scratch: where the hinges place its centre of mass
  std::vector<JPH::Quat> placed_rotation_;     // and how they turn it
  JointSpaceContacts<3> contacts_;  // along world x, y and z
  JointSpaceEqualities equalities_;
  bool mujoco_euler_ = false;
  std::vector<JPH::Vec3> damping_linear_, damping_angular_;  // per body: the last damping's velocity change
  JointSpaceDamping damping_;  // mujoco_euler: the joints' damping after the constraint forces
};

}  // namespace joltgym
