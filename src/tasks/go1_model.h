// What the Go1 tasks of EnvPool's Playground ports share: the checks that the model is Go1 as
// the task set it up (its timestep and PD gains come from the task's config), the PD control step
// count, and the IMU readings their observations start with.
#pragma once

#include "physics/model/compiled_model.h"
#include "physics/world/robot.h"
#include "tasks/rng.h"

#include <array>
#include <string>

namespace joltgym::go1 {

constexpr int kJoints = 12;

// ctrl_dt / sim_dt physics steps per env step; std::invalid_argument when the model's timestep is
// not sim_dt or the two are not positive with ctrl_dt >= sim_dt.
int FrameSkip(const CompiledModel& model, float ctrl_dt, float sim_dt);
// A quadruped's free root and 12 position actuators with gain kp on joints 1..12 damped by kd (Go1's,
// Spot's); std::invalid_argument naming `task`, `robot` and what differs otherwise.
void CheckModel(const CompiledModel& model, float kp, float kd, const std::string& task, const std::string& robot = "Go1");
// The joints' positions in keyframe `name`.
std::array<float, kJoints> KeyframePose(const CompiledModel& model, const std::string& name, const std::string& task);

// value + U(-1, 1) x level x scale, Playground's observation noise.
inline float Noisy(Rng& rng, float value, float level, float scale) {
  return value + float(rng.Unit() * 2.0 - 1.0) * level * scale;
}

// The IMU's readings: velocimeter, gyro, gravity in its frame, accelerometer, world angular velocity.
struct Imu {
  JPH::Vec3 linvel, gyro, gravity, accelerometer, global_angvel;
};
Imu ReadImu(const Robot& robot, int imu_site);

// Playground's reset scatter of a free root (qpos in MuJoCo's layout): moved by U(-0.5, 0.5) in x
// and y, then turned by U(-3.14, 3.14) about z.
void ScatterOnFloor(Rng& rng, float* qpos);

// What the handstand's and the get-up's privileged state append after the noisy state: gyro,
// accelerometer, local linear velocity, world angular velocity, the 12 joints' positions, velocities
// and actuator forces, the IMU's height. Returns the end of what it wrote.
float* WriteTrueSensors(const Robot& robot, const Imu& imu, int imu_site, const float* qpos, const float* qvel, float* out);

}  // namespace joltgym::go1
