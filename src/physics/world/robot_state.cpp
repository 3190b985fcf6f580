// A robot's generalized state: joint coordinates and rates read from its bodies,
// bodies placed from coordinates, and the other views tasks read.
#include "physics/world/robot.h"

#include "physics/world/world.h"

#include <Jolt/Physics/Body/BodyInterface.h>

#include <algorithm>
#include <cmath>

namespace joltgym {
namespace {

float WrapAngle(float a) {
  // fmod returns its argument unchanged in [0, 2 pi): the common case, without the call.
  const float shifted = a + JPH::JPH_PI;
  if (shifted > 0.0f && shifted < 2.0f * JPH::JPH_PI) return shifted - JPH::JPH_PI;
  a = std::fmod(a + JPH::JPH_PI, 2.0f * JPH::JPH_PI);
  if (a <= 0.0f) a += 2.0f * JPH::JPH_PI;
  return a - JPH::JPH_PI;
}

// Rotation angle of `q` about unit `axis`, assuming q is (close to) such a rotation.
float TwistAngle(JPH::Quat q, JPH::Vec3 axis) {
  if (q.GetW() < 0.0f) q = -q;
  return 2.0f * std::atan2(q.GetXYZ().Dot(axis), q.GetW());
}

}  // namespace

void Robot::SetControls(const float* ctrl) { std::copy(ctrl, ctrl + ctrl_.size(), ctrl_.begin()); }

JPH::Quat Robot::ParentRotation(int body) const {
  int parent = model_->bodies()[body].parent;
  return parent >= 0 ? bodies_[parent]->GetRotation() : JPH::Quat::sIdentity();
}

JPH::RMat44 Robot::ParentTransform(int body) const {
  int parent = model_->bodies()[body].parent;
  return parent >= 0 ? bodies_[parent]->GetWorldTransform() : JPH::RMat44::sTranslation(origin_);
}

JPH::Vec3 Robot::PointVelocity(int body, JPH::RVec3 point) const {
  if (body < 0) return JPH::Vec3::sZero();
  const JPH::Body& b = *bodies_[body];
  return b.GetLinearVelocity() + b.GetAngularVelocity().Cross(JPH::Vec3(point - b.GetCenterOfMassPosition()));
}

void Robot::RefreshGimbals() {
  const CompiledModel& m = *model_;
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const CompiledBody& cb = m.bodies()[i];
    if (cb.attachment != Attachment::Gimbal) continue;
    gimbal_[i] = MeasureGimbal(ParentRotation(int(i)) * cb.rel_rot0, cb.gimbal_basis, bodies_[i]->GetRotation(),
                               cb.gimbal_lock_third);
  }
}

JPH::Vec3 Robot::AnchorOnBody(const CompiledJoint& joint) const {
  const CompiledBody& cb = model_->bodies()[joint.body];
  if (joint.gimbal_slot < 0 || !cb.gimbal_anchors_apart) return joint.anchor_local;
  JPH::Vec3 anchors[3];
  for (size_t s = 0; s < cb.joints.size(); ++s) anchors[s] = model_->joints()[size_t(cb.joints[s])].anchor_local;
  return GimbalAnchorOnChild(anchors, int(cb.joints.size()), joint.gimbal_slot, cb.gimbal_basis,
                             gimbal_[size_t(joint.body)].angles);
}

float Robot::MeasureAngle(const CompiledJoint& joint) const {
  if (joint.gimbal_slot >= 0) return joint.gimbal_sign * gimbal_[size_t(joint.body)].angles[joint.gimbal_slot];
  const CompiledBody& cb = model_->bodies()[joint.body];
  JPH::Quat frame0 = ParentRotation(joint.body) * cb.rel_rot0;
  JPH::Quat rel = frame0.Conjugated() * bodies_[joint.body]->GetRotation();
  return WrapAngle(TwistAngle(rel, joint.axis_local));
}

