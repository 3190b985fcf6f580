#include "tasks/spot_getup.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("SpotGetup", SpotGetupTask, SpotGetupParams);

namespace {

constexpr const char* kTask = "SpotGetup";

float Square(float x) { return x * x; }

}  // namespace

SpotGetupTask::SpotGetupTask(const CompiledModel& model, const SpotGetupParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params), parts_(model, params, kTask) {
  if (!(params.settle_time >= 0.0f)) throw std::invalid_argument("settle_time must be >= 0");
  desired_height_ = parts_.home_qpos[2];
  memory_size_ = kMemorySize;
  settle_steps_ = int(std::lround(params.settle_time / params.sim_dt));  // EnvPool rounds
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  observation_.Add("gyro", 3);
  observation_.Add("upvector", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("last_act", kJoints);
  for (int t = 0; t < kSpotRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kSpotRewardNames[t]);
}

void SpotGetupTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  if (rng.Unit() < params_.drop_from_height_prob) {  // dropped from 1 m in a random orientation and pose
    std::fill(ws.qpos.begin(), ws.qpos.end(), 0.0f);
    ws.qpos[2] = 1.0f;
    float quat[4];
    for (float& c : quat) c = rng.Normal();
    const float norm = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]) + 1e-6f;
    for (int k = 0; k < 4; ++k) ws.qpos[size_t(3 + k)] = quat[k] / norm;
    for (int i = 0; i < kJoints; ++i) ws.qpos[size_t(7 + i)] = rng.Uniform(parts_.lower[size_t(i)], parts_.upper[size_t(i)]);
  } else {
    std::copy(parts_.home_qpos.begin(), parts_.home_qpos.end(), ws.qpos.begin());
  }
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  // It settles (Task::settle_steps) holding these targets: the pose it starts in.
  for (int i = 0; i < kJoints; ++i) ws.ctrl[size_t(i)] = ws.qpos[size_t(7 + i)];
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
}

void SpotGetupTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  robot.GetQpos(ws.qpos.data());
  for (int i = 0; i < kJoints; ++i)
    ws.ctrl[size_t(i)] = std::clamp(ws.qpos[size_t(7 + i)] + action[i] * params_.action_scale, parts_.lower[size_t(i)],
                                    parts_.upper[size_t(i)]);
  robot.SetControls(ws.ctrl.data());
}

void SpotGetupTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  const float level = params_.noise_level;
  const JPH::Vec3 gyro = sensors::Gyro(robot, parts_.imu), up = sensors::FrameZAxis(robot, parts_.imu);
  int n = 0;
  for (int k = 0; k < 3; ++k) obs[n++] = playground::Noisy(rng, gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) obs[n++] = playground::Noisy(rng, up[k], level, params_.noise_gravity);
  for (int i = 0; i < kJoints; ++i)
    obs[n++] = playground::Noisy(rng, ws.qpos[size_t(7 + i)] - parts_.default_pose[size_t(i)], level, params_.noise_joint_pos);
  for (int i = 0; i < kJoints; ++i) obs[n++] = float(ws.memory[size_t(kObservedAction + i)]);
}

StepOutcome SpotGetupTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  const JPH::Vec3 up = sensors::FrameZAxis(robot, parts_.imu);
  const float orientation_error = Square(up.GetX()) + Square(up.GetY()) + Square(1.0f - up.GetZ());
  const bool upright = orientation_error < 0.01f;
  const float height_error = std::clamp((desired_height_ - ws.qpos[2]) / desired_height_, 0.0f, 1.0f);
  const bool at_height = height_error < 0.005f;
  bool terminated = false;
  float posture = 0.0f, still = 0.0f, action_rate = 0.0f, torque_l2 = 0.0f, torque_l1 = 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)], torque = robot.actuator_forces()[size_t(i)];
    terminated = terminated || q < parts_.lower[size_t(i)] || q > parts_.upper[size_t(i)];
    posture += Square(q - parts_.default_pose[size_t(i)]);
    still += Square(action[i]);
    const float last = float(memory[kLastAction + i]), last_last = float(memory[kLastLastAction + i]);
    action_rate += Square(action[i] - last) + Square(action[i] - 2.0f * last + last_last);
    torque_l2 += torque * torque;
    torque_l1 += std::fabs(torque);
  }
  std::array<float, kSpotRewardTerms> terms{};
  terms[kSpotOrientation] = std::exp(-2.0f * orientation_error) * params_.orientation_scale;
  terms[kSpotTorsoHeight] = (1.0f - height_error) * params_.torso_height_scale;
  terms[kSpotPosture] = (upright && at_height ? std::exp(-0.5f * posture) : 0.0f) * params_.posture_scale;
  terms[kSpotStandStill] = (upright && at_height ? std::exp(-0.5f * still) : 0.0f) * params_.stand_still_scale;
  terms[kSpotActionRate] = action_rate * params_.action_rate_scale;
  terms[kSpotTorques] = (std::sqrt(torque_l2) + torque_l1) * params_.torques_scale;
  float total = 0.0f;
  for (int t = 0; t < kSpotRewardTerms; ++t) {
    total += terms[size_t(t)];
    info.Set(reward_slots_[size_t(t)], terms[size_t(t)]);
  }
  for (int i = 0; i < kJoints; ++i) {  // the next observation shows the previous action, as EnvPool's
    memory[kObservedAction + i] = memory[kLastAction + i];
    memory[kLastLastAction + i] = memory[kLastAction + i];
    memory[kLastAction + i] = action[i];
  }
  return {std::clamp(total * dt(), 0.0f, 10000.0f), terminated};
}

}  // namespace joltgym
