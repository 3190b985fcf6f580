#include "physics/world.h"

#include "physics/gimbal_constraint.h"
#include "physics/jolt_runtime.h"

#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Body/BodyLock.h>
#include <Jolt/Physics/Constraints/HingeConstraint.h>
#include <Jolt/Physics/Constraints/PointConstraint.h>
#include <Jolt/Physics/Constraints/SliderConstraint.h>

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

float WrapAngle(float a) {
  a = std::fmod(a + JPH::JPH_PI, 2.0f * JPH::JPH_PI);
  if (a <= 0.0f) a += 2.0f * JPH::JPH_PI;
  return a - JPH::JPH_PI;
}

// Rotation angle of `q` about unit `axis`, assuming q is (close to) such a rotation.
float TwistAngle(JPH::Quat q, JPH::Vec3 axis) {
  if (q.GetW() < 0.0f) q = -q;
  return 2.0f * std::atan2(q.GetXYZ().Dot(axis), q.GetW());
}

// MuJoCo: a contact has the larger condim of its two geoms (1 = frictionless) and the
// larger friction. Bodies carry their geoms' condim as user data.
float CombineFriction(const JPH::Body& a, const JPH::SubShapeID&, const JPH::Body& b, const JPH::SubShapeID&) {
  if (std::max(a.GetUserData(), b.GetUserData()) <= 1) return 0.0f;
  return std::max(a.GetFriction(), b.GetFriction());
}

// Armature this many times the link's own inertia about the joint axis routes the joint's
// forces through its drive row (JointAxisParams::forces_through_row). Measured: HalfCheetah
// (ratios 2-10) holds its joints better with torques on the bodies, Ant (120-740) and
// Reacher (7800) only with them through the row.
constexpr float kArmatureDominance = 50.0f;

// Inertia of a body about a joint's axis through the joint's anchor (body frame data).
float AxisInertia(const CompiledBody& body, const CompiledJoint& joint) {
  if (joint.type != JointType::Hinge) return body.mass.mMass;  // a slide moves the body's mass
  const JPH::Vec3 axis = joint.axis_local;
  const JPH::Vec3 r = body.com_local - joint.anchor_local;
  const JPH::Vec3 r_perp = r - r.Dot(axis) * axis;
  return axis.Dot(body.mass.mInertia.Multiply3x3(axis)) + body.mass.mMass * r_perp.LengthSq();
}

float MaxRestitution(const JPH::Body& a, const JPH::SubShapeID&, const JPH::Body& b, const JPH::SubShapeID&) {
  return std::max(a.GetRestitution(), b.GetRestitution());
}

}  // namespace

World::World(ModelPtr model) : model_(std::move(model)) {
  EnsureJoltRuntime();
  const CompiledModel& m = *model_;
  const JPH::uint max_bodies = JPH::uint(m.bodies().size() + m.static_geoms().size() + 1);
  const JPH::uint max_contacts = JPH::uint(m.max_contacts());
  system_.Init(max_bodies, 0, max_contacts, max_contacts, BroadPhaseLayers(), ObjectVsBroadPhaseFilter(),
               ObjectLayerPairs());
  JPH::PhysicsSettings settings;
  settings.mNumVelocitySteps = JPH::uint(m.solver().velocity_iterations);
  settings.mNumPositionSteps = JPH::uint(m.solver().position_iterations);
  settings.mPenetrationSlop = m.solver().penetration_slop;
  settings.mSpeculativeContactDistance = m.solver().speculative_distance;
  settings.mBaumgarte = m.solver().baumgarte;
  settings.mAllowSleeping = false;
  system_.SetPhysicsSettings(settings);
  const auto& g = m.desc().gravity;
  system_.SetGravity(JPH::Vec3(g[0], g[1], g[2]));
  system_.SetCombineFriction(CombineFriction);
  system_.SetCombineRestitution(MaxRestitution);

  CreateBodies();
  CreateJoints();
  system_.OptimizeBroadPhase();

  angle_.assign(m.joints().size(), 0.0f);
  last_raw_angle_.assign(m.joints().size(), 0.0f);
  qfrc_actuator_.assign(size_t(m.nv()), 0.0f);
  initial_angle_ = angle_;
  frames_.resize(m.bodies().size());
  gimbal_.resize(m.bodies().size());
  gimbal_next_.resize(m.bodies().size());
  row_effort_.assign(m.joints().size(), 0.0f);
  RefreshGimbals();
  system_.SaveState(initial_state_);
}