float Robot::SlidePosition(const CompiledJoint& joint) const {
  const CompiledBody& cb = model_->bodies()[joint.body];
  const JPH::Body& b = *bodies_[joint.body];
  if (cb.attachment == Attachment::Planar) {
    // Slides come before the hinge, so they move the hinge's anchor along fixed world axes.
    const JPH::Vec3 hinge_anchor = model_->joints()[cb.joints.back()].anchor_local;
    const JPH::RVec3 now = b.GetWorldTransform() * hinge_anchor;
    const JPH::RVec3 then = origin_ + cb.pos0 + cb.rot0 * hinge_anchor;
    return (cb.rot0 * joint.axis_local).Dot(JPH::Vec3(now - then));
  }
  const JPH::RMat44 parent = ParentTransform(joint.body);
  const JPH::RVec3 anchor_child = b.GetWorldTransform() * joint.anchor_local;
  const JPH::RVec3 anchor_parent = parent * (cb.rel_pos0 + cb.rel_rot0 * joint.anchor_local);
  const JPH::Vec3 axis = parent.GetQuaternion() * (cb.rel_rot0 * joint.axis_local);
  return axis.Dot(JPH::Vec3(anchor_child - anchor_parent));
}

JPH::Vec3 Robot::RelativeAngularVelocity(const CompiledJoint& joint) const {
  const JPH::Vec3 parent_w = joint.parent >= 0 ? bodies_[joint.parent]->GetAngularVelocity() : JPH::Vec3::sZero();
  return bodies_[joint.body]->GetAngularVelocity() - parent_w;
}

float Robot::JointRate(const CompiledJoint& joint) const {
  const CompiledBody& cb = model_->bodies()[joint.body];
  const JPH::Body& b = *bodies_[joint.body];
  if (joint.type == JointType::Hinge) {
    const JPH::Vec3 axis = joint.gimbal_slot >= 0 ? GimbalRateRow(joint) : b.GetRotation() * joint.axis_local;
    return axis.Dot(RelativeAngularVelocity(joint));
  }
  // Slide
  if (cb.attachment == Attachment::Planar) {
    const JPH::RVec3 anchor = b.GetWorldTransform() * model_->joints()[cb.joints.back()].anchor_local;
    return SlideAxis(joint).Dot(PointVelocity(joint.body, anchor));
  }
  const JPH::RVec3 anchor = b.GetWorldTransform() * joint.anchor_local;
  return SlideAxis(joint).Dot(PointVelocity(joint.body, anchor) - PointVelocity(joint.parent, anchor));
}

JPH::Vec3 Robot::SlideAxis(const CompiledJoint& joint) const {
  const CompiledBody& cb = model_->bodies()[joint.body];
  // A planar root's slides come before its hinge: fixed world axes.
  if (cb.attachment == Attachment::Planar) return cb.rot0 * joint.axis_local;
  return ParentRotation(joint.body) * (cb.rel_rot0 * joint.axis_local);
}

float Robot::ScalarJointQ(int j) const {
  const CompiledJoint& joint = model_->joints()[j];
  if (joint.type == JointType::Hinge) return joint.qpos0[0] + angle_[j];
  return joint.qpos0[0] + SlidePosition(joint);
}

void Robot::GetQpos(float* qpos) const {
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
        JPH::RVec3 p = b.GetPosition() - origin_;
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

void Robot::GetQvel(float* qvel) const {
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

void Robot::ForwardKinematics(const float* qpos, const float* qvel, std::vector<KinematicFrame>& frames) const {
  const CompiledModel& m = *model_;
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
      f.pos = origin_ + JPH::RVec3(cb.rel_pos0);
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
          f.pos = origin_ + JPH::RVec3(q[0], q[1], q[2]);
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
  }
}

void Robot::SetState(const float* qpos, const float* qvel) {
  const CompiledModel& m = *model_;
  JPH::BodyInterface& bi = world_->system_.GetBodyInterfaceNoLock();
  ForwardKinematics(qpos, qvel, frames_);
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const KinematicFrame& f = frames_[i];
    JPH::Body& body = *bodies_[i];
    const JPH::Vec3 com_offset = f.rot * m.bodies()[i].com_local;
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
  updated_since_state_set_ = false;
  ++state_sets_;
}

void Robot::RestoreInitialState() {
  std::fill(angle_.begin(), angle_.end(), 0.0f);
  std::fill(last_raw_angle_.begin(), last_raw_angle_.end(), 0.0f);
  RefreshGimbals();
  std::fill(qfrc_actuator_.begin(), qfrc_actuator_.end(), 0.0f);
  std::fill(actuator_force_.begin(), actuator_force_.end(), 0.0f);
  std::fill(ctrl_.begin(), ctrl_.end(), 0.0f);
  std::fill(act_.begin(), act_.end(), 0.0f);
  std::fill(external_force_.begin(), external_force_.end(), JPH::Vec3::sZero());
  has_external_force_ = false;
  updated_since_state_set_ = false;
  ++state_sets_;
}

void Robot::TrackAngles() {
  RefreshGimbals();
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    if (!joints[j].rotational_dof) continue;
    const float raw = MeasureAngle(joints[j]);
    angle_[j] += WrapAngle(raw - last_raw_angle_[j]);
    last_raw_angle_[j] = raw;
  }
}

