#include "physics/joints/tendon_equality_constraint.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <utility>

namespace joltgym {

TendonEqualityConstraint::TendonEqualityConstraint(JPH::Body& body1, JPH::Body& body2,
                                                   std::vector<TendonEqualityTerm> terms, float length,
                                                   const SoftLimit& soft)
    : OwnConstraint(body1, body2), terms_(std::move(terms)), length_(length), soft_(soft) {
  for (const TendonEqualityTerm& t : terms_)
    for (JPH::Body* b : {t.child, t.parent})
      if (b && b->IsDynamic()) RowOf(b);
}

TendonEqualityConstraint::BodyRow& TendonEqualityConstraint::RowOf(JPH::Body* body) {
  for (BodyRow& r : rows_)
    if (r.body == body) return r;
  rows_.push_back(BodyRow{body});
  return rows_.back();
}

void TendonEqualityConstraint::SetupVelocityConstraint(float dt) {
  for (BodyRow& r : rows_) r.linear = r.angular = JPH::Vec3::sZero();
  for (const TendonEqualityTerm& t : terms_) {
    const JPH::Vec3 axis = t.parent ? t.parent->GetRotation() * t.axis_in_parent : t.axis_in_parent;
    const auto add = [&](JPH::Body* body, float sign) {
      if (!body || !body->IsDynamic()) return;
      BodyRow& r = RowOf(body);
      if (t.angular) {
        r.angular += sign * t.coef * axis;
      } else {  // along the axis at the anchor: a force there and its moment about the centre of mass
        const JPH::RVec3 anchor = t.child->GetWorldTransform() * t.anchor_in_child;
        r.linear += sign * t.coef * axis;
        r.angular += sign * t.coef * JPH::Vec3(anchor - body->GetCenterOfMassPosition()).Cross(axis);
      }
    };
    add(t.child, 1.0f);
    add(t.parent, -1.0f);
  }
  float k = 0.0f;
  for (BodyRow& r : rows_) {
    const JPH::MotionProperties* mp = r.body->GetMotionProperties();
    r.inv_i_angular = mp->MultiplyWorldSpaceInverseInertiaByVector(r.body->GetRotation(), r.angular);
    k += mp->GetInverseMass() * r.linear.LengthSq() + r.angular.Dot(r.inv_i_angular);
  }
  float target;
  soft_.Row(length_now_ - length_, rate_before_, dt, softness_, target);
  bias_ = -target;
  effective_ = k + softness_ > 0.0f ? 1.0f / (k + softness_) : 0.0f;
}

void TendonEqualityConstraint::ArticulatedRow(float dt, double& softness, double& bias) const {
  float s, target;
  soft_.Row(length_now_ - length_, rate_before_, dt, s, target);
  softness = s;
  bias = -target;
}

float TendonEqualityConstraint::Rate() const {
  float rate = 0.0f;
  for (const BodyRow& r : rows_) rate += r.linear.Dot(r.body->GetLinearVelocity()) + r.angular.Dot(r.body->GetAngularVelocity());
  return rate;
}

void TendonEqualityConstraint::Apply(float impulse) {
  for (const BodyRow& r : rows_) {
    JPH::MotionProperties* mp = r.body->GetMotionProperties();
    mp->AddLinearVelocityStep(impulse * mp->GetInverseMass() * r.linear);
    mp->AddAngularVelocityStep(impulse * r.inv_i_angular);
  }
}

void TendonEqualityConstraint::WarmStartVelocityConstraint(float ratio) {
  total_ *= ratio;
  if (total_ != 0.0f) Apply(total_);
}

bool TendonEqualityConstraint::SolveVelocityConstraint(float) {
  // J v + softness total + bias = 0 at convergence (soft_limit.h's row with Jolt's sign of the bias).
  const float delta = -(Rate() + softness_ * total_ + bias_) * effective_;
  if (delta == 0.0f) return false;
  total_ += delta;
  Apply(delta);
  return true;
}

void TendonEqualityConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  stream.Write(total_);
}

void TendonEqualityConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  stream.Read(total_);
}

}  // namespace joltgym
