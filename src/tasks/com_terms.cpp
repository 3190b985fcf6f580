#include "tasks/com_terms.h"

#include <Jolt/Math/Mat44.h>

#include <algorithm>

namespace joltgym {

JPH::RVec3 RobotCentreOfMass(const Robot& robot) {
  const ModelDesc& desc = robot.model().desc();
  JPH::RVec3 weighted = JPH::RVec3::sZero();
  float mass = 0.0f;
  for (int b = 0; b < robot.num_bodies(); ++b) {
    const float m = desc.bodies[size_t(b)].mass;
    weighted += m * robot.BodyCentreOfMass(b);
    mass += m;
  }
  return weighted / mass;
}

void ComInertia(const Robot& robot, JPH::RVec3Arg centre, float* out) {
  const auto& frames = robot.model().desc().mj_body_frames;
  for (size_t i = 1; i < frames.size(); ++i, out += 10) {
    const BodyFrameDesc& f = frames[i];
    const JPH::RMat44 body = f.body >= 0 ? robot.body(f.body).GetWorldTransform() : JPH::RMat44::sIdentity();
    const JPH::Vec3 ipos(f.ipos[0], f.ipos[1], f.ipos[2]);
    const JPH::RVec3 com = f.body >= 0 ? body * ipos - robot.origin() : JPH::RVec3(ipos);
    const JPH::Vec3 d(com - centre);
    const JPH::Quat iquat(f.iquat[1], f.iquat[2], f.iquat[3], f.iquat[0]);
    const JPH::Mat44 r = JPH::Mat44::sRotation(body.GetQuaternion() * iquat);
    const JPH::Mat44 inertia =
        r * JPH::Mat44::sScale(JPH::Vec3(f.inertia[0], f.inertia[1], f.inertia[2])) * r.Transposed3x3();
    const float m = f.mass;
    // Parallel-axis shift from the body's centre of mass to `centre`.
    out[0] = inertia(0, 0) + m * (d.GetY() * d.GetY() + d.GetZ() * d.GetZ());
    out[1] = inertia(1, 1) + m * (d.GetX() * d.GetX() + d.GetZ() * d.GetZ());
    out[2] = inertia(2, 2) + m * (d.GetX() * d.GetX() + d.GetY() * d.GetY());
    out[3] = inertia(0, 1) - m * d.GetX() * d.GetY();
    out[4] = inertia(0, 2) - m * d.GetX() * d.GetZ();
    out[5] = inertia(1, 2) - m * d.GetY() * d.GetZ();
    out[6] = m * d.GetX();
    out[7] = m * d.GetY();
    out[8] = m * d.GetZ();
    out[9] = m;
  }
}

void ComVelocity(const Robot& robot, JPH::RVec3Arg centre, float* out) {
  const auto& frames = robot.model().desc().mj_body_frames;
  for (size_t i = 1; i < frames.size(); ++i, out += 6) {
    if (frames[i].body < 0) {  // welded to the world
      std::fill(out, out + 6, 0.0f);
      continue;
    }
    const JPH::Body& body = robot.body(frames[i].body);
    const JPH::Vec3 w = body.GetAngularVelocity();
    const JPH::Vec3 v = body.GetLinearVelocity() + w.Cross(JPH::Vec3(centre - robot.BodyCentreOfMass(frames[i].body)));
    w.StoreFloat3(reinterpret_cast<JPH::Float3*>(out));
    v.StoreFloat3(reinterpret_cast<JPH::Float3*>(out + 3));
  }
}

}  // namespace joltgym
