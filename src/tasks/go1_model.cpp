#include "tasks/go1_model.h"

#include <algorithm>

namespace joltgym::go1 {

std::array<float, kJoints> KeyframePose(const CompiledModel& model, const std::string& name, const std::string& task) {
  const KeyframeDesc& key = model.FindKeyframe(name, task);
  std::array<float, kJoints> pose{};
  std::copy(key.qpos.begin() + 7, key.qpos.begin() + 7 + kJoints, pose.begin());
  return pose;
}

float* WriteTrueSensors(const Robot& robot, const playground::Imu& imu, int imu_site, const float* qpos, const float* qvel, float* out) {
  for (const JPH::Vec3& v : {imu.gyro, imu.accelerometer, imu.linvel, imu.global_angvel})
    for (int k = 0; k < 3; ++k) *out++ = v[k];
  for (int i = 0; i < kJoints; ++i) *out++ = qpos[7 + i];
  for (int i = 0; i < kJoints; ++i) *out++ = qvel[6 + i];
  for (int i = 0; i < kJoints; ++i) *out++ = robot.actuator_forces()[size_t(i)];
  *out++ = float(robot.SitePosition(imu_site).GetZ());
  return out;
}

}  // namespace joltgym::go1
