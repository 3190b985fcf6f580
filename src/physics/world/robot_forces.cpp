// What a robot adds to each physics update: actuator and spring forces, fluid forces,
// and the coordinates its joint rows need; then the bookkeeping after the update.
#include "physics/world/robot.h"

#include "physics/articulation/planar_articulation_constraint.h"
#include "physics/articulation/tree_constraint.h"

#include <algorithm>
#include <cmath>

namespace joltgym {

void Robot::BeforeUpdate(float h, UpdateScratch& scratch) {
  for (TreeConstraint* tree : trees_) tree->UseScratch(scratch);
  RecordVelocities();
  ++update_count_;  // the joint rates of JointRateThisUpdate are those of this update's start
  biases_fresh_ = false;
  if (!mujoco_euler_trees_.empty()) {
    // Velocities consistent with the current poses first, so that everything this update
    // measures (contact and limit rows, the bias accelerations) sees MuJoCo's qvel at qpos.
    for (PlanarArticulationConstraint* tree : mujoco_euler_trees_) tree->ReexpressVelocities();
    ComputeBiasAccelerations();
    biases_fresh_ = true;
  }
  ApplyActuation(h);
  ApplyJointSprings();
  if (has_external_force_)
    for (size_t i = 0; i < bodies_.size(); ++i) bodies_[i]->AddForce(external_force_[i]);
  if (model_->has_fluid()) ApplyFluidForces();
  BeginAxisRows(h);
  for (const auto& tendon : tendon_limits_) tendon->BeginStep();
  for (size_t i = 0; i < tendon_equalities_.size(); ++i) {
    float length, rate;
    FixedTendonNow(model_->desc().tendons[size_t(model_->desc().tendon_equalities[i].tendon)], length, rate);
    tendon_equalities_[i]->BeginStep(length, rate);
  }
  for (size_t i = 0; i < soft_contacts_.size(); ++i) soft_contacts_[i]->BeginStep(h, *this, soft_contact_body_[i]);
  if (!self_contacts_.empty()) {
    for (size_t b = 0; b < bodies_.size(); ++b) self_contact_frames_[b] = bodies_[b]->GetWorldTransform();
    const auto& self = model_->self_contacts();
    for (size_t i = 0; i < self_contacts_.size(); ++i)
      self_contacts_[i]->BeginStep(h, *this, self[i].body1, self[i].body2, self_contact_frames_.data());
  }
  if (!mujoco_euler_trees_.empty()) TakeBiasExplicitly(h);
}

void Robot::TakeBiasExplicitly(float h) {
  // MuJoCo's Euler step: M (v' - v) = h (tau - c(q, v)) + constraint impulses, with c the
  // velocity-product forces at the step's start. The articulation's projection solves
  // T^T M T x' = T^T M v_in (+ rows) on the bodies' velocities v_in; with v_in = T x - h a_bias,
  // a_bias = T-dot x each body's acceleration at zero joint accelerations in MuJoCo's joint
  // order (the root's slides, then its hinge), that is T^T M a_bias = c, MuJoCo's step exactly.
  const auto& bodies = model_->bodies();
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (!bodies[i].articulated) continue;
    JPH::MotionProperties* mp = bodies_[i]->GetMotionProperties();
    mp->AddLinearVelocityStep(-h * bias_accel_[i].at_com);
    mp->AddAngularVelocityStep(-h * bias_accel_[i].angular);
  }
}

const BiasAcceleration& Robot::BiasOf(int body) {
  // Taken explicitly (TakeBiasExplicitly), the bias is already in the bodies' velocities: a
  // contact point's velocity then changes by MuJoCo's J qacc alone, and its rows add nothing.
  static const BiasAcceleration kNone;
  if (!mujoco_euler_trees_.empty()) return kNone;
  if (!biases_fresh_) {
    ComputeBiasAccelerations();
    biases_fresh_ = true;
  }
  return bias_accel_[size_t(body)];
}

void Robot::AppendSoftContactForces(std::vector<ContactForce>& out) const {
  for (size_t i = 0; i < soft_contacts_.size(); ++i)
    soft_contacts_[i]->AppendForces(last_update_dt_, index_, soft_contact_body_[i], out);
  const auto& self = model_->self_contacts();
  for (size_t i = 0; i < self_contacts_.size(); ++i)
    self_contacts_[i]->AppendForces(last_update_dt_, index_, self[i].body1, self[i].body2, out);
}

