// One instance of a compiled model in a World: its Jolt bodies and constraints, its
// controls, and its state in the model's own MuJoCo layout (qpos, qvel, qfrc_actuator,
// sites, body frames). Tasks read and drive a robot; the World steps all of them.
//
// A robot may be placed at an origin (a translation of the whole model): every view is
// expressed relative to it, so a robot's observations do not depend on where it stands.
#pragma once

#include "physics/contacts/contact_forces.h"
#include "physics/contacts/self_contact_constraint.h"
#include "physics/contacts/soft_contact_constraint.h"
#include "physics/core/bias_acceleration.h"
#include "physics/core/state_buffer.h"
#include "physics/core/update_scratch.h"
#include "physics/joints/gimbal.h"
#include "physics/joints/joint_axis_constraint.h"
#include "physics/joints/tendon_equality_constraint.h"
#include "physics/joints/tendon_limit_constraint.h"
#include "physics/model/compiled_model.h"
#include "physics/world/robot_parameter.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/PhysicsSystem.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace joltgym {

class World;
struct ArticulatedHinge;
class TreeRowSolver;
class TreeConstraint;
class PlanarArticulationConstraint;

// Where an episode draws one of its model's world geoms (a target its task moves each episode, as
// dm_control moves it in its model): for the renderer only, no physics (such geoms touch nothing).
struct WorldGeomMove {
  int world_geom = -1;  // index into ModelDesc::world_geoms, or -1 for a site of the world:
  int world_site = -1;  // its index into ModelDesc::sites
  JPH::Vec3 pos = JPH::Vec3::sZero();  // relative to the robot's origin
  float scale = 1.0f;                  // of its size (reacher's target is 5 cm easy, 1.5 cm hard)
};
constexpr int kMaxWorldGeomMoves = 4;

class Robot : private BiasAccelerationSource {
 public:
  Robot(const Robot&) = delete;
  Robot& operator=(const Robot&) = delete;

  // The episode's moved world geoms (EnvGroup sets them from Task::MovedWorldGeoms after each reset
  // and restore); the renderer draws those geoms there in this robot's frames.
  void SetWorldGeomMoves(const WorldGeomMove* moves, int count) {
    num_geom_moves_ = std::min(count, kMaxWorldGeomMoves);
    std::copy(moves, moves + num_geom_moves_, geom_moves_.begin());
  }
  // Where to draw world geom g, or null to draw it where the model has it.
  const WorldGeomMove* WorldGeomMoveOf(int world_geom, int world_site) const {
    for (int i = 0; i < num_geom_moves_; ++i) {
      const WorldGeomMove& m = geom_moves_[size_t(i)];
      if ((world_geom >= 0 && m.world_geom == world_geom) || (world_site >= 0 && m.world_site == world_site)) return &m;
    }
    return nullptr;
  }

  const CompiledModel& model() const { return *model_; }
  const World& world() const { return *world_; }
  int index() const { return index_; }  // in its world
  JPH::RVec3 origin() const { return origin_; }

  // The controls (length nu) the next world steps apply; actuators clamp them to ctrlrange.
  void SetControls(const float* ctrl);
  const std::vector<float>& controls() const { return ctrl_; }  // as set, before ctrlrange clamps them
  // A force on a body's centre of mass (world axes, N) through every physics update until set again:
  // MuJoCo's xfrc_applied without its torque (a task's kick).
  void SetExternalForce(int body, JPH::Vec3Arg force);

  // MuJoCo's generalized coordinates and velocities (lengths nq and nv), relative to the origin.
  void GetQpos(float* qpos) const;
  void GetQvel(float* qvel) const;
  // Places every body from generalized coordinates, as MuJoCo's forward kinematics would.
  void SetState(const float* qpos, const float* qvel);