void World::CreateBodies() {
  const CompiledModel& m = *model_;
  JPH::BodyInterface& bi = system_.GetBodyInterfaceNoLock();
  for (const CompiledStaticGeom& s : m.static_geoms()) {
    JPH::BodyCreationSettings settings(s.shape, s.pos, s.rot, JPH::EMotionType::Static, layers::kStatic);
    settings.mFriction = s.friction;
    settings.mUserData = JPH::uint64(s.condim);
    settings.mRestitution = 0.0f;
    settings.mCollisionGroup = JPH::CollisionGroup(m.collision_filter(), JPH::uint32(s.collision_entry), 0);
    bi.CreateAndAddBody(settings, JPH::EActivation::DontActivate);
  }
  const JPH::BodyLockInterfaceNoLock& locks = system_.GetBodyLockInterfaceNoLock();
  for (const CompiledBody& b : m.bodies()) {
    JPH::BodyCreationSettings settings(b.shape, b.pos0, b.rot0, JPH::EMotionType::Dynamic, layers::kMoving);
    settings.mOverrideMassProperties = JPH::EOverrideMassProperties::MassAndInertiaProvided;
    settings.mMassPropertiesOverride = b.mass;
    settings.mAllowedDOFs = b.allowed_dofs;
    settings.mLinearDamping = 0.0f;
    settings.mAngularDamping = 0.0f;
    // Jolt clamps velocities after integrating forces but before the constraints act. A
    // light link behind a heavy armature row (inertia 4e-5, armature 1) passes
    // through huge free velocities that the row then cancels; clamping them corrupts the step.
    settings.mMaxLinearVelocity = 1.0e8f;
    settings.mMaxAngularVelocity = 1.0e8f;
    // MuJoCo's bias forces include the gyroscopic term. Jolt's version rebuilds the
    // angular velocity without the allowed-DOF mask, so a planar body would slowly
    // leave its plane; for rotation about a single world axis the term vanishes anyway.
    settings.mApplyGyroscopicForce = b.attachment != Attachment::Planar;
    settings.mAllowSleeping = false;
    settings.mFriction = b.friction;
    settings.mUserData = JPH::uint64(b.condim);
    settings.mRestitution = 0.0f;
    settings.mUseManifoldReduction = !b.keep_manifolds_apart;
    settings.mCollisionGroup = JPH::CollisionGroup(m.collision_filter(), JPH::uint32(b.collision_entry), 0);
    JPH::BodyID id = bi.CreateAndAddBody(settings, JPH::EActivation::Activate);
    if (body_index_of_id_.size() <= id.GetIndex()) body_index_of_id_.resize(id.GetIndex() + 1, -1);
    body_index_of_id_[id.GetIndex()] = int(bodies_.size());
    bodies_.push_back(locks.TryGetBody(id));
  }
}

