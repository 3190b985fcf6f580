// What a robot's sites measure: the frames and motions MuJoCo's site sensors read.
#include "physics/world/robot.h"

namespace joltgym {

void Robot::RecordVelocities() {
  linear_velocity_before_.resize(bodies_.size());
  angular_velocity_before_.resize(bodies_.size());
  position_before_.resize(bodies_.size());
  rotation_before_.resize(bodies_.size());
  for (size_t i = 0; i < bodies_.size(); ++i) {
    linear_velocity_before_[i] = bodies_[i]->GetLinearVelocity();
    angular_velocity_before_[i] = bodies_[i]->GetAngularVelocity();
    position_before_[i] = bodies_[i]->GetPosition();
    rotation_before_[i] = bodies_[i]->GetRotation();
  }
}

JPH::Quat Robot::SiteRotation(int site) const {
  const SiteDesc& s = model_->desc().sites[size_t(site)];
  const JPH::Quat local(s.quat[1], s.quat[2], s.quat[3], s.quat[0]);
  return s.body >= 0 ? (bodies_[size_t(s.body)]->GetRotation() * local).Normalized() : local;
}

const Robot::KinematicFrame& Robot::SensorFrame(int body) const {
  const std::pair<std::uint64_t, std::uint64_t> now{update_count_, state_sets_};
  if (sensor_frames_of_ != now) {
    sensor_qpos_.resize(size_t(model_->nq()));
    sensor_qvel_.resize(size_t(model_->nv()));
    sensor_frames_.resize(bodies_.size());
    GetQpos(sensor_qpos_.data());
    GetQvel(sensor_qvel_.data());
    ForwardKinematics(sensor_qpos_.data(), sensor_qvel_.data(), sensor_frames_);
    sensor_frames_of_ = now;
  }
  return sensor_frames_[size_t(body)];
}

JPH::Vec3 Robot::SiteLinearVelocity(int site) const {
  const int body = model_->desc().sites[size_t(site)].body;
  if (body < 0) return JPH::Vec3::sZero();
  const KinematicFrame& f = SensorFrame(body);
  return f.v + f.w.Cross(JPH::Vec3(SitePosition(site) + origin_ - f.pos));
}

JPH::Vec3 Robot::SiteAngularVelocity(int site) const {
  const int body = model_->desc().sites[size_t(site)].body;
  return body >= 0 ? SensorFrame(body).w : JPH::Vec3::sZero();
}

JPH::Vec3 Robot::LinearVelocityChange(int body) const {
  const size_t b = size_t(body);
  return bodies_[b]->GetLinearVelocity() - linear_damping_change_[b] - linear_velocity_before_[b];
}

JPH::Vec3 Robot::AngularVelocityChange(int body) const {
  const size_t b = size_t(body);
  return bodies_[b]->GetAngularVelocity() - angular_damping_change_[b] - angular_velocity_before_[b];
}

JPH::Vec3 Robot::BodyLinearAcceleration(int body) const {
  if (!updated_since_state_set_ || last_update_dt_ <= 0.0f) return JPH::Vec3::sZero();
  return LinearVelocityChange(body) / last_update_dt_;
}

void Robot::MjBodyAcceleration(int mj_body, JPH::Vec3& com_acceleration, JPH::Vec3& angular_acceleration) const {
  const int body = model_->desc().mj_body_frames[size_t(mj_body)].body;
  com_acceleration = angular_acceleration = JPH::Vec3::sZero();
  if (body < 0 || !updated_since_state_set_ || last_update_dt_ <= 0.0f) return;
  const JPH::Body& b = *bodies_[size_t(body)];
  const JPH::Vec3 r(MjBodyCentreOfMass(mj_body) + origin_ - b.GetCenterOfMassPosition());
  const JPH::Vec3 w = b.GetAngularVelocity();
  angular_acceleration = AngularVelocityChange(body) / last_update_dt_;
  com_acceleration = LinearVelocityChange(body) / last_update_dt_ + angular_acceleration.Cross(r) + w.Cross(w.Cross(r));
}

JPH::Vec3 Robot::SiteLinearAcceleration(int site) const {
  const int body = model_->desc().sites[size_t(site)].body;
  if (body < 0 || !updated_since_state_set_ || last_update_dt_ <= 0.0f) return JPH::Vec3::sZero();
  // The point's acceleration as a rigid body's: the centre of mass's, plus the angular
  // acceleration's and the centripetal terms at the point, each over the last update.
  const JPH::Body& b = *bodies_[size_t(body)];
  const JPH::Vec3 r(SitePosition(site) + origin_ - b.GetCenterOfMassPosition());
  const JPH::Vec3 w = b.GetAngularVelocity();
  const JPH::Vec3 com_acceleration = LinearVelocityChange(body) / last_update_dt_;
  const JPH::Vec3 angular_acceleration = AngularVelocityChange(body) / last_update_dt_;
  return com_acceleration + angular_acceleration.Cross(r) + w.Cross(w.Cross(r));
}

}  // namespace joltgym