  // Joint torque (or force) each actuator applied in the last step, MuJoCo's
  // qfrc_actuator (length nv).
  const std::vector<float>& actuator_joint_forces() const { return qfrc_actuator_; }
  // Generalized force the joint's range limit applied in the last physics update
  // (MuJoCo's qfrc_constraint for that dof, without contacts).
  float JointLimitForce(int joint) const;
  // Contact forces of the world's last physics update, this robot's bodies included
  // (ContactForce::robot tells whose body each one acts on).
  const std::vector<ContactForce>& ReadContactForces() const;
  // How many contacts MuJoCo would make among the robot's own geoms and with the world's planes were
  // the robot at qpos (its layout; nothing moves): dm_control's ncon after placing a state, for
  // tasks that draw starts touching nothing. std::logic_error for a robot on a height field.
  int ContactsAt(const float* qpos) const;
  // A site's world frame (relative to the origin) were the robot at qpos, found without moving it.
  JPH::RMat44 SiteFrameAt(const float* qpos, int site) const;
  // A simulated body's world pose when the last physics update began: where that update's
  // contacts (ReadContactForces) were found, as MuJoCo's sensors read them.
  JPH::RVec3 BodyPositionAtUpdateStart(int body) const { return position_before_[size_t(body)]; }
  JPH::Quat BodyRotationAtUpdateStart(int body) const { return rotation_before_[size_t(body)]; }
  // Whether a physics update has run since the state was last set or reset: else the last
  // update's contacts and accelerations are of another state.
  bool UpdatedSinceStateSet() const { return updated_since_state_set_; }
  // Position of a model site, of a MuJoCo body's frame origin (MuJoCo's xpos) and of a
  // MuJoCo body's centre of mass (xipos), welded bodies included; relative to the origin.
  JPH::RVec3 SitePosition(int site) const;
  JPH::RVec3 MjBodyPosition(int mj_body) const;
  JPH::RVec3 MjBodyCentreOfMass(int mj_body) const;
  // Orientation of a MuJoCo body's frame in the world (MuJoCo's xmat) and the velocity of its
  // centre of mass, welded bodies included.
  JPH::Quat MjBodyRotation(int mj_body) const;
  // The same rotation as MuJoCo's xquat: its sign as MuJoCo's forward kinematics of the (unwrapped) qpos
  // give it, for observations that read the quaternion's components.
  JPH::Quat MjBodyQuaternion(int mj_body) const;
  JPH::Vec3 MjBodyCentreOfMassVelocity(int mj_body) const;
  // Orientation of a site's frame in the world; world-frame velocity of its point and angular
  // velocity of its body, as MuJoCo's kinematics of the robot's qpos and qvel give them;
  // acceleration of its point over the last physics update (zero before the first one),
  // gravity not removed (robot_sensors.cpp; physics/world/sensors.h turns them into MuJoCo's
  // sensors).
  JPH::Quat SiteRotation(int site) const;
  JPH::Vec3 SiteLinearVelocity(int site) const;
  JPH::Vec3 SiteAngularVelocity(int site) const;
  JPH::Vec3 SiteLinearAcceleration(int site) const;
  // The acceleration of the centre of mass of a simulated body over the last update (zero before one).
  JPH::Vec3 BodyLinearAcceleration(int body) const;
  // A MuJoCo body's angular acceleration and its centre of mass's acceleration over the last update,
  // welded bodies included (both zero before one).
  void MjBodyAcceleration(int mj_body, JPH::Vec3& com_acceleration, JPH::Vec3& angular_acceleration) const;
  // Each actuator's activation (MuJoCo's act for an actuator with dynamics; 0 for one without).
  const std::vector<float>& activations() const { return act_; }
  // Physical parameters held apart from the model (per-env domain randomisation,
  // robot_parameters.cpp): ParameterSize values each, the model's until set. SetParameter throws
  // std::invalid_argument naming the element whose value is out of range (not finite, a mass
  // <= 0, a negative friction) or that cannot take it (a joint without rows for it).
  int ParameterSize(RobotParameter p) const;
  void GetParameter(RobotParameter p, float* values) const;
  void GetModelParameter(RobotParameter p, float* values) const;
  void SetParameter(RobotParameter p, const float* values);
  // Force of each actuator in the last physics update, after its forcerange (MuJoCo's
  // actuator_force, length nu).
  const std::vector<float>& actuator_forces() const { return actuator_force_; }
  // Centre of mass of a simulated body, relative to the origin.
  JPH::RVec3 BodyCentreOfMass(int body) const { return bodies_[size_t(body)]->GetCenterOfMassPosition() - origin_; }

