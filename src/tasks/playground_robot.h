// What EnvPool's Playground robot tasks share about their robot: the control step count from
// ctrl_dt and the model's timestep, the check that a quadruped's model carries the task's PD gains,
// Playground's observation noise, the IMU's readings and the reset's scatter on the floor.
#pragma once

#include "physics/model/compiled_model.h"
#include "physics/world/robot.h"
#include "tasks/rng.h"

#include <string>

namespace joltgym::playground {

// ctrl_dt / sim_dt physics steps per env step; std::invalid_argument when the model's timestep is
// not sim_dt or the two are not positive with ctrl_dt >= sim_dt.
int FrameSkip(const CompiledModel& model, float ctrl_dt, float sim_dt);

// A quadruped's free root and 12 position actuators with gain kp on joints 1..12 damped by kd (Go1's,
// Spot's); std::invalid_argument naming `task`, `robot` and what differs otherwise.
void CheckQuadruped(const CompiledModel& model, float kp, float kd, const std::string& task, const std::string& robot);

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

}  // namespace joltgym::playground
