// What the Go1 tasks of EnvPool's Playground ports share beyond every robot's (playground_robot.h):
// the check that the model is Go1 as the task set it up, its keyframes' joint poses and the true
// sensors its handstand's and get-up's privileged states append.
#pragma once

#include "tasks/playground_robot.h"

#include <array>
#include <string>

namespace joltgym::go1 {

constexpr int kJoints = 12;

// Go1's free root and 12 position actuators with gain kp damped by kd (playground::CheckQuadruped).
inline void CheckModel(const CompiledModel& model, float kp, float kd, const std::string& task) {
  playground::CheckQuadruped(model, kp, kd, task, "Go1");
}
// The joints' positions in keyframe `name`.
std::array<float, kJoints> KeyframePose(const CompiledModel& model, const std::string& name, const std::string& task);

// What the handstand's and the get-up's privileged state append after the noisy state: gyro,
// accelerometer, local linear velocity, world angular velocity, the 12 joints' positions, velocities
// and actuator forces, the IMU's height. Returns the end of what it wrote.
float* WriteTrueSensors(const Robot& robot, const playground::Imu& imu, int imu_site, const float* qpos, const float* qvel,
                        float* out);

}  // namespace joltgym::go1