float Robot::JointLimitForce(int joint) const {
  const JointAxisConstraint* row = axis_rows_[size_t(joint)].GetPtr();
  return row && last_update_dt_ > 0.0f ? row->limit_impulse() / last_update_dt_ : 0.0f;
}

const std::vector<ContactForce>& Robot::ReadContactForces() const { return world_->ReadContactForces(); }

JPH::RVec3 Robot::PointInRobotFrame(int body, const Vec3f& pos) const {
  const JPH::Vec3 local(pos[0], pos[1], pos[2]);
  return body >= 0 ? bodies_[size_t(body)]->GetWorldTransform() * local - origin_ : JPH::RVec3(local);
}

JPH::RVec3 Robot::SitePosition(int site) const {
  const SiteDesc& s = model_->desc().sites[size_t(site)];
  return PointInRobotFrame(s.body, s.pos);
}

JPH::RVec3 Robot::MjBodyPosition(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  const bool at_body_origin = frame.body >= 0 && frame.pos == Vec3f{0.0f, 0.0f, 0.0f};
  return at_body_origin ? bodies_[size_t(frame.body)]->GetPosition() - origin_ : PointInRobotFrame(frame.body, frame.pos);
}

JPH::RVec3 Robot::MjBodyCentreOfMass(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  return PointInRobotFrame(frame.body, frame.ipos);
}

JPH::Quat Robot::MjBodyRotation(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  const JPH::Quat local(frame.quat[1], frame.quat[2], frame.quat[3], frame.quat[0]);
  return frame.body >= 0 ? (bodies_[size_t(frame.body)]->GetRotation() * local).Normalized() : local;
}

JPH::Quat Robot::MjBodyQuaternion(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  const JPH::Quat local(frame.quat[1], frame.quat[2], frame.quat[3], frame.quat[0]);
  return frame.body >= 0 ? SensorFrame(frame.body).rot * local : local;
}

JPH::Vec3 Robot::MjBodyCentreOfMassVelocity(int mj_body) const {
  const BodyFrameDesc& frame = model_->desc().mj_body_frames[size_t(mj_body)];
  return PointVelocity(frame.body, MjBodyCentreOfMass(mj_body) + origin_);
}

float Robot::MaxJointAnchorError() const {
  float worst = 0.0f;
  const CompiledModel& m = *model_;
  for (const CompiledJoint& joint : m.joints()) {
    const CompiledBody& cb = m.bodies()[joint.body];
    if (cb.attachment != Attachment::Hinge && cb.attachment != Attachment::Ball && cb.attachment != Attachment::Gimbal)
      continue;
    // A later hinge's anchor rides on the earlier ones: the first closing places the body.
    if (joint.gimbal_slot > 0 && cb.gimbal_anchors_apart) continue;
    const JPH::RVec3 on_child = bodies_[joint.body]->GetWorldTransform() * AnchorOnBody(joint);
    const JPH::RVec3 on_parent = ParentTransform(joint.body) * (cb.rel_pos0 + cb.rel_rot0 * joint.anchor_local);
    worst = std::max(worst, float(JPH::Vec3(on_child - on_parent).Length()));
  }
  return worst;
}

bool Robot::Diverged() const {
  for (const JPH::Body* body : bodies_) {
    // Written as !(x < bound) so that NaN counts as diverged.
    const bool sane = JPH::Vec3(body->GetPosition()).LengthSq() < 1.0e30f &&
                      body->GetLinearVelocity().Length() < kDivergedSpeed &&
                      body->GetAngularVelocity().Length() < kDivergedSpeed && !body->GetRotation().IsNaN();
    if (!sane) return true;
  }
  return false;
}

}  // namespace joltgym
