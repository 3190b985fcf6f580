// Every joint row of one planar tree solved exactly at each velocity iteration, in joint
// space: for planar links (SolverDesc::planar_links) every body moves in the plane and turns
// about its normal, so the tree's motions are its root's (three in-plane freedoms, or one
// hinge to the world) and one rate per hinge. Each iteration projects the bodies' velocities
// onto those motions in the bodies' mass metric, with each hinge's armature/damping drive and
// range limit as soft rows on its rate:
//
//   (T^T M T + sum 1/S e e^T) x = T^T M v - sum s (total + bias / S),   v' = T x
//
// T maps the generalized rates x to the bodies' velocities, S is a row's softness, s the
// hinge axis's sign; the same solution as the maximal-coordinate KKT system
// (articulation_constraint.h), for an n x n Cholesky per update and a few hundred flops
// per iteration on n <= a dozen rates.
//
// Why: joint-by-joint iterations converge slowly along a chain whose armature rows nearly
// lock the joint rates on light links, so that HalfCheetah's step stays far from its converged
// solve at any iteration count a step affords.
// The tree's plane contacts (AddContacts) are solved in the same joint space
// (joint_space_contacts.h), after the projection in each iteration, and then its tendon
// equalities (joint_space_equalities.h). Other contacts stay Jolt rows iterated around it.
//
// Positions: each body turns only about the normal, so Jolt's integration leaves every joint
// angle exact; what drifts is where the bodies sit (each moved along its own straight line
// while the tree turned). The position step places every body where its parent's anchor and
// its own rotation put it, parents first, then moves the whole tree so that its centre of mass
// stays where Jolt integrated it (the mass-weighted closest placement with these rotations):
// the anchors close exactly in one pass, where Gauss-Seidel passes of point rows leave them
// apart and cost more per update. A limit whose accumulated impulse would pull is dropped for
// the rest of the update and the system refactorised without it.
//
// Supported trees: a root free in the plane or hinged to the world, hinges below it
// (CompiledModel::CompileArticulation).
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>

#include "physics/articulation/joint_space_contacts.h"
#include "physics/articulation/joint_space_damping.h"
#include "physics/articulation/joint_space_equalities.h"
#include "physics/articulation/joint_space_system.h"
#include "physics/articulation/tree_constraint.h"
#include "physics/contacts/soft_contact_constraint.h"

#include <vector>

namespace joltgym {

class PlanarArticulationConstraint final : public TreeConstraint, public TreeRowSolver {
 public:
  // bodies: one tree's bodies, parents before children, bodies[0] the root; one hinge per
  // other body (and possibly one from the world to the root), in body order. normal_axis: the
  // plane's normal (0, 1 or 2: world x, y or z).
  // mujoco_euler (SolverDesc::mujoco_euler): the hinges' drive rows carry their damping
  // explicitly (JointAxisParams::damping_after_constraints), each velocity iteration ends
  // with DampAfterConstraints, and a free root moves as MuJoCo's root coordinates do: its
  // joints' anchor (root_anchor, in the root's COM frame) by h times its velocity there.
  PlanarArticulationConstraint(std::vector<JPH::Body*> bodies, std::vector<ArticulatedHinge> hinges, int normal_axis,
                               JPH::uint32 priority, bool mujoco_euler = false,
                               JPH::Vec3Arg root_anchor = JPH::Vec3::sZero());
  // After the update (mujoco_euler): the root's target of this update is spent.
  void EndUpdate() { root_target_valid_ = false; }

  void AddContacts(int body, SoftContactConstraint* contacts) override { contacts_.Attach(body, contacts); }
  void AddSelfContacts(int body1, int body2, SelfContactConstraint* contacts) override {
    contacts_.AttachSelf(body1, body2, contacts);
  }
  void AddTendonEquality(TendonEqualityConstraint* equality, const std::vector<int>& joints,
                         const std::vector<float>& coefs) override;

