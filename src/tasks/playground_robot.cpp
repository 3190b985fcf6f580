#include "tasks/playground_robot.h"

#include "physics/world/sensors.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace joltgym::playground {

namespace {

constexpr int kQuadrupedJoints = 12;

}  // namespace

int FrameSkip(const CompiledModel& model, float ctrl_dt, float sim_dt) {
  if (!(sim_dt > 0.0f) || !(ctrl_dt >= sim_dt))
    throw std::invalid_argument("ctrl_dt and sim_dt must be positive with ctrl_dt >= sim_dt, got " +
                                std::to_string(ctrl_dt) + " and " + std::to_string(sim_dt));
  if (std::fabs(model.timestep() - sim_dt) > 1e-6f * sim_dt + 1e-9f)
    throw std::invalid_argument("sim_dt " + std::to_string(sim_dt) + " differs from the model's timestep " +
                                std::to_string(model.timestep()));
  return int(std::lround(ctrl_dt / sim_dt));
}

void CheckQuadruped(const CompiledModel& model, float kp, float kd, const std::string& task, const std::string& robot) {
  const ModelDesc& desc = model.desc();
  if (model.nq() != 19 || model.nv() != 18 || model.nu() != kQuadrupedJoints || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(task + " needs " + robot + "'s free root and 12 actuated hinges (nq 19, nv 18, nu 12); model '" +
                                desc.name + "' has nq " + std::to_string(model.nq()) + ", nv " +
                                std::to_string(model.nv()) + ", nu " + std::to_string(model.nu()));
  for (int i = 0; i < kQuadrupedJoints; ++i) {
    const CompiledActuator& a = model.actuators()[size_t(i)];
    if (a.joint != i + 1 || !a.affine || std::fabs(a.gain - kp) > 1e-4f * kp || std::fabs(a.bias_length + kp) > 1e-4f * kp)
      throw std::invalid_argument("actuator '" + desc.actuators[size_t(i)].name + "' must be a position actuator of joint " +
                                  std::to_string(i + 1) + " with kp " + std::to_string(kp) +
                                  " (joltgym.tasks sets kp on the model)");
    if (std::fabs(desc.joints[size_t(i + 1)].damping - kd) > 1e-4f * std::max(kd, 1.0f))
      throw std::invalid_argument("joint '" + desc.joints[size_t(i + 1)].name + "' damping " +
                                  std::to_string(desc.joints[size_t(i + 1)].damping) + " differs from kd " +
                                  std::to_string(kd) + " (joltgym.tasks sets kd on the model)");
  }
}

Imu ReadImu(const Robot& robot, int imu_site) {
  return {sensors::Velocimeter(robot, imu_site), sensors::Gyro(robot, imu_site),
          robot.SiteRotation(imu_site).Conjugated() * -JPH::Vec3::sAxisZ(), sensors::Accelerometer(robot, imu_site),
          sensors::FrameAngVel(robot, imu_site)};
}

void ScatterOnFloor(Rng& rng, float* qpos) {
  qpos[0] += rng.Uniform(-0.5f, 0.5f);
  qpos[1] += rng.Uniform(-0.5f, 0.5f);
  const float yaw = rng.Uniform(-3.14f, 3.14f);
  const JPH::Quat turned = JPH::Quat(qpos[4], qpos[5], qpos[6], qpos[3]) * JPH::Quat::sRotation(JPH::Vec3::sAxisZ(), yaw);
  qpos[3] = turned.GetW(), qpos[4] = turned.GetX(), qpos[5] = turned.GetY(), qpos[6] = turned.GetZ();
}

}  // namespace joltgym::playground