  // Largest distance between the two bodies' copies of a joint anchor (m).
  float MaxJointAnchorError() const;
  // Whether its physics has diverged: a body's pose or velocity is not finite, or a body
  // moves faster than kDivergedSpeed (m/s, or rad/s turning).
  bool Diverged() const;
  // No robot of these tasks comes near it (a running HalfCheetah's links turn far slower),
  // while an unstable solve passes it within a few updates and then climbs to
  // Jolt's velocity clamp (1e8, robot_build.cpp) or to inf.
  static constexpr float kDivergedSpeed = 1.0e4f;

  const JPH::Body& body(int index) const { return *bodies_[size_t(index)]; }
  int num_bodies() const { return int(bodies_.size()); }

  // The Jolt state of its own bodies and constraints (poses, velocities, warm-start
  // impulses), apart from the rest of the world's.
  void SaveJoltState(StateBuffer& out) const;
  void RestoreJoltState(StateBuffer& in);
  // Everything the robot's next update and its views depend on (robot_snapshot.cpp): the Jolt
  // state above, the joints' unwrapped angles, the last update's forces and velocities, the
  // controls, the external forces and the physical parameters. Restored into a robot of the same
  // model at the same origin, stepping on is bit-identical to the robot it was saved from.
  // RestoreState returns false (the robot then in no defined state) for a state of another model.
  void SaveState(StateBuffer& out) const;
  bool RestoreState(StateBuffer& in);

 private:
  friend class World;

  // Builds the model's bodies and constraints in the world's system (robot_build.cpp).
  Robot(ModelPtr model, World& world, int index, JPH::RVec3 origin);
  void CreateBodies();
  void CreateJoints();
  // One ArticulationConstraint per articulated tree (CompiledBody::articulated), its hinges
  // given with robot body indices.
  void AddArticulations(const std::vector<ArticulatedHinge>& hinges, JPH::uint32 priority);
  // MuJoCo's soft contacts of each body with each plane of the world's scene it may touch.
  void CreateSoftContacts();
  // MuJoCo's soft contacts between bodies of one tree (CompiledModel::self_contacts), solved by
  // the tree's articulation.
  void CreateSelfContacts();
  void CreateTendonLimits();
  void CreateTendonEqualities();
  void AddConstraint(JPH::Constraint* constraint);
  // A constraint an articulation solves itself (TreeConstraint): kept and saved with the
  // robot's, but not in Jolt's lists.
  void AddTreeRow(JPH::Constraint* constraint);
  // Appends the soft contacts' forces of the last update (World::ReadContactForces).
  void AppendSoftContactForces(std::vector<ContactForce>& out) const;

  // Around each physics update of length h (robot_forces.cpp): forces, then bookkeeping. The
  // trees take this update's memory from the stepping thread's scratch.
  void BeforeUpdate(float h, UpdateScratch& scratch);
  void AfterUpdate(float h);
  void ApplyActuation(float h);
  void ApplyJointSprings();
  void ApplyFluidForces();
  // Equal and opposite torque (hinge) or force at the anchor (slide) on a joint's bodies.
  void ApplyJointEffort(const CompiledJoint& joint, float effort);
  // A generalized force for this update: through the joint's drive row where it takes the
  // joint's forces (JointAxisConstraint::takes_joint_forces), else onto the bodies.
  void AddJointEffort(int joint, float effort);
  // Hands each joint row its coordinate and rate before a physics update of length h.
  void BeginAxisRows(float h);
  // Each body's bias acceleration at its current velocities (robot_bias.cpp).
  void ComputeBiasAccelerations();
  // Each articulated body's velocity less h times its bias acceleration (SolverDesc::mujoco_euler).
  void TakeBiasExplicitly(float h);
  // The soft contacts' BiasAccelerationSource: ComputeBiasAccelerations once per update, when first asked.
  const BiasAcceleration& BiasOf(int body) override;
  // A scalar joint's JointRate, computed once per update (BeforeUpdate's uses share it).
  float JointRateThisUpdate(int joint);
  // Gimbal coordinates at the pose the bodies reach after h at their current velocities.
  void PredictGimbals(float h);

