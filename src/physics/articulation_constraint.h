// Every joint row of one robot solved exactly at each velocity iteration: the hinges'
// anchor and alignment rows with their armature/damping drives and range limits, as one
// linear system over the robot's tree (Baraff, "Linear-time dynamics using Lagrange
// multipliers", 1996), instead of one joint at a time.
//
// Why: a joint's armature row is nearly a lock on its rate (Ant: armature 1 on links of
// ~1e-3 kg m^2), so joint-by-joint Gauss-Seidel passes corrections back and forth across
// light links for hundreds of iterations. The airborne Ant was 5.8 off converged MuJoCo at
// 4 sub-steps x 20 iterations and still 2.5 at 80 (benchmarks/step_fidelity.py, summed |qvel|
// over five frames; converged at 4 sub-steps: 1.4; benchmarks/solver_measurements.md).
//
// The system is the KKT matrix H = [[M, J^T], [J, -S]] over body nodes (6x6 mass) and joint
// nodes (their rows, S the soft rows' softness), which for a tree factorises leaves first
// with no fill-in: H = L D L^T, each node's block eliminated into its parent. Per update:
// one factorisation; per iteration: the rows' residuals, one forward and one backward pass.
// Contacts stay Jolt rows iterated around it. A limit whose accumulated impulse would pull
// is dropped for the rest of the update and the tree refactorised without it.
//
// Supported robots: a free or world-hinged root and single 3-D hinges below it
// (CompiledModel::CheckArticulable); the hinges' positions are HingePositionConstraint's.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>

#include "physics/joint_axis_constraint.h"
#include "physics/own_constraint_settings.h"

#include <vector>

namespace joltgym {

struct ArticulatedHinge {
  int body = -1;    // child body (index into the robot's bodies)
  int parent = -1;  // parent body, -1: the world
  JPH::Vec3 anchor_local1;  // anchor in the parent's COM frame (world frame for the world)
  JPH::Vec3 anchor_local2;  // anchor in the child's COM frame
  JPH::Vec3 axis_local1;    // hinge axis in the parent's COM frame (world frame for the world)
  JointAxisConstraint* axis_rows = nullptr;  // the joint's drive and limit (in_articulation), or none
};

class ArticulationConstraint final : public OwnConstraint {
 public:
  // bodies: the robot's bodies, parents before children, bodies[0] the root; one hinge per
  // other body (and possibly one from the world to the root), in body order.
  ArticulationConstraint(std::vector<JPH::Body*> bodies, std::vector<ArticulatedHinge> hinges, JPH::uint32 priority);

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User4; }
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  static constexpr int kRigidRows = 5;
  static constexpr int kMaxRows = 7;
  // Joint blocks are padded to this many rows (zero Jacobian, zero inverse) so that every
  // loop has a fixed length and vectorises.
  static constexpr int kPad = 8;

  struct BodyNode {
    JPH::Body* body = nullptr;
    int joint = -1;                 // the joint node it hangs from, -1: the tree's root
    float inv_mass = 0.0f;
    JPH::Mat44 inv_inertia;         // world
    double d[6][6];                 // D: the mass, then the children's articulated terms
    double dinv[6][6];              // D^-1
    double f[6][kPad];              // D^-1 (J_joint,this)^T
    double rhs[6];
  };
  struct JointNode {
    ArticulatedHinge hinge;
    int m = 0;                      // rows: 3 anchor, 2 alignment, then drive, then limit
    int drive_row = -1, limit_row = -1;
    bool lower_limit = true;
    bool limit_dropped = false;     // released in this update
    // Each row's Jacobian on the child and on the parent, as (linear, angular).
    JPH::Vec3 child_lin[kMaxRows], child_ang[kMaxRows], parent_lin[kMaxRows], parent_ang[kMaxRows];
    float softness[kMaxRows], bias[kMaxRows];
    float rigid_total[kRigidRows] = {};
    AxisRowState* drive = nullptr;
    AxisRowState* limit = nullptr;
    double d[kPad][kPad];           // D: minus the softness, then the child's term
    double dinv[kPad][kPad];        // D^-1 (zero on the padding)
    double f[kPad][6];              // D^-1 J_this,parent
    double rhs[kPad];
  };

  void BuildRows(float dt);
  void Factorise();
  // One exact solve of every row on the current velocities; false if a limit had to be
  // dropped first (the caller solves again).
  bool SolveOnce(bool& applied);
  static float Total(const JointNode& j, int row) {
    if (row < kRigidRows) return j.rigid_total[row];
    return row == j.drive_row ? j.drive->total : j.limit->total;
  }
  static void AddTotal(JointNode& j, int row, float impulse) {
    if (row < kRigidRows)
      j.rigid_total[row] += impulse;
    else if (row == j.drive_row)
      j.drive->total += impulse;
    else
      j.limit->total += impulse;
  }
  // Row impulse straight onto the joint's two bodies (M^-1 J^T lambda).
  void ApplyRowImpulse(const JointNode& j, int row, float impulse);
  void ApplyVelocity(BodyNode& b, const double* dv);

  std::vector<BodyNode> bodies_;
  std::vector<JointNode> joints_;
  // Elimination order, leaves first: node >= 0 is body `node`, < 0 joint `-node - 1`.
  std::vector<int> order_;
  float dt_ = 0.0f;
};

}  // namespace joltgym
