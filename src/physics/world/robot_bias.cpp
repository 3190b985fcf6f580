// Each body's bias acceleration (bias_acceleration.h): MuJoCo's recursion over the tree
// (mj_comVel's cdof_dot = cvel x cdof, summed with qvel), on the bodies' Jolt velocities.
#include "physics/world/robot.h"

namespace joltgym {

void Robot::ComputeBiasAccelerations() {
  const CompiledModel& m = *model_;
  const JPH::RVec3 origin = bodies_[0]->GetCenterOfMassPosition();  // reference point: keeps floats small
  const auto relative = [&](JPH::RVec3Arg p) { return JPH::Vec3(p - origin); };
  for (size_t i = 0; i < m.bodies().size(); ++i) {
    const CompiledBody& cb = m.bodies()[i];
    const JPH::Body& b = *bodies_[i];
    const JPH::Vec3 w = b.GetAngularVelocity();
    const JPH::Vec3 com = relative(b.GetCenterOfMassPosition());
    const Motion actual{w, b.GetLinearVelocity() + w.Cross(-com)};
    Motion v = cb.parent >= 0 ? body_motion_[size_t(cb.parent)] : Motion{};
    Motion bias = cb.parent >= 0 ? body_bias_[size_t(cb.parent)] : Motion{};
    // A scalar joint's motion, applied in MuJoCo's order: its rate rides on what the
    // joints before it (the parent's, then this body's earlier ones) already move.
    const auto apply = [&](const Motion& unit_times_rate) {
      bias = bias + CrossMotion(v, unit_times_rate);
      v = v + unit_times_rate;
    };
    for (int j : cb.joints) {
      const CompiledJoint& joint = m.joints()[size_t(j)];
      switch (joint.type) {
        case JointType::Hinge: {
          const JPH::Vec3 anchor = relative(b.GetWorldTransform() * AnchorOnBody(joint));
          if (joint.gimbal_slot >= 0) {
            const GimbalCoordinates& g = gimbal_[i];
            const int k = joint.gimbal_slot;
            const JPH::Vec3 turn = g.axes[k] * g.rate_rows[k].Dot(RelativeAngularVelocity(joint));
            apply({turn, anchor.Cross(turn)});
          } else {
            apply(HingeMotion(b.GetRotation() * joint.axis_local, anchor) * JointRateThisUpdate(j));
          }
          break;
        }
        case JointType::Slide: {
          apply(SlideMotion(SlideAxis(joint)) * JointRateThisUpdate(j));
          break;
        }
        case JointType::Free: {
          // Translation first (its rates ride on nothing), then the rotation on it;
          // MuJoCo takes a ball's three rates on the same velocity, so no cross terms.
          const Motion translation = SlideMotion(PointVelocity(int(i), b.GetPosition()));
          bias = bias + CrossMotion(v + translation, actual - v - translation);
          v = actual;
          break;
        }
        case JointType::Ball:
          bias = bias + CrossMotion(v, actual - v);
          v = actual;
          break;
      }
    }
    body_motion_[i] = actual;  // children ride on the body's own velocity, not the sum's rounding
    body_bias_[i] = bias;
    // For a point at r from the centre: bias_linear(at point) + w x v_point - w x (w x r).
    bias_accel_[i].angular = bias.angular;
    bias_accel_[i].at_com = bias.linear + bias.angular.Cross(com) + w.Cross(b.GetLinearVelocity());
  }
}

}  // namespace joltgym