  // Joint coordinates and rates (robot_state.cpp).
  void RestoreInitialState();
  JPH::Vec3 RelativeAngularVelocity(const CompiledJoint& joint) const;
  void TrackAngles();
  // Recomputes the coordinates of every multi-hinge body; called whenever bodies move.
  void RefreshGimbals();
  // World vector j with rate = j . (w_child - w_parent) for a gimbal coordinate.
  JPH::Vec3 GimbalRateRow(const CompiledJoint& joint) const {
    return joint.gimbal_sign * gimbal_[size_t(joint.body)].rate_rows[joint.gimbal_slot];
  }
  // The point of the joint's body, in its body frame, on the joint's anchor: the anchor itself,
  // but for a multi-hinge body whose hinges have anchors of their own (GimbalAnchorOnChild).
  JPH::Vec3 AnchorOnBody(const CompiledJoint& joint) const;
  // Angle of a rotational scalar joint relative to qpos0, in (-pi, pi].
  float MeasureAngle(const CompiledJoint& joint) const;
  float JointRate(const CompiledJoint& joint) const;
  // World direction of a slide joint.
  JPH::Vec3 SlideAxis(const CompiledJoint& joint) const;
  float SlidePosition(const CompiledJoint& joint) const;
  float ScalarJointQ(int joint) const;
  // A fixed tendon's length and velocity at this update's start (sum of coef times q, and q').
  void FixedTendonNow(const TendonDesc& tendon, float& length, float& velocity);
  JPH::Quat ParentRotation(int body) const;
  JPH::RMat44 ParentTransform(int body) const;
  JPH::Vec3 PointVelocity(int body, JPH::RVec3 point) const;
  // Records the bodies' velocities as where the next update starts from.
  void RecordVelocities();
  // A point given in a simulated body's frame (body -1: the world), relative to the origin.
  JPH::RVec3 PointInRobotFrame(int body, const Vec3f& pos) const;

  // A body frame and its twist during forward kinematics.
  struct KinematicFrame {
    JPH::RVec3 pos;
    JPH::Quat rot;
    JPH::Vec3 w;
    JPH::Vec3 v;  // velocity of the frame origin
  };
  // Each body's frame for qpos and qvel in the robot's layout (MuJoCo's forward kinematics).
  void ForwardKinematics(const float* qpos, const float* qvel, std::vector<KinematicFrame>& frames) const;
  // Each body's frame at qpos, at rest (ContactsAt's and SiteFrameAt's scratch, valid until the next call).
  const std::vector<KinematicFrame>& FramesAt(const float* qpos) const;
  // The frame of a simulated body as forward kinematics of GetQpos and GetQvel place it: after
  // an update Jolt's own body velocities may differ a little from the joints' rates (a leg's
  // distal links most), and MuJoCo's sensors read the rates. Computed once per state.
  const KinematicFrame& SensorFrame(int body) const;