  // Between updates: each body's linear velocity made the one its tree's rates (the root's
  // velocity and turn, the hinges' relative turns) give at the bodies' current poses. Jolt's
  // integration leaves them as the rates gave them at the poses before, and the projection at
  // the next update then turns that lag into the velocity-product forces implicitly; with the
  // velocities re-expressed, the robot's bias accelerations can be taken explicitly instead
  // (SolverDesc::mujoco_euler, Robot::BeforeUpdate), as MuJoCo's Euler integrator does.
  void ReexpressVelocities();

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
  struct BodyInfo {
    JPH::Body* body = nullptr;
    double mass = 0.0;
    double inertia = 0.0;      // about the normal: constant while the body turns about it
    float inv_inertia = 0.0f;
  };
  static constexpr int kMaxBodies = 40;
  static constexpr int kMaxRates = JointSpaceSystem::kMaxRates;

  // One body's row of T: the rates that move it (its root's and its ancestors' hinges') and
  // how, (along u, along w, turning) per unit rate.
  struct BodyMotion {
    int count = 0;
    int rate[kMaxRates];
    double tu[kMaxRates], tw[kMaxRates], turn[kMaxRates];
  };

  int HingeRate(int hinge) const { return root_rates_ + hinge; }
  // A body's in-plane velocity (along u, along w, turning) for the rates rate(r): T_body x.
  template <typename Rate>
  static void VelocityOf(const BodyMotion& m, Rate&& rate, double out[3]) {
    out[0] = out[1] = out[2] = 0.0;
    for (int c = 0; c < m.count; ++c) {
      const double x = rate(m.rate[c]);
      out[0] += m.tu[c] * x;
      out[1] += m.tw[c] * x;
      out[2] += m.turn[c] * x;
    }
  }
  // The active contacts, their points' in-plane velocity rows P at the bodies' current poses.
  void BuildContacts(float dt);
  // T at the bodies' current poses.
  void BuildMotions();
  // T^T M T into the system, factorised.
  void Factorise();
  // The factor again after a limit's release: T^T M T is unchanged, only the rows are fewer.
  void Refactorise();
  // One exact solve on the current velocities; false if a limit had to be dropped first.
  bool SolveOnce();
  // Impulse on a hinge's rate: its two bodies' turning (M^-1 J^T lambda).
  void ApplyRateImpulse(int hinge, float impulse);
  // MuJoCo's Euler order for the joints' damping (joint_space_damping.h): the iteration's rates
  // changed by damping_'s and carried to the bodies.
  void DampAfterConstraints();

  JPH::Vec3 n_, u_, w_;  // the plane's normal and its two in-plane axes
  std::vector<BodyInfo> bodies_;
  std::vector<ArticulatedHinge> hinges_;
  std::vector<float> axis_sign_;    // per hinge: its axis along +normal or -normal
  std::vector<int> parent_of_;      // per body: its parent body, -1 for the root
  std::vector<int> hinge_of_;       // per body: the hinge it hangs from, -1 for a free root
  int root_rates_ = 0;              // 3: the root is free in the plane; 0: hinged to the world
  std::vector<BodyMotion> motion_;  // T, per body
  double v_[kMaxBodies][3];         // scratch: the bodies' velocities
  JPH::Vec3 placed_[kMaxBodies];    // scratch: the bodies' centres of mass as the anchors place them
  JointSpaceContacts<2> contacts_;  // along u and w
  JointSpaceEqualities equalities_;
  bool mujoco_euler_ = false;
  // Where MuJoCo's integration puts the free root's centre of mass this update (qpos += h qvel on
  // its slides and hinge): Jolt moves the centre along its velocity, MuJoCo the joints' anchor,
  // which turns about the centre; O(h^2 w^2 r) apart, enough to show in HalfCheetah's torso height.
  JPH::Vec3 root_anchor_;
  JPH::Vec3 root_target_;
  bool root_target_valid_ = false;
  std::vector<JPH::Vec3> damping_linear_, damping_angular_;  // per body: the last damping's velocity change
  JointSpaceDamping damping_;  // mujoco_euler: the joints' damping after the constraint forces
};

}  // namespace joltgym
