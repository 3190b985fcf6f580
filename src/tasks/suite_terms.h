// What the Control Suite's Physics classes read off MuJoCo's data, from a robot's state: entries of
// a body's xmat and subtree velocities (the subtreelinvel sensor).
#pragma once

#include "model/body_ref.h"
#include "physics/world/robot.h"
#include "tasks/rng.h"
#include "tasks/task.h"
#include "tasks/tolerance.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <string>
#include <vector>

namespace joltgym {

// xmat[row, col] of a MuJoCo body (row, col in 0..2: 'xz' is row 0, column 2): the world
// component `row` of the body frame's axis `col`.
inline float BodyXmat(const Robot& robot, int mj_body, int row, int col) {
  JPH::Vec3 unit = JPH::Vec3::sZero();
  unit.SetComponent(JPH::uint(col), 1.0f);
  return (robot.MjBodyRotation(mj_body) * unit)[JPH::uint(row)];
}

// The MuJoCo bodies of the subtree rooted at `mj_body` (itself included) that have mass.
inline std::vector<int> SubtreeBodies(const ModelDesc& desc, int mj_body) {
  std::vector<int> out;
  const auto& frames = desc.mj_body_frames;
  for (size_t b = 0; b < frames.size(); ++b) {
    int up = int(b);
    while (up > 0 && up != mj_body) up = frames[size_t(up)].parent;
    if (up == mj_body && frames[b].mass > 0.0f) out.push_back(int(b));
  }
  return out;
}

// subtreelinvel: the velocity of the subtree's centre of mass, world axes.
inline JPH::Vec3 SubtreeLinearVelocity(const Robot& robot, const std::vector<int>& subtree) {
  const auto& frames = robot.model().desc().mj_body_frames;
  JPH::Vec3 momentum = JPH::Vec3::sZero();
  float mass = 0.0f;
  for (int b : subtree) {
    momentum += frames[size_t(b)].mass * robot.MjBodyCentreOfMassVelocity(b);
    mass += frames[size_t(b)].mass;
  }
  return mass > 0.0f ? momentum / mass : JPH::Vec3::sZero();
}

// A named geom of a suite model, as the task reads it: where it sits on its simulated body (-1: the
// world) and its geom_size.
struct SuiteGeom {
  int body = -1;
  Vec3f pos{0, 0, 0};
  Vec3f size{0, 0, 0};
  Quatf quat{1, 0, 0, 0};
  int world_geom = -1;  // a world geom's index into ModelDesc::world_geoms
};

inline SuiteGeom FindSuiteGeom(const ModelDesc& desc, const std::string& name, const std::string& task) {
  for (const GeomDesc& g : desc.world_geoms)
    if (g.name == name) return {-1, g.pos, g.size, g.quat, int(&g - desc.world_geoms.data())};
  for (size_t b = 0; b < desc.bodies.size(); ++b)
    for (const GeomDesc& g : desc.bodies[b].geoms)
      if (g.name == name) return {int(b), g.pos, g.size, g.quat};
  throw std::invalid_argument(task + " needs the model's geom '" + name + "'");
}

inline int FindSuiteSite(const ModelDesc& desc, const std::string& name, const std::string& task) {
  for (size_t s = 0; s < desc.sites.size(); ++s)
    if (desc.sites[s].name == name) return int(s);
  throw std::invalid_argument(task + " needs the model's site '" + name + "'");
}

// geom_xpos, relative to the robot's origin.
inline JPH::RVec3 GeomPosition(const Robot& robot, const SuiteGeom& geom) {
  const JPH::Vec3 local(geom.pos[0], geom.pos[1], geom.pos[2]);
  if (geom.body < 0) return JPH::RVec3(local);
  return robot.body(geom.body).GetWorldTransform() * local - robot.origin();
}

// geom_xmat as a rotation: the geom's frame in world axes.
inline JPH::Quat GeomRotation(const Robot& robot, const SuiteGeom& geom) {
  const JPH::Quat local(geom.quat[1], geom.quat[2], geom.quat[3], geom.quat[0]);
  return geom.body < 0 ? local : (robot.body(geom.body).GetRotation() * local).Normalized();
}

// A moving MuJoCo body of a suite model by name, or std::invalid_argument naming the task.
inline int SuiteBody(const CompiledModel& model, const std::string& name, const std::string& task) {
  return FindMovingMjBody(model.desc(), BodyRef{-1, name}, task + "'s body");
}

// dm_control's randomizers.randomize_limited_and_rotational_joints over qpos0: limited hinges and
// slides uniform in their range, other hinges uniform in [-pi, pi], balls a random rotation (limited
// ones within their angle), free joints a random orientation (uniform [0, 1) components, normalised,
// as dm_control draws it) where they stand.
inline void RandomizeLimitedAndRotationalJoints(const CompiledModel& model, Rng& rng, std::vector<float>& qpos) {
  constexpr float kPi = 3.14159265358979f;
  qpos.assign(model.qpos0().begin(), model.qpos0().end());
  for (const CompiledJoint& joint : model.joints()) {
    float* q = qpos.data() + joint.qposadr;
    switch (joint.type) {
      case JointType::Hinge:
        q[0] = joint.limited ? rng.Uniform(joint.range_lo, joint.range_hi) : rng.Uniform(-kPi, kPi);
        break;
      case JointType::Slide:
        if (joint.limited) q[0] = rng.Uniform(joint.range_lo, joint.range_hi);
        break;
      case JointType::Ball: {
        if (joint.limited) {  // random_limited_quaternion: a random axis, an angle in [0, limit]
          JPH::Vec3 axis(rng.Normal(), rng.Normal(), rng.Normal());
          axis = axis.NormalizedOr(JPH::Vec3::sAxisX());
          const float half = 0.5f * rng.Uniform(0.0f, joint.range_hi);
          q[0] = std::cos(half);
          for (int i = 0; i < 3; ++i) q[1 + i] = std::sin(half) * axis[JPH::uint(i)];
        } else {
          float norm = 0.0f;
          for (int i = 0; i < 4; ++i) norm += (q[i] = rng.Normal()) * q[i];
          for (int i = 0; i < 4; ++i) q[i] /= std::sqrt(norm);
        }
        break;
      }
      case JointType::Free: {
        float norm = 0.0f;
        for (int i = 3; i < 7; ++i) norm += (q[i] = float(rng.Unit())) * q[i];
        for (int i = 3; i < 7; ++i) q[i] /= std::sqrt(norm);
        break;
      }
    }
  }
}

// dm_control's physics.position() then physics.velocity(): qpos, then qvel (point mass, ball in cup).
inline void ObservePositionThenVelocity(const Robot& robot, TaskWorkspace& ws, float* obs) {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  obs = std::copy(ws.qpos.begin(), ws.qpos.end(), obs);
  std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
}

// The suite's usual start: random joint angles as above, at rest.
inline void RandomJointAnglesAtRest(const CompiledModel& model, Rng& rng, TaskWorkspace& ws) {
  RandomizeLimitedAndRotationalJoints(model, rng, ws.qpos);
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
}

// dm_control's start for models that must not begin in contact (finger, humanoid): random joint angles at
// rest, redrawn until Robot::ContactsAt finds none; std::runtime_error naming `who` after 1000 draws.
inline void RandomJointAnglesTouchingNothing(const Robot& robot, Rng& rng, TaskWorkspace& ws, const std::string& who) {
  constexpr int kMaxStartAttempts = 1000;
  for (int attempt = 0; attempt < kMaxStartAttempts; ++attempt) {
    RandomizeLimitedAndRotationalJoints(robot.model(), rng, ws.qpos);
    if (robot.ContactsAt(ws.qpos.data()) == 0) {
      std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
      return;
    }
  }
  throw std::runtime_error(who + " found no start touching nothing in 1000 draws");
}

// The mean over the controls, as given, of tolerance(u, margin 1, quadratic, 0): dm_control's small control.
inline double MeanSmallControl(const Robot& robot) {
  double sum = 0.0;
  for (float u : robot.controls()) sum += Tolerance(u, {0.0, 0.0, 1.0, Sigmoid::Quadratic, 0.0});
  return sum / double(robot.controls().size());
}

// The episode's target (ws.memory[0] and [1]), which dm_control moves inside its model, as info at reset.
inline void ReportTarget(InfoRow info, InfoSlot slot, const TaskWorkspace& ws) {
  if (double* target = info.Values(slot)) target[0] = ws.memory[0], target[1] = ws.memory[1];
}

}  // namespace joltgym