void World::CreateJoints() {
  const CompiledModel& m = *model_;
  axis_rows_.resize(m.joints().size());
  for (size_t j = 0; j < m.joints().size(); ++j) {
    const CompiledJoint& joint = m.joints()[j];
    const CompiledBody& cb = m.bodies()[joint.body];
    JPH::Body& child = *bodies_[joint.body];
    JPH::Body& parent = joint.parent >= 0 ? *bodies_[joint.parent] : JPH::Body::sFixedToWorld;
    const JPH::RVec3 anchor = cb.pos0 + cb.rot0 * joint.anchor_local;
    const JPH::Vec3 axis = cb.rot0 * joint.axis_local;
    const JPH::Vec3 normal = axis.GetNormalizedPerpendicular();

    JPH::Ref<JPH::TwoBodyConstraint> constraint;
    // Jolt solves higher priorities last, i.e. most accurately: the joints must win
    // over the soft armature/damping rows. Ranges are JointAxisConstraint's.
    constexpr JPH::uint32 kJointPriority = 1;
    switch (cb.attachment) {
      case Attachment::Hinge: {
        JPH::HingeConstraintSettings s;
        s.mConstraintPriority = kJointPriority;
        s.mSpace = JPH::EConstraintSpace::WorldSpace;
        s.mPoint1 = s.mPoint2 = anchor;
        s.mHingeAxis1 = s.mHingeAxis2 = axis;
        s.mNormalAxis1 = s.mNormalAxis2 = normal;
        constraint = s.Create(parent, child);
        break;
      }
      case Attachment::Slide: {
        JPH::SliderConstraintSettings s;
        s.mConstraintPriority = kJointPriority;
        s.mSpace = JPH::EConstraintSpace::WorldSpace;
        s.mPoint1 = s.mPoint2 = anchor;
        s.mSliderAxis1 = s.mSliderAxis2 = axis;
        s.mNormalAxis1 = s.mNormalAxis2 = normal;
        constraint = s.Create(parent, child);
        break;
      }
      case Attachment::Ball: {
        JPH::PointConstraintSettings s;
        s.mConstraintPriority = kJointPriority;
        s.mSpace = JPH::EConstraintSpace::WorldSpace;
        s.mPoint1 = s.mPoint2 = anchor;
        constraint = s.Create(parent, child);
        break;
      }
      case Attachment::Gimbal: {
        if (joint.gimbal_slot != 0) break;  // one constraint for all of the body's hinges
        GimbalParams g;
        g.anchor_local1 = JPH::Vec3(parent.GetInverseCenterOfMassTransform() * anchor);
        g.anchor_local2 = JPH::Vec3(child.GetInverseCenterOfMassTransform() * anchor);
        g.rest_in_parent = cb.rel_rot0;
        g.basis = cb.gimbal_basis;
        g.lock_third = cb.gimbal_lock_third;
        constraint = new GimbalConstraint(parent, child, g);
        break;
      }
      case Attachment::Free:
      case Attachment::Planar:
        break;
    }
    if (constraint) system_.AddConstraint(constraint);

    const bool scalar = cb.attachment != Attachment::Free && cb.attachment != Attachment::Ball;
    if (scalar && (joint.has_drive_row || joint.limited)) {
      // A planar root's slides move its hinge's anchor (see SlidePosition), so their rows act there.
      const JPH::RVec3 row_anchor =
          cb.attachment == Attachment::Planar ? cb.pos0 + cb.rot0 * m.joints()[cb.joints.back()].anchor_local : anchor;
      JointAxisParams p;
      p.angular = joint.type == JointType::Hinge;
      p.axis_from_step = joint.gimbal_slot >= 0;
      p.axis_local1 = parent.GetRotation().Conjugated() * axis;
      p.anchor_local2 = child.GetRotation().Conjugated() * JPH::Vec3(row_anchor - child.GetCenterOfMassPosition());
      p.armature = joint.armature;
      p.forces_through_row = joint.armature > kArmatureDominance * AxisInertia(cb, joint);
      p.damping = joint.damping;
      p.limited = joint.limited;
      p.range_lo = joint.range_lo;
      p.range_hi = joint.range_hi;
      axis_rows_[j] = new JointAxisConstraint(parent, child, p);
      system_.AddConstraint(axis_rows_[j]);
    }
  }
}

JPH::Quat World::ParentRotation(int body) const {
  int parent = model_->bodies()[body].parent;
  return parent >= 0 ? bodies_[parent]->GetRotation() : JPH::Quat::sIdentity();
}

JPH::RMat44 World::ParentTransform(int body) const {
  int parent = model_->bodies()[body].parent;
  return parent >= 0 ? bodies_[parent]->GetWorldTransform() : JPH::RMat44::sIdentity();
}

