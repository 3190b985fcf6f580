#include "physics/joints/planar_point_constraint.h"

#include "physics/core/own_constraint_settings.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

namespace joltgym {

PlanarPointConstraint::PlanarPointConstraint(JPH::Body& parent, JPH::Body& child, JPH::RVec3Arg anchor,
                                             int normal_axis, JPH::uint32 priority)
    : OwnConstraint(parent, child, priority) {
  const JPH::Vec3 axes[3] = {JPH::Vec3::sAxisX(), JPH::Vec3::sAxisY(), JPH::Vec3::sAxisZ()};
  n_ = axes[normal_axis];
  u_ = axes[(normal_axis + 1) % 3];  // (n, u, w) right-handed: n x u = w
  w_ = axes[(normal_axis + 2) % 3];
  JPH::Body* bodies[2] = {&parent, &child};
  for (int s = 0; s < 2; ++s) {
    Side& side = side_[s];
    side.r_local = JPH::Vec3(bodies[s]->GetInverseCenterOfMassTransform() * anchor);
    if (!bodies[s]->IsDynamic()) continue;
    const JPH::MotionProperties* mp = bodies[s]->GetMotionProperties();
    side.inv_mass = mp->GetInverseMass();
    side.inv_inertia = n_.Dot(mp->GetInverseInertiaForRotation(JPH::Mat44::sRotation(bodies[s]->GetRotation())) * n_);
  }
}

void PlanarPointConstraint::Setup() {
  const JPH::Body* bodies[2] = {mBody1, mBody2};
  float k_uu = 0.0f, k_uw = 0.0f, k_ww = 0.0f;
  for (int s = 0; s < 2; ++s) {
    Side& side = side_[s];
    side.r = bodies[s]->GetRotation() * side.r_local;
    // n x r = r.u w - r.w u: its components along u and w.
    side.arm_u = -side.r.Dot(w_);
    side.arm_w = side.r.Dot(u_);
    k_uu += side.inv_mass + side.inv_inertia * side.arm_u * side.arm_u;
    k_uw += side.inv_inertia * side.arm_u * side.arm_w;
    k_ww += side.inv_mass + side.inv_inertia * side.arm_w * side.arm_w;
  }
  const float det = k_uu * k_ww - k_uw * k_uw;
  if (!(det > 1.0e-20f)) {
    mass_uu_ = mass_uw_ = mass_ww_ = 0.0f;
    return;
  }
  mass_uu_ = k_ww / det;
  mass_uw_ = -k_uw / det;
  mass_ww_ = k_uu / det;
}

void PlanarPointConstraint::Apply(float lu, float lw, bool positions) {
  const JPH::Vec3 impulse = lu * u_ + lw * w_;
  JPH::Body* bodies[2] = {mBody1, mBody2};
  for (int s = 0; s < 2; ++s) {
    if (!bodies[s]->IsDynamic()) continue;
    const Side& side = side_[s];
    const float sign = s == 0 ? -1.0f : 1.0f;  // body 2 takes the impulse, body 1 its opposite
    const JPH::Vec3 turn = (sign * side.inv_inertia * (side.arm_u * lu + side.arm_w * lw)) * n_;
    const JPH::Vec3 shift = (sign * side.inv_mass) * impulse;
    if (positions) {
      bodies[s]->AddPositionStep(shift);
      bodies[s]->AddRotationStep(turn);
    } else {
      JPH::MotionProperties* mp = bodies[s]->GetMotionProperties();
      mp->AddLinearVelocityStep(shift);
      mp->AddAngularVelocityStep(turn);
    }
  }
}

void PlanarPointConstraint::WarmStartVelocityConstraint(float ratio) {
  lambda_u_ *= ratio;
  lambda_w_ *= ratio;
  if (lambda_u_ != 0.0f || lambda_w_ != 0.0f) Apply(lambda_u_, lambda_w_, false);
}

bool PlanarPointConstraint::SolveVelocityConstraint(float) {
  // Anchor velocity of body 1 minus body 2, in the plane.
  const JPH::Vec3 jv = mBody1->GetLinearVelocity() + mBody1->GetAngularVelocity().Cross(side_[0].r) -
                       mBody2->GetLinearVelocity() - mBody2->GetAngularVelocity().Cross(side_[1].r);
  const float ju = jv.Dot(u_), jw = jv.Dot(w_);
  const float lu = mass_uu_ * ju + mass_uw_ * jw;
  const float lw = mass_uw_ * ju + mass_ww_ * jw;
  if (lu == 0.0f && lw == 0.0f) return false;
  lambda_u_ += lu;
  lambda_w_ += lw;
  Apply(lu, lw, false);
  return true;
}

bool PlanarPointConstraint::SolvePositionConstraint(float, float baumgarte) {
  Setup();  // arms and effective mass at the poses the previous iterations left
  const JPH::Vec3 separation = JPH::Vec3(mBody2->GetCenterOfMassPosition() - mBody1->GetCenterOfMassPosition()) +
                               side_[1].r - side_[0].r;
  const float su = separation.Dot(u_), sw = separation.Dot(w_);
  if (su == 0.0f && sw == 0.0f) return false;
  const float lu = -baumgarte * (mass_uu_ * su + mass_uw_ * sw);
  const float lw = -baumgarte * (mass_uw_ * su + mass_ww_ * sw);
  Apply(lu, lw, true);
  return true;
}

void PlanarPointConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  stream.Write(lambda_u_);
  stream.Write(lambda_w_);
}

void PlanarPointConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  stream.Read(lambda_u_);
  stream.Read(lambda_w_);
}

}  // namespace joltgym