  ModelPtr model_;
  World* world_;
  int index_;
  JPH::RVec3 origin_;
  std::vector<float> ctrl_;
  std::vector<float> act_;  // per actuator: its activation (ActuatorDesc::dynamics), 0 for one without
  std::vector<KinematicFrame> frames_;  // scratch for SetState, sized once
  std::vector<JPH::Body*> bodies_;
  int planar_normal_ = -1;  // planar links: the world axis of their plane's normal
  std::vector<JPH::Ref<JPH::Constraint>> constraints_;  // all of its constraints, in the order added
  std::vector<JPH::Ref<JointAxisConstraint>> axis_rows_;  // per joint, null when not needed
  std::vector<JPH::Ref<TendonLimitConstraint>> tendon_limits_;  // per CompiledModel::limited_spatial_tendons
  std::vector<JPH::Ref<TendonEqualityConstraint>> tendon_equalities_;  // per ModelDesc::tendon_equalities
  std::array<WorldGeomMove, kMaxWorldGeomMoves> geom_moves_{};
  int num_geom_moves_ = 0;
  std::vector<JPH::Ref<SoftContactConstraint>> soft_contacts_;
  std::vector<int> soft_contact_body_;               // the body of each soft contact constraint
  std::vector<const GeomDesc*> soft_contact_plane_;  // and the scene's plane it is with
  std::vector<JPH::Ref<SelfContactConstraint>> self_contacts_;  // per CompiledModel::self_contacts entry
  std::vector<JPH::RMat44> self_contact_frames_;                 // per body, scratch for their BeginStep
  // per body: the articulation that solves its tree's plane contacts and the body's index there
  std::vector<std::pair<TreeRowSolver*, int>> contact_solver_of_;
  std::vector<TreeConstraint*> trees_;  // every articulation of its trees
  // The articulations whose trees Jolt's contacts touch (AfterUpdate places them once more).
  std::vector<TreeConstraint*> touched_trees_;
  // The planar articulations stepped as MuJoCo's Euler step (SolverDesc::mujoco_euler): their
  // velocities are re-expressed before each update; empty when that is off.
  std::vector<PlanarArticulationConstraint*> mujoco_euler_trees_;
  std::vector<float> angle_;                         // unwrapped q - qpos0 per joint
  std::vector<GimbalCoordinates> gimbal_;            // per body, current (gimbal bodies only)
  std::vector<GimbalCoordinates> gimbal_next_;       // per body, predicted one update ahead
  std::vector<float> row_effort_;                    // per joint, force its drive row delivers
  std::vector<float> last_raw_angle_;
  std::vector<float> qfrc_actuator_;
  std::vector<float> actuator_force_;
  // The parameters' current values (robot_parameters.cpp), and the gains ApplyActuation and
  // ApplyJointSprings use: the model's, or what SetParameter set.
  std::array<std::vector<float>, kRobotParameters> parameters_;
  std::vector<float> actuator_gain_, actuator_bias_length_;  // per actuator
  std::vector<float> joint_damping_;                          // per joint
  std::vector<JPH::Vec3> external_force_;                     // per body: SetExternalForce's
  bool has_external_force_ = false;
  std::vector<float> actuator_damping_;                       // per joint: this update's implicit actuator damping
  // per body, its velocities when the last physics update began (SiteLinearAcceleration), and its
  // pose then (BodyPositionAtUpdateStart)
  std::vector<JPH::Vec3> linear_velocity_before_, angular_velocity_before_;
  // Per body, what its tree's damping after the constraint forces changed its velocity by in the last
  // update (TreeConstraint::DampingVelocityChange), which MuJoCo's accelerations leave out.
  std::vector<JPH::Vec3> linear_damping_change_, angular_damping_change_;
  // Per body, its articulation and its index there; null outside any.
  std::vector<std::pair<const TreeConstraint*, int>> tree_of_;
  // A body's velocity change over the last update as MuJoCo's accelerations see it (damping change left out).
  JPH::Vec3 LinearVelocityChange(int body) const;
  JPH::Vec3 AngularVelocityChange(int body) const;
  std::vector<JPH::RVec3> position_before_;
  std::vector<JPH::Quat> rotation_before_;
  bool updated_since_state_set_ = false;  // whether those are of an update from the current state
  std::uint64_t state_sets_ = 0;          // SetState and RestoreInitialState calls so far
  // SensorFrame's frames, and the (update_count_, state_sets_) they are of
  mutable std::vector<KinematicFrame> sensor_frames_;
  mutable std::vector<KinematicFrame> contact_check_frames_;  // ContactsAt's scratch
  mutable std::vector<float> contact_check_qvel_;
  mutable std::vector<float> sensor_qpos_, sensor_qvel_;
  mutable std::pair<std::uint64_t, std::uint64_t> sensor_frames_of_{~0ull, ~0ull};
  std::vector<Motion> body_motion_, body_bias_;       // per body, scratch for ComputeBiasAccelerations
  std::vector<BiasAcceleration> bias_accel_;         // per body, for the soft contacts' rows
  bool biases_fresh_ = false;                        // bias_accel_ is this update's
  std::uint64_t update_count_ = 0;                   // BeforeUpdate calls so far
  std::vector<float> rate_now_;                      // per joint: JointRateThisUpdate's rate
  std::vector<std::uint64_t> rate_update_;           // and the update it is of
  float last_update_dt_ = 0.0f;
};

}  // namespace joltgym