JPH::Vec3 World::PointVelocity(int body, JPH::RVec3 point) const {
  if (body < 0) return JPH::Vec3::sZero();
  const JPH::Body& b = *bodies_[body];
  return b.GetLinearVelocity() + b.GetAngularVelocity().Cross(JPH::Vec3(point - b.GetCenterOfMassPosition()));
}

void World::RefreshGimbals() {
  const CompiledModel& m = *model_;
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const CompiledBody& cb = m.bodies()[i];
    if (cb.attachment != Attachment::Gimbal) continue;
    gimbal_[i] = MeasureGimbal(ParentRotation(int(i)) * cb.rel_rot0, cb.gimbal_basis, bodies_[i]->GetRotation());
  }
}

float World::MeasureAngle(const CompiledJoint& joint) const {
  if (joint.gimbal_slot >= 0) return joint.gimbal_sign * gimbal_[size_t(joint.body)].angles[joint.gimbal_slot];
  const CompiledBody& cb = model_->bodies()[joint.body];
  JPH::Quat frame0 = ParentRotation(joint.body) * cb.rel_rot0;
  JPH::Quat rel = frame0.Conjugated() * bodies_[joint.body]->GetRotation();
  return WrapAngle(TwistAngle(rel, joint.axis_local));
}

float World::SlidePosition(const CompiledJoint& joint) const {
  const CompiledBody& cb = model_->bodies()[joint.body];
  const JPH::Body& b = *bodies_[joint.body];
  if (cb.attachment == Attachment::Planar) {
    // Slides come before the hinge, so they move the hinge's anchor along fixed world axes.
    const JPH::Vec3 hinge_anchor = model_->joints()[cb.joints.back()].anchor_local;
    const JPH::RVec3 now = b.GetWorldTransform() * hinge_anchor;
    const JPH::RVec3 then = cb.pos0 + cb.rot0 * hinge_anchor;
    return (cb.rot0 * joint.axis_local).Dot(JPH::Vec3(now - then));
  }
  const JPH::RMat44 parent = ParentTransform(joint.body);
  const JPH::RVec3 anchor_child = b.GetWorldTransform() * joint.anchor_local;
  const JPH::RVec3 anchor_parent = parent * (cb.rel_pos0 + cb.rel_rot0 * joint.anchor_local);
  const JPH::Vec3 axis = parent.GetQuaternion() * (cb.rel_rot0 * joint.axis_local);
  return axis.Dot(JPH::Vec3(anchor_child - anchor_parent));
}

float World::JointRate(const CompiledJoint& joint) const {
  const CompiledBody& cb = model_->bodies()[joint.body];
  const JPH::Body& b = *bodies_[joint.body];
  if (joint.type == JointType::Hinge) {
    const JPH::Vec3 axis = joint.gimbal_slot >= 0 ? GimbalRateRow(joint) : b.GetRotation() * joint.axis_local;
    return axis.Dot(RelativeAngularVelocity(joint));
  }
  // Slide
  if (cb.attachment == Attachment::Planar) {
    const JPH::RVec3 anchor = b.GetWorldTransform() * model_->joints()[cb.joints.back()].anchor_local;
    return (cb.rot0 * joint.axis_local).Dot(PointVelocity(joint.body, anchor));
  }
  const JPH::RVec3 anchor = b.GetWorldTransform() * joint.anchor_local;
  const JPH::Vec3 axis = ParentRotation(joint.body) * (cb.rel_rot0 * joint.axis_local);
  return axis.Dot(PointVelocity(joint.body, anchor) - PointVelocity(joint.parent, anchor));
}

float World::ScalarJointQ(int j) const {
  const CompiledJoint& joint = model_->joints()[j];
  if (joint.type == JointType::Hinge) return joint.qpos0[0] + angle_[j];
  return joint.qpos0[0] + SlidePosition(joint);
}

