#include "tasks/spot_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("SpotFlatTerrainJoystick", SpotJoystickTask, SpotParams);

namespace {

constexpr const char* kTask = "SpotFlatTerrainJoystick";

float Square(float x) { return x * x; }

}  // namespace

SpotJoystickTask::SpotJoystickTask(const CompiledModel& model, const SpotParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params), parts_(model, params, kTask) {
  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  observation_.Add("gyro", 3);
  observation_.Add("upvector", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("joint_error_history", kHistory * kJoints);
  observation_.Add("feet_pos", 3 * kFeet);
  observation_.Add("last_act", kJoints);
  observation_.Add("command", 3);
  observation_.Add("privileged_noisy_state", kStateDim);
  observation_.Add("privileged_gyro", 3);
  observation_.Add("privileged_accelerometer", 3);
  observation_.Add("privileged_upvector", 3);
  observation_.Add("privileged_linvel", 3);
  observation_.Add("privileged_global_angvel", 3);
  observation_.Add("privileged_joint_pos", kJoints);
  observation_.Add("privileged_feet_pos", 3 * kFeet);
  observation_.Add("privileged_joint_vel", kJoints);
  observation_.Add("privileged_actuator_force", kJoints);
  observation_.Add("privileged_last_contact", kFeet);
  observation_.Add("privileged_feet_vel", 3 * kFeet);
  observation_.Add("privileged_feet_air_time", kFeet);
  observation_.Add("privileged_push", 3);
  observation_.AddKey("state", 0, kStateDim);
  observation_.AddKey("privileged_state", kStateDim, kPrivilegedDim);

  command_ = info_.Add("command", true, 3);
  for (int t = 0; t < kSpotRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kSpotRewardNames[t]);
}

void SpotJoystickTask::SampleCommand(Rng& rng, double* command) const {
  const float lo[3] = {params_.lin_vel_x_min, params_.lin_vel_y_min, params_.ang_vel_yaw_min};
  const float hi[3] = {params_.lin_vel_x_max, params_.lin_vel_y_max, params_.ang_vel_yaw_max};
  playground::SampleCommand(rng, lo, hi, 0.1, command);
}

void SpotJoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(parts_.home_qpos.begin(), parts_.home_qpos.end(), ws.qpos.begin());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  SampleCommand(rng, ws.memory.data() + kCommand);
  ws.memory[kObservationPending] = 1.0;
}

void SpotJoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void SpotJoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  for (int i = 0; i < kJoints; ++i) {
    ws.ctrl[size_t(i)] =
        std::clamp(parts_.default_pose[size_t(i)] + action[i] * params_.action_scale, parts_.lower[size_t(i)], parts_.upper[size_t(i)]);
    ws.memory[size_t(kTargets + i)] = ws.ctrl[size_t(i)];
  }
  robot.SetControls(ws.ctrl.data());
}

void SpotJoystickTask::UpdateObservation(const Robot& robot, TaskWorkspace& ws) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const float level = params_.noise_level;
  std::array<float, kJoints> noisy_q{};
  for (int i = 0; i < kJoints; ++i) noisy_q[size_t(i)] = playground::Noisy(rng, ws.qpos[size_t(7 + i)], level, params_.noise_joint_pos);
  // framepos of each foot's site in the IMU's frame
  const JPH::Quat imu_rotation = robot.SiteRotation(parts_.imu).Conjugated();
  const JPH::RVec3 imu_position = robot.SitePosition(parts_.imu);
  std::array<JPH::Vec3, kFeet> feet_pos{};
  for (int f = 0; f < kFeet; ++f)
    feet_pos[size_t(f)] = imu_rotation * JPH::Vec3(robot.SitePosition(parts_.foot_sites[size_t(f)]) - imu_position);
  const playground::FrameHistory history{kErrorHistory, kJoints, kHistory};
  double* errors = history.Push(memory);
  for (int i = 0; i < kJoints; ++i) errors[i] = noisy_q[size_t(i)] - memory[kTargets + i];

  const JPH::Vec3 gyro = sensors::Gyro(robot, parts_.imu), up = sensors::FrameZAxis(robot, parts_.imu);
  double* state = memory + kObservation;
  int n = 0;
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, up[k], level, params_.noise_gravity);
  for (int i = 0; i < kJoints; ++i) state[n++] = noisy_q[size_t(i)] - parts_.default_pose[size_t(i)];
  for (int i = 0; i < kHistory * kJoints; ++i) state[n++] = memory[kErrorHistory + i];
  const float feet_noise[3] = {params_.noise_feet_pos_x, params_.noise_feet_pos_y, params_.noise_feet_pos_z};
  for (int f = 0; f < kFeet; ++f)
    for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, feet_pos[size_t(f)][k], level, feet_noise[k]);
  for (int i = 0; i < kJoints; ++i) state[n++] = memory[kLastAction + i];
  for (int k = 0; k < 3; ++k) state[n++] = memory[kCommand + k];

  double* p = std::copy(state, state + kStateDim, state + kStateDim);
  const JPH::Vec3 accelerometer = sensors::Accelerometer(robot, parts_.imu), linvel = sensors::Velocimeter(robot, parts_.imu);
  for (const JPH::Vec3& v : {gyro, accelerometer, up, linvel, sensors::FrameAngVel(robot, parts_.imu)})
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qpos[size_t(7 + i)] - parts_.default_pose[size_t(i)];
  for (const JPH::Vec3& v : feet_pos)
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qvel[size_t(6 + i)];
  for (int i = 0; i < kJoints; ++i) *p++ = robot.actuator_forces()[size_t(i)];
  for (int f = 0; f < kFeet; ++f) *p++ = memory[kLastContact + f];
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, parts_.foot_sites[size_t(f)]);
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  }
  for (int f = 0; f < kFeet; ++f) *p++ = memory[kAirTime + f];
  for (int k = 0; k < 3; ++k) *p++ = 0.0;  // the torso's xfrc_applied: EnvPool's Spot pushes nothing
}

void SpotJoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  if (ws.memory[kObservationPending] > 0.5) {  // the reset's observation
    ws.memory[kObservationPending] = 0.0;
    UpdateObservation(robot, ws);
  }
  for (int i = 0; i < kStateDim + kPrivilegedDim; ++i) obs[i] = float(ws.memory[size_t(kObservation + i)]);
}

StepOutcome SpotJoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  const float h = dt();
  std::array<bool, kFeet> contact{}, first_contact{};
  std::array<float, kFeet> foot_z{};
  for (int f = 0; f < kFeet; ++f) {
    contact[size_t(f)] = parts_.Touching(robot, f);
    first_contact[size_t(f)] = memory[kAirTime + f] > 0.0 && (contact[size_t(f)] || memory[kLastContact + f] > 0.5);
    memory[kAirTime + f] += h;
    foot_z[size_t(f)] = float((robot.SitePosition(parts_.foot_sites[size_t(f)]) - robot.origin()).GetZ());
    memory[kSwingPeak + f] = std::max(memory[kSwingPeak + f], double(foot_z[size_t(f)]));
  }
  UpdateObservation(robot, ws);  // the state the step reached, before its bookkeeping (also reads qpos, qvel)
  const JPH::Vec3 up = sensors::FrameZAxis(robot, parts_.imu);
  const bool terminated = params_.early_termination && up.GetZ() < 0.85f;

  const float command[3] = {float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
  const float command_norm = std::sqrt(Square(command[0]) + Square(command[1]) + Square(command[2]));
  const bool moving = command_norm >= 0.01f;
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, parts_.imu), gyro = sensors::Gyro(robot, parts_.imu);
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, parts_.imu), global_angvel = sensors::FrameAngVel(robot, parts_.imu);
  float posture = 0.0f, torque_l2 = 0.0f, torque_l1 = 0.0f, energy = 0.0f, action_rate = 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    posture += Square(ws.qpos[size_t(7 + i)] - parts_.default_pose[size_t(i)]);
    const float torque = robot.actuator_forces()[size_t(i)];
    torque_l2 += torque * torque;
    torque_l1 += std::fabs(torque);
    energy += std::fabs(ws.qvel[size_t(6 + i)]) * std::fabs(torque);
    const float last = float(memory[kLastAction + i]), last_last = float(memory[kLastLastAction + i]);
    action_rate += Square(action[i] - last) + Square(action[i] - 2.0f * last + last_last);
  }
  float slip = 0.0f, clearance = 0.0f, height = 0.0f, air_time = 0.0f;
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, parts_.foot_sites[size_t(f)]);
    const float speed_sq = v[0] * v[0] + v[1] * v[1];
    if (contact[size_t(f)]) slip += speed_sq;
    clearance += std::fabs(foot_z[size_t(f)] - params_.max_foot_height) * std::sqrt(std::sqrt(speed_sq));
    if (first_contact[size_t(f)]) {
      height += Square(float(memory[kSwingPeak + f]) / params_.max_foot_height - 1.0f);
      air_time += float(memory[kAirTime + f]) - 0.1f;
    }
  }
  std::array<float, kSpotRewardTerms> terms{};
  terms[kSpotTrackingLinVel] =
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
      params_.tracking_lin_vel_scale;
  terms[kSpotTrackingAngVel] = std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale;
  terms[kSpotLinVelZ] = Square(global_linvel[2]) * params_.lin_vel_z_scale;
  terms[kSpotAngVelXy] = (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale;
  terms[kSpotOrientation] = (Square(up[0]) + Square(up[1])) * params_.orientation_scale;
  terms[kSpotTermination] = (terminated ? 1.0f : 0.0f) * params_.termination_scale;
  terms[kSpotPosture] = std::exp((moving ? 0.0f : -10.0f) * posture) * params_.posture_scale;
  terms[kSpotTorques] = (std::sqrt(torque_l2) + torque_l1) * params_.torques_scale;
  terms[kSpotActionRate] = action_rate * params_.action_rate_scale;
  terms[kSpotEnergy] = energy * params_.energy_scale;
  terms[kSpotFeetSlip] = slip * params_.feet_slip_scale;
  terms[kSpotFeetClearance] = clearance * params_.feet_clearance_scale;
  terms[kSpotFeetHeight] = (moving ? height : 0.0f) * params_.feet_height_scale;
  terms[kSpotFeetAirTime] = (moving ? air_time : 0.0f) * params_.feet_air_time_scale;
  float total = 0.0f;
  for (int t = 0; t < kSpotRewardTerms; ++t) {
    total += terms[size_t(t)];
    info.Set(reward_slots_[size_t(t)], terms[size_t(t)]);
  }

  for (int i = 0; i < kJoints; ++i) {
    memory[kLastLastAction + i] = memory[kLastAction + i];
    memory[kLastAction + i] = action[i];
  }
  memory[kStep] += 1.0;
  if (memory[kStep] > 200.0) SampleCommand(rng, memory + kCommand);
  if (terminated || memory[kStep] > 200.0) memory[kStep] = 0.0;
  for (int f = 0; f < kFeet; ++f) {
    if (contact[size_t(f)]) memory[kAirTime + f] = memory[kSwingPeak + f] = 0.0;
    memory[kLastContact + f] = contact[size_t(f)] ? 1.0 : 0.0;
  }
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  return {std::clamp(total * h, 0.0f, 10000.0f), terminated};
}

}  // namespace joltgym
