// One simulated instance of a compiled model: a Jolt PhysicsSystem sized for
// the robot, its bodies and constraints, and MuJoCo-style generalized state.
#pragma once

#include "physics/compiled_model.h"
#include "physics/contact_forces.h"
#include "physics/gimbal.h"
#include "physics/joint_axis_constraint.h"
#include "physics/state_buffer.h"
#include "physics/step_context.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/PhysicsSystem.h>

#include <vector>

namespace joltgym {

class World {
 public:
  explicit World(ModelPtr model);
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const CompiledModel& model() const { return *model_; }

  // Advances one model timestep with the given controls (length nu).
  void Step(const float* ctrl, StepContext& ctx);

  // MuJoCo's generalized coordinates and velocities (lengths nq and nv).
  void GetQpos(float* qpos) const;
  void GetQvel(float* qvel) const;
  // Places every body from generalized coordinates, as MuJoCo's forward kinematics would.
  void SetState(const float* qpos, const float* qvel);
  // Back to the state right after construction, contacts and warm starts included.
  void RestoreInitialState();

  // Joint torque (or force) each actuator applied in the last step, MuJoCo's
  // qfrc_actuator (length nv).
  const std::vector<float>& actuator_joint_forces() const { return qfrc_actuator_; }
  // Generalized force the joint's range limit applied in the last physics update
  // (MuJoCo's qfrc_constraint for that dof, without contacts).
  float JointLimitForce(int joint) const;
  // Contact forces of the last physics update, read on demand from Jolt's cache.
  const std::vector<ContactForce>& ReadContactForces();
  // Index of a simulated body from its Jolt id, or -1 (static bodies).
  int BodyIndex(JPH::BodyID id) const;
  // World position of a model site, and of a MuJoCo body's frame origin (MuJoCo's xpos).
  JPH::RVec3 SitePosition(int site) const;
  JPH::RVec3 MjBodyPosition(int mj_body) const;
  // World centre of mass of a MuJoCo body (MuJoCo's xipos), welded bodies included.
  JPH::RVec3 MjBodyCentreOfMass(int mj_body) const;

  // Largest distance between the two bodies' copies of a joint anchor (m).
  float MaxJointAnchorError() const;
  // Non-zero once Jolt reported running out of contact or pair capacity.
  unsigned update_errors() const { return update_errors_; }

  const JPH::Body& body(int index) const { return *bodies_[index]; }
  int num_bodies() const { return int(bodies_.size()); }

 private:
  void CreateBodies();
  void CreateJoints();
  void ApplyActuation(const float* ctrl);
  void ApplyJointSprings();
  void ApplyFluidForces();
  // Equal and opposite torque (hinge) or force at the anchor (slide) on a joint's bodies.
  void ApplyJointEffort(const CompiledJoint& joint, float effort);
  // A generalized force for this update: through the joint's drive row where it takes the
  // joint's forces (JointAxisConstraint::takes_joint_forces), else onto the bodies.
  void AddJointEffort(int joint, float effort);
  // Hands each joint row its coordinate and rate before a physics update of length h.
  void BeginAxisRows(float h);
  // Gimbal coordinates at the pose the bodies reach after h at their current velocities.
  void PredictGimbals(float h);
  JPH::Vec3 RelativeAngularVelocity(const CompiledJoint& joint) const;
  void TrackAngles();
  // Recomputes the coordinates of every multi-hinge body; called whenever bodies move.
  void RefreshGimbals();
  // World vector j with rate = j . (w_child - w_parent) for a gimbal coordinate.
  JPH::Vec3 GimbalRateRow(const CompiledJoint& joint) const {
    return joint.gimbal_sign * gimbal_[size_t(joint.body)].rate_rows[joint.gimbal_slot];
  }

  // Angle of a rotational scalar joint relative to qpos0, in (-pi, pi].
  float MeasureAngle(const CompiledJoint& joint) const;
  float JointRate(const CompiledJoint& joint) const;
  float SlidePosition(const CompiledJoint& joint) const;
  float ScalarJointQ(int joint) const;
  JPH::Quat ParentRotation(int body) const;
  JPH::RMat44 ParentTransform(int body) const;
  JPH::Vec3 PointVelocity(int body, JPH::RVec3 point) const;

  // A body frame and its twist during forward kinematics.
  struct KinematicFrame {
    JPH::RVec3 pos;
    JPH::Quat rot;
    JPH::Vec3 w;
    JPH::Vec3 v;  // velocity of the frame origin
  };

  ModelPtr model_;
  JPH::PhysicsSystem system_;
  std::vector<KinematicFrame> frames_;  // scratch for SetState, sized once
  std::vector<JPH::Body*> bodies_;
  std::vector<JPH::Ref<JointAxisConstraint>> axis_rows_;  // per joint, null when not needed
  std::vector<float> angle_;                         // unwrapped q - qpos0 per joint
  std::vector<GimbalCoordinates> gimbal_;            // per body, current (gimbal bodies only)
  std::vector<GimbalCoordinates> gimbal_next_;       // per body, predicted one update ahead
  std::vector<float> row_effort_;                    // per joint, force its drive row delivers
  std::vector<float> last_raw_angle_;
  std::vector<float> qfrc_actuator_;
  StateBuffer initial_state_;
  std::vector<float> initial_angle_;
  unsigned update_errors_ = 0;
  ContactForceReader contact_reader_;
  std::vector<ContactForce> contacts_;
  std::vector<int> body_index_of_id_;
  float last_update_dt_ = 0.0f;
};

}  // namespace joltgym