void World::GetQpos(float* qpos) const {
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    const CompiledJoint& joint = joints[j];
    float* out = qpos + joint.qposadr;
    const JPH::Body& b = *bodies_[joint.body];
    switch (joint.type) {
      case JointType::Hinge:
      case JointType::Slide:
        out[0] = ScalarJointQ(int(j));
        break;
      case JointType::Free: {
        JPH::RVec3 p = b.GetPosition();
        JPH::Quat q = b.GetRotation();
        out[0] = float(p.GetX()), out[1] = float(p.GetY()), out[2] = float(p.GetZ());
        out[3] = q.GetW(), out[4] = q.GetX(), out[5] = q.GetY(), out[6] = q.GetZ();
        break;
      }
      case JointType::Ball: {
        const CompiledBody& cb = model_->bodies()[joint.body];
        JPH::Quat rel = ((ParentRotation(joint.body) * cb.rel_rot0).Conjugated() * b.GetRotation()).Normalized();
        out[0] = rel.GetW(), out[1] = rel.GetX(), out[2] = rel.GetY(), out[3] = rel.GetZ();
        break;
      }
    }
  }
}

void World::GetQvel(float* qvel) const {
  const auto& joints = model_->joints();
  for (const CompiledJoint& joint : joints) {
    float* out = qvel + joint.dofadr;
    const JPH::Body& b = *bodies_[joint.body];
    switch (joint.type) {
      case JointType::Hinge:
      case JointType::Slide:
        out[0] = JointRate(joint);
        break;
      case JointType::Free: {
        JPH::Vec3 v = PointVelocity(joint.body, b.GetPosition());
        JPH::Vec3 w = b.GetRotation().Conjugated() * b.GetAngularVelocity();
        v.StoreFloat3(reinterpret_cast<JPH::Float3*>(out));
        w.StoreFloat3(reinterpret_cast<JPH::Float3*>(out + 3));
        break;
      }
      case JointType::Ball: {
        JPH::Vec3 parent_w = joint.parent >= 0 ? bodies_[joint.parent]->GetAngularVelocity() : JPH::Vec3::sZero();
        JPH::Vec3 w = b.GetRotation().Conjugated() * (b.GetAngularVelocity() - parent_w);
        w.StoreFloat3(reinterpret_cast<JPH::Float3*>(out));
        break;
      }
    }
  }
}

void World::SetState(const float* qpos, const float* qvel) {
  const CompiledModel& m = *model_;
  JPH::BodyInterface& bi = system_.GetBodyInterfaceNoLock();
  std::vector<KinematicFrame>& frames = frames_;
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const CompiledBody& cb = m.bodies()[i];
    KinematicFrame f;
    if (cb.parent >= 0) {
      const KinematicFrame& p = frames[cb.parent];
      f.pos = p.pos + p.rot * cb.rel_pos0;
      f.rot = p.rot * cb.rel_rot0;
      f.w = p.w;
      f.v = p.v + p.w.Cross(JPH::Vec3(f.pos - p.pos));
    } else {
      f.pos = JPH::RVec3(cb.rel_pos0);
      f.rot = cb.rel_rot0;
      f.w = f.v = JPH::Vec3::sZero();
    }
    // MuJoCo applies a body's joints in order, each in the frame left by the previous one.
    for (int j : cb.joints) {
      const CompiledJoint& joint = m.joints()[j];
      const float* q = qpos + joint.qposadr;
      const float* qd = qvel + joint.dofadr;
      switch (joint.type) {
        case JointType::Free: {
          f.pos = JPH::RVec3(q[0], q[1], q[2]);
          f.rot = JPH::Quat(q[4], q[5], q[6], q[3]).Normalized();
          f.v = JPH::Vec3(qd[0], qd[1], qd[2]);
          f.w = f.rot * JPH::Vec3(qd[3], qd[4], qd[5]);
          break;
        }
        case JointType::Slide: {
          const JPH::Vec3 axis = f.rot * joint.axis_local;
          f.pos += (q[0] - joint.qpos0[0]) * axis;
          f.v += qd[0] * axis;
          break;
        }
        case JointType::Hinge:
        case JointType::Ball: {
          const JPH::RVec3 anchor = f.pos + f.rot * joint.anchor_local;
          JPH::Quat local;
          JPH::Vec3 w_added;
          if (joint.type == JointType::Hinge) {
            local = JPH::Quat::sRotation(joint.axis_local, q[0] - joint.qpos0[0]);
            w_added = qd[0] * (f.rot * joint.axis_local);
          } else {
            local = JPH::Quat(q[1], q[2], q[3], q[0]).Normalized();
            w_added = (f.rot * local) * JPH::Vec3(qd[0], qd[1], qd[2]);
          }
          const JPH::RVec3 old_pos = f.pos;
          f.rot = (f.rot * local).Normalized();
          f.pos = anchor - f.rot * joint.anchor_local;
          f.v += f.w.Cross(JPH::Vec3(f.pos - old_pos)) + w_added.Cross(JPH::Vec3(f.pos - anchor));
          f.w += w_added;
          break;
        }
      }
    }
    frames[i] = f;
    JPH::Body& body = *bodies_[i];
    const JPH::Vec3 com_offset = f.rot * cb.com_local;
    bi.SetPositionAndRotation(body.GetID(), f.pos, f.rot, JPH::EActivation::Activate);
    bi.SetLinearAndAngularVelocity(body.GetID(), f.v + f.w.Cross(com_offset), f.w);
  }
  RefreshGimbals();
  for (size_t j = 0; j < m.joints().size(); ++j) {
    const CompiledJoint& joint = m.joints()[j];
    if (!joint.rotational_dof) continue;
    angle_[j] = qpos[joint.qposadr] - joint.qpos0[0];
    last_raw_angle_[j] = MeasureAngle(joint);
  }
}