void Robot::AfterUpdate(float h) {
  last_update_dt_ = h;
  updated_since_state_set_ = true;
  if (model_->solver().mujoco_euler)
    for (size_t i = 0; i < bodies_.size(); ++i)
      if (tree_of_[i].first)
        tree_of_[i].first->DampingVelocityChange(tree_of_[i].second, linear_damping_change_[i], angular_damping_change_[i]);
  // In each position iteration Jolt corrects its contacts after the constraints, so a contact
  // that reaches into a tree (HumanoidStandup's hands start inside its hips) leaves the anchors
  // the articulation closed pushed apart. Placed once more, the tree's state is on its joints
  // whatever touched it.
  for (TreeConstraint* tree : touched_trees_) tree->PlaceAgainIfMoved(h);
  for (PlanarArticulationConstraint* tree : mujoco_euler_trees_) tree->EndUpdate();
  TrackAngles();
}

void Robot::ApplyJointEffort(const CompiledJoint& joint, float effort) {
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

void Robot::SetExternalForce(int body, JPH::Vec3Arg force) {
  external_force_[size_t(body)] = force;
  has_external_force_ = false;
  for (const JPH::Vec3& f : external_force_) has_external_force_ = has_external_force_ || f != JPH::Vec3::sZero();
}

void Robot::AddJointEffort(int joint, float effort) {
  const JointAxisConstraint* row = axis_rows_[size_t(joint)].GetPtr();
  if (row && row->takes_joint_forces())
    row_effort_[size_t(joint)] += effort;  // delivered by the drive row (BeginAxisRows)
  else
    ApplyJointEffort(model_->joints()[size_t(joint)], effort);
}

namespace {

// The activation after a step of length h (MuJoCo's mj_advance): exact for filterexact, Euler
// otherwise, clamped to actrange.
float NextActivation(const CompiledActuator& a, float act, float u, float h) {
  using Dynamics = ActuatorDesc::Dynamics;
  float next = act;
  if (a.dynamics == Dynamics::Integrator) next = act + h * u;
  if (a.dynamics == Dynamics::Filter) next = act + h * (u - act) / a.tau;
  if (a.dynamics == Dynamics::FilterExact) next = act + (u - act) * (1.0f - std::exp(-h / a.tau));
  return a.actlimited ? std::clamp(next, a.act_lo, a.act_hi) : next;
}

}  // namespace

// MuJoCo's mj_fwdActuation for joint and fixed-tendon transmissions, explicit at the update's start
// as in its Euler step: force = gain u + bias (u the control, or the activation where the actuator
// has dynamics) with the affine terms in the actuator's length gear q and velocity gear qdot (a
// tendon's: gear times its length and velocity), clipped to forcerange, times the gear (on a
// tendon's joints, gear times each coefficient); each joint's sum clipped to its
// actuatorfrcrange. Under implicitfast an actuator inside its forcerange also damps its joint
// implicitly by d = -(gain_velocity u + bias_velocity) gear^2 (MuJoCo's mjd_actuator_vel): the
// joint's drive row takes d on the new rate and the explicit force gives back d times the old
// one, so that the step adds -d (rate' - rate) to MuJoCo's force, as (M + h d) qacc = force does.
void Robot::ApplyActuation(float h) {
  const CompiledModel& m = *model_;
  std::fill(qfrc_actuator_.begin(), qfrc_actuator_.end(), 0.0f);
  const bool implicit = m.desc().implicit_actuator_velocity;
  if (implicit) std::fill(actuator_damping_.begin(), actuator_damping_.end(), 0.0f);
  for (size_t i = 0; i < m.actuators().size(); ++i) {
    const CompiledActuator& a = m.actuators()[i];
    float u = ctrl_[i];
    if (a.ctrllimited) u = std::clamp(u, a.ctrl_lo, a.ctrl_hi);
    if (a.dynamics != ActuatorDesc::Dynamics::None) {  // the force takes the activation, which follows u
      const float next = NextActivation(a, act_[i], u, h);
      u = a.actearly ? next : act_[i];
      act_[i] = next;
    }
    const float gain = actuator_gain_[i];
    float force = gain * u;
    if (a.affine) {
      float length = 0.0f, velocity = 0.0f;
      if (a.joint >= 0) {
        length = a.gear * ScalarJointQ(a.joint);
        velocity = a.gear * JointRateThisUpdate(a.joint);
      }
      for (const auto& [joint, moment] : a.tendon_moments) {
        length += moment * ScalarJointQ(joint);
        velocity += moment * JointRateThisUpdate(joint);
      }
      force = (gain + a.gain_length * length + a.gain_velocity * velocity) * u + a.bias +
              actuator_bias_length_[i] * length + a.bias_velocity * velocity;
    }
    if (a.forcelimited) force = std::clamp(force, a.force_lo, a.force_hi);
    if (implicit && a.joint >= 0 && a.affine && !(a.forcelimited && (force <= a.force_lo || force >= a.force_hi)))
      actuator_damping_[size_t(a.joint)] -= (a.gain_velocity * u + a.bias_velocity) * a.gear * a.gear;
    actuator_force_[i] = force;
    if (a.joint >= 0) qfrc_actuator_[m.joints()[a.joint].dofadr] += a.gear * force;
    for (const auto& [joint, moment] : a.tendon_moments) qfrc_actuator_[m.joints()[size_t(joint)].dofadr] += moment * force;
  }
  for (int j : m.actuated_joints()) {
    const CompiledJoint& joint = m.joints()[size_t(j)];
    float& total = qfrc_actuator_[joint.dofadr];
    if (joint.actfrclimited) total = std::clamp(total, joint.actfrc_lo, joint.actfrc_hi);
    if (joint.implicit_actuator_velocity) {
      const float d = actuator_damping_[size_t(j)];
      const float armature = parameters_[size_t(RobotParameter::JointArmature)][size_t(j)];
      axis_rows_[size_t(j)]->SetArmatureAndDamping(armature, (joint.implicit_damping ? joint_damping_[size_t(j)] : 0.0f) + d);
      AddJointEffort(j, total + d * JointRateThisUpdate(j));
    } else {
      AddJointEffort(j, total);
    }
  }
}

void Robot::FixedTendonNow(const TendonDesc& tendon, float& length, float& velocity) {
  length = velocity = 0.0f;
  for (size_t k = 0; k < tendon.joints.size(); ++k) {
    length += tendon.coefs[k] * ScalarJointQ(tendon.joints[k]);
    velocity += tendon.coefs[k] * JointRateThisUpdate(tendon.joints[k]);
  }
}

void Robot::ApplyJointSprings() {
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    const CompiledJoint& joint = joints[j];
    if (joint.stiffness != 0.0f) AddJointEffort(int(j), -joint.stiffness * (ScalarJointQ(int(j)) - joint.springref));
    if (!joint.implicit_damping && joint_damping_[j] != 0.0f)
      AddJointEffort(int(j), -joint_damping_[j] * JointRateThisUpdate(int(j)));
  }
  // A tendon's spring and damper, explicit as in MuJoCo's Euler step (it takes only the joints'
  // damping implicitly), on each joint through its coefficient.
  const auto& tendons = model_->desc().tendons;
  for (int t : model_->passive_tendons()) {
    const TendonDesc& tendon = tendons[size_t(t)];
    float length, velocity;
    FixedTendonNow(tendon, length, velocity);
    float force = -tendon.damping * velocity;
    if (length < tendon.lengthspring[0]) force += tendon.stiffness * (tendon.lengthspring[0] - length);
    if (length > tendon.lengthspring[1]) force += tendon.stiffness * (tendon.lengthspring[1] - length);
    for (size_t k = 0; k < tendon.joints.size(); ++k) AddJointEffort(tendon.joints[k], tendon.coefs[k] * force);
  }
}