void World::RestoreInitialState() {
  initial_state_.Rewind();
  system_.RestoreState(initial_state_);
  angle_ = initial_angle_;
  std::fill(last_raw_angle_.begin(), last_raw_angle_.end(), 0.0f);
  RefreshGimbals();
  std::fill(qfrc_actuator_.begin(), qfrc_actuator_.end(), 0.0f);
}

void World::ApplyJointEffort(const CompiledJoint& joint, float effort) {
  JPH::Body& child = *bodies_[joint.body];
  JPH::Body* parent = joint.parent >= 0 ? bodies_[joint.parent] : nullptr;
  if (joint.type == JointType::Hinge) {
    const JPH::Vec3 axis = joint.gimbal_slot >= 0 ? GimbalRateRow(joint) : child.GetRotation() * joint.axis_local;
    const JPH::Vec3 torque = effort * axis;
    child.AddTorque(torque);
    if (parent) parent->AddTorque(-torque);
  } else {
    const CompiledBody& cb = model_->bodies()[joint.body];
    const JPH::Vec3 force = effort * (ParentRotation(joint.body) * (cb.rel_rot0 * joint.axis_local));
    // A planar root's slide must not turn its hinge: push at the hinge's anchor.
    const JPH::Vec3 point = cb.attachment == Attachment::Planar ? model_->joints()[cb.joints.back()].anchor_local
                                                                : joint.anchor_local;
    const JPH::RVec3 at = child.GetWorldTransform() * point;
    child.AddForce(force, at);
    if (parent) parent->AddForce(-force, at);
  }
}

void World::AddJointEffort(int joint, float effort) {
  const JointAxisConstraint* row = axis_rows_[size_t(joint)].GetPtr();
  if (row && row->takes_joint_forces())
    row_effort_[size_t(joint)] += effort;  // delivered by the drive row (BeginAxisRows)
  else
    ApplyJointEffort(model_->joints()[size_t(joint)], effort);
}

void World::ApplyActuation(const float* ctrl) {
  const CompiledModel& m = *model_;
  std::fill(qfrc_actuator_.begin(), qfrc_actuator_.end(), 0.0f);
  for (size_t i = 0; i < m.actuators().size(); ++i) {
    const CompiledActuator& a = m.actuators()[i];
    float u = ctrl[i];
    if (a.ctrllimited) u = std::clamp(u, a.ctrl_lo, a.ctrl_hi);
    float force = a.gain * u;
    if (a.forcelimited) force = std::clamp(force, a.force_lo, a.force_hi);
    const float generalized = a.gear * force;
    const CompiledJoint& joint = m.joints()[a.joint];
    qfrc_actuator_[joint.dofadr] += generalized;
    AddJointEffort(a.joint, generalized);
  }
}

void World::ApplyJointSprings() {
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    const CompiledJoint& joint = joints[j];
    if (joint.stiffness != 0.0f) AddJointEffort(int(j), -joint.stiffness * (ScalarJointQ(int(j)) - joint.springref));
  }
}

// MuJoCo's inertia-box fluid model: each body drags like the box with its mass and
// principal inertia, quadratic (density) plus viscous (viscosity) terms, in the box's
// axes. Bodies welded together drag as one box (MuJoCo uses one box per MuJoCo body).
void World::ApplyFluidForces() {
  const float rho = model_->desc().density, beta = model_->desc().viscosity;
  constexpr float kPi = JPH::JPH_PI;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    JPH::Body& body = *bodies_[i];
    const CompiledBody& cb = model_->bodies()[i];
    const JPH::Quat to_world = body.GetRotation() * cb.inertia_frame;
    const JPH::Vec3 v = to_world.Conjugated() * body.GetLinearVelocity();
    const JPH::Vec3 w = to_world.Conjugated() * body.GetAngularVelocity();
    const JPH::Vec3 r = cb.fluid_box;
    const float r_eq = (r.GetX() + r.GetY() + r.GetZ()) / 3.0f;
    JPH::Vec3 force, torque;
    for (int a = 0; a < 3; ++a) {
      const float rj = r[(a + 1) % 3], rk = r[(a + 2) % 3];
      force.SetComponent(a, -2.0f * rho * rj * rk * std::abs(v[a]) * v[a] - 6.0f * beta * kPi * r_eq * v[a]);
      torque.SetComponent(a, -0.5f * rho * r[a] * (rj * rj * rj * rj + rk * rk * rk * rk) * std::abs(w[a]) * w[a] -
                                 8.0f * beta * kPi * r_eq * r_eq * r_eq * w[a]);
    }
    body.AddForce(to_world * force);
    body.AddTorque(to_world * torque);
  }
}

void World::BeginAxisRows(float h) {
  PredictGimbals(h);
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    JointAxisConstraint* row = axis_rows_[j].GetPtr();
    if (!row) continue;
    const CompiledJoint& joint = joints[j];
    const float effort = row_effort_[j];
    row_effort_[j] = 0.0f;
    if (joint.gimbal_slot < 0) {
      row->BeginStep(ScalarJointQ(int(j)), JointRate(joint), JPH::Vec3::sZero(), effort);
      continue;
    }
    // A gimbal coordinate's rate row turns as the body moves, so its rate changes even at
    // constant angular velocity (dq/dt = J w, d2q/dt2 = J dw/dt + dJ/dt w). Armature opposes
    // all of d2q/dt2 (MuJoCo's M + diag(armature)); the row, with J fixed over the step,
    // sees only J dw/dt, so the dJ/dt w part enters through the rate it starts from.
    const JPH::Vec3 w_rel = RelativeAngularVelocity(joint);
    const JPH::Vec3 rate_row = GimbalRateRow(joint);
    const JPH::Vec3 next_row = joint.gimbal_sign * gimbal_next_[size_t(joint.body)].rate_rows[joint.gimbal_slot];
    const float rate = rate_row.Dot(w_rel);
    row->BeginStep(ScalarJointQ(int(j)), rate - (next_row - rate_row).Dot(w_rel), rate_row, effort);
  }
}

void World::PredictGimbals(float h) {
  const CompiledModel& m = *model_;
  auto advanced = [h](const JPH::Body* body) {
    if (!body) return JPH::Quat::sIdentity();
    const JPH::Vec3 w = body->GetAngularVelocity();
    const float speed = w.Length();
    const JPH::Quat q = body->GetRotation();
    return speed > 1.0e-9f ? (JPH::Quat::sRotation(w / speed, speed * h) * q).Normalized() : q;
  };
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const CompiledBody& cb = m.bodies()[i];
    if (cb.attachment != Attachment::Gimbal) continue;
    const JPH::Quat parent = advanced(cb.parent >= 0 ? bodies_[size_t(cb.parent)] : nullptr);
    gimbal_next_[i] = MeasureGimbal(parent * cb.rel_rot0, cb.gimbal_basis, advanced(bodies_[i]));
  }
}