// MuJoCo's inertia-box fluid model: each body drags like the box with its mass and
// principal inertia, quadratic (density) plus viscous (viscosity) terms, in the box's
// axes. Bodies welded together drag as one box (MuJoCo uses one box per MuJoCo body).
void Robot::ApplyFluidForces() {
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

float Robot::JointRateThisUpdate(int j) {
  if (rate_update_[size_t(j)] != update_count_) {
    rate_now_[size_t(j)] = JointRate(model_->joints()[size_t(j)]);
    rate_update_[size_t(j)] = update_count_;
  }
  return rate_now_[size_t(j)];
}

void Robot::BeginAxisRows(float h) {
  PredictGimbals(h);
  const auto& joints = model_->joints();
  for (size_t j = 0; j < joints.size(); ++j) {
    JointAxisConstraint* row = axis_rows_[j].GetPtr();
    if (!row) continue;
    const CompiledJoint& joint = joints[j];
    const float effort = row_effort_[j];
    row_effort_[j] = 0.0f;
    if (joint.gimbal_slot < 0) {
      row->BeginStep(ScalarJointQ(int(j)), JointRateThisUpdate(int(j)), JPH::Vec3::sZero(), effort);
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

void Robot::PredictGimbals(float h) {
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
    gimbal_next_[i] = MeasureGimbalAxes(parent * cb.rel_rot0, cb.gimbal_basis, advanced(bodies_[i]), cb.gimbal_lock_third);
  }
}

}  // namespace joltgym