JPH::Vec3 World::RelativeAngularVelocity(const CompiledJoint& joint) const {
  const JPH::Vec3 parent_w = joint.parent >= 0 ? bodies_[joint.parent]->GetAngularVelocity() : JPH::Vec3::sZero();
  return bodies_[joint.body]->GetAngularVelocity() - parent_w;
}

void World::TrackAngles() {
  RefreshGimbals();
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    if (!joints[j].rotational_dof) continue;
    const float raw = MeasureAngle(joints[j]);
    angle_[j] += WrapAngle(raw - last_raw_angle_[j]);
    last_raw_angle_[j] = raw;
  }
}

void World::Step(const float* ctrl, StepContext& ctx) {
  const int substeps = model_->solver().substeps;
  const float h = model_->timestep() / float(substeps);
  for (int s = 0; s < substeps; ++s) {
    ApplyActuation(ctrl);
    ApplyJointSprings();
    if (model_->has_fluid()) ApplyFluidForces();
    BeginAxisRows(h);
    JPH::EPhysicsUpdateError error = system_.Update(h, 1, &ctx.temp, &ctx.jobs);
    last_update_dt_ = h;
    update_errors_ |= unsigned(error);
    TrackAngles();
  }
}

float World::JointLimitForce(int joint) const {
  const JointAxisConstraint* row = axis_rows_[size_t(joint)].GetPtr();
  return row && last_update_dt_ > 0.0f ? row->limit_impulse() / last_update_dt_ : 0.0f;
}

const std::vector<ContactForce>& World::ReadContactForces() {
  contact_reader_.Read(system_, last_update_dt_, contacts_);
  return contacts_;
}

int World::BodyIndex(JPH::BodyID id) const {
  const JPH::uint32 i = id.GetIndex();
  return i < body_index_of_id_.size() ? body_index_of_id_[i] : -1;
}

namespace {
// A point given in a simulated body's frame (body -1: the world), in world coordinates.
JPH::RVec3 PointInWorld(const std::vector<JPH::Body*>& bodies, int body, const Vec3f& pos) {
  const JPH::Vec3 local(pos[0], pos[1], pos[2]);
  return body >= 0 ? bodies[size_t(body)]->GetWorldTransform() * local : JPH::RVec3(local);
}
}  // namespace

JPH::RVec3 World::SitePosition(int site) const {
  const SiteDesc& s = model_->desc().sites[size_t(site)];
  return PointInWorld(bodies_, s.body, s.pos);
}

JPH::RVec3 World::MjBodyPosition(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  const bool at_body_origin = frame.body >= 0 && frame.pos == Vec3f{0.0f, 0.0f, 0.0f};
  return at_body_origin ? bodies_[size_t(frame.body)]->GetPosition() : PointInWorld(bodies_, frame.body, frame.pos);
}

JPH::RVec3 World::MjBodyCentreOfMass(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  return PointInWorld(bodies_, frame.body, frame.ipos);
}

float World::MaxJointAnchorError() const {
  float worst = 0.0f;
  const CompiledModel& m = *model_;
  for (const CompiledJoint& joint : m.joints()) {
    const CompiledBody& cb = m.bodies()[joint.body];
    if (cb.attachment != Attachment::Hinge && cb.attachment != Attachment::Ball && cb.attachment != Attachment::Gimbal)
      continue;
    const JPH::RVec3 on_child = bodies_[joint.body]->GetWorldTransform() * joint.anchor_local;
    const JPH::RVec3 on_parent = ParentTransform(joint.body) * (cb.rel_pos0 + cb.rel_rot0 * joint.anchor_local);
    worst = std::max(worst, float(JPH::Vec3(on_child - on_parent).Length()));
  }
  return worst;
}

}  // namespace joltgym
