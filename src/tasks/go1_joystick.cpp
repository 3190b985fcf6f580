#include "tasks/go1_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/go1_model.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Go1JoystickFlatTerrain", Go1JoystickTask, Go1JoystickParams);
JOLTGYM_REGISTER_TASK("Go1JoystickRoughTerrain", Go1JoystickTask, Go1JoystickParams);  // on a height field

namespace {

constexpr const char* kFeetNames[Go1JoystickTask::kFeet] = {"FR", "FL", "RR", "RL"};
constexpr const char* kTask = "Go1Joystick";
// The reward terms in EnvPool's order, reported as info["reward_<term>"].
constexpr const char* kRewardNames[Go1JoystickTask::kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "dof_pos_limits",
    "pose", "termination", "stand_still", "torques", "action_rate", "energy", "feet_clearance",
    "feet_height", "feet_slip", "feet_air_time"};

std::array<FloorContact, Go1JoystickTask::kFeet> MakeFootContacts(const CompiledModel& model) {
  const std::string what = kTask;
  return {FloorContact(model, kFeetNames[0], "floor", what), FloorContact(model, kFeetNames[1], "floor", what),
          FloorContact(model, kFeetNames[2], "floor", what), FloorContact(model, kFeetNames[3], "floor", what)};
}

float Square(float x) { return x * x; }

JPH::Vec3 Load3(const double* v) { return JPH::Vec3(float(v[0]), float(v[1]), float(v[2])); }

}  // namespace

Go1JoystickTask::Go1JoystickTask(const CompiledModel& model, const Go1JoystickParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params), foot_contacts_(MakeFootContacts(model)) {
  const ModelDesc& desc = model.desc();
  go1::CheckModel(model, params.kp, params.kd, kTask);
  const KeyframeDesc& home = model.FindKeyframe("home", kTask);
  std::copy(home.qpos.begin(), home.qpos.end(), home_qpos_.begin());
  for (int i = 0; i < kJoints; ++i) {
    default_pose_[size_t(i)] = home.qpos[size_t(7 + i)];
    const JointDesc& joint = desc.joints[size_t(i + 1)];
    soft_lower_[size_t(i)] = joint.range[0] * params.soft_joint_pos_limit_factor;
    soft_upper_[size_t(i)] = joint.range[1] * params.soft_joint_pos_limit_factor;
  }
  imu_ = model.FindSite("imu", kTask);
  for (int f = 0; f < kFeet; ++f) foot_sites_[size_t(f)] = model.FindSite(kFeetNames[f], kTask);

  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});

  observation_.Add("linvel", 3);
  observation_.Add("gyro", 3);
  observation_.Add("gravity", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("joint_vel", kJoints);
  observation_.Add("last_act", kJoints);
  observation_.Add("command", 3);
  observation_.Add("privileged_noisy_state", kStateDim);
  observation_.Add("privileged_gyro", 3);
  observation_.Add("privileged_accelerometer", 3);
  observation_.Add("privileged_gravity", 3);
  observation_.Add("privileged_linvel", 3);
  observation_.Add("privileged_global_angvel", 3);
  observation_.Add("privileged_joint_pos", kJoints);
  observation_.Add("privileged_joint_vel", kJoints);
  observation_.Add("privileged_actuator_force", kJoints);
  observation_.Add("privileged_last_contact", kFeet);
  observation_.Add("privileged_feet_vel", 3 * kFeet);
  observation_.Add("privileged_feet_air_time", kFeet);
  observation_.Add("privileged_push", 4);
  observation_.AddKey("state", 0, kStateDim);
  observation_.AddKey("privileged_state", kStateDim, kPrivilegedDim);

  command_ = info_.Add("command", true, 3);
  steps_until_next_cmd_ = info_.Add("steps_until_next_cmd", true);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

int Go1JoystickTask::StepsUntilNextCommand(Rng& rng) const {
  const double exponential = -std::log(1.0 - rng.Unit());
  return int(std::llround(exponential * 5.0 / dt()));
}

void Go1JoystickTask::ResampleCommand(Rng& rng, double* command) const {
  const float a[3] = {params_.command_a0, params_.command_a1, params_.command_a2};
  const float b[3] = {params_.command_b0, params_.command_b1, params_.command_b2};
  for (int i = 0; i < 3; ++i) {
    const double y = (rng.Unit() * 2.0 - 1.0) * a[i];
    const double z = rng.Unit() < b[i] ? 1.0 : 0.0;
    const double w = rng.Unit() < 0.5 ? 1.0 : 0.0;
    command[i] -= w * (command[i] - y * z);
  }
}

float Go1JoystickTask::Noisy(Rng& rng, float value, float scale) const {
  return playground::Noisy(rng, value, params_.noise_level, scale);
}

void Go1JoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  playground::ScatterOnFloor(rng, ws.qpos.data());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  for (int i = 0; i < 6; ++i) ws.qvel[size_t(i)] = rng.Uniform(-0.5f, 0.5f);

  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  ws.memory[kStepsUntilNextCommand] = StepsUntilNextCommand(rng);
  const float a[3] = {params_.command_a0, params_.command_a1, params_.command_a2};
  for (int i = 0; i < 3; ++i) ws.memory[size_t(kCommand + i)] = (rng.Unit() * 2.0 - 1.0) * a[i];
}

void Go1JoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
  info.Set(steps_until_next_cmd_, ws.memory[kStepsUntilNextCommand]);
}

void Go1JoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  for (int i = 0; i < kJoints; ++i) ws.ctrl[size_t(i)] = default_pose_[size_t(i)] + action[i] * params_.action_scale;
  robot.SetControls(ws.ctrl.data());
}

void Go1JoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const playground::Imu imu = playground::ReadImu(robot, imu_);
  const JPH::Vec3 &gyro = imu.gyro, &linvel = imu.linvel, &gravity = imu.gravity;
  const JPH::Vec3 &accelerometer = imu.accelerometer, &global_angvel = imu.global_angvel;
  const double* memory = ws.memory.data();

  float* state = obs;
  int n = 0;
  for (int k = 0; k < 3; ++k) state[n++] = Noisy(rng, linvel[k], params_.noise_linvel);
  for (int k = 0; k < 3; ++k) state[n++] = Noisy(rng, gyro[k], params_.noise_gyro);
  for (int k = 0; k < 3; ++k) state[n++] = Noisy(rng, gravity[k], params_.noise_gravity);
  for (int i = 0; i < kJoints; ++i)
    state[n++] = Noisy(rng, ws.qpos[size_t(7 + i)], params_.noise_joint_pos) - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) state[n++] = Noisy(rng, ws.qvel[size_t(6 + i)], params_.noise_joint_vel);
  for (int i = 0; i < kJoints; ++i) state[n++] = float(memory[kObservedAction + i]);
  for (int i = 0; i < 3; ++i) state[n++] = float(memory[kCommand + i]);

  float* p = std::copy(state, state + kStateDim, obs + kStateDim);
  for (const JPH::Vec3& v : {gyro, accelerometer, gravity, linvel, global_angvel})
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qvel[size_t(6 + i)];
  for (int i = 0; i < kJoints; ++i) *p++ = robot.actuator_forces()[size_t(i)];
  for (int f = 0; f < kFeet; ++f) *p++ = float(memory[kObservedContact + f]);
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  }
  for (int f = 0; f < kFeet; ++f) *p++ = float(memory[kObservedAirTime + f]);
  for (int k = 0; k < 4; ++k) *p++ = 0.0f;  // EnvPool's Go1 pushes nothing: its xfrc_applied and a zero
}

StepOutcome Go1JoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const float h = dt();

  std::array<bool, kFeet> contact{}, first_contact{};
  std::array<float, kFeet> foot_z{};
  for (int f = 0; f < kFeet; ++f) {
    contact[size_t(f)] = foot_contacts_[size_t(f)].Touching(robot);
    const bool filtered = contact[size_t(f)] || memory[kLastContact + f] > 0.5;
    first_contact[size_t(f)] = memory[kAirTime + f] > 0.0 && filtered;
    memory[kAirTime + f] += h;
    foot_z[size_t(f)] = float(robot.SitePosition(foot_sites_[size_t(f)]).GetZ());
    memory[kSwingPeak + f] = std::max(memory[kSwingPeak + f], double(foot_z[size_t(f)]));
  }
  const bool terminated = sensors::FrameZAxis(robot, imu_).GetZ() < 0.0f;

  const JPH::Vec3 command = Load3(memory + kCommand);
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu_);
  const JPH::Vec3 gyro = sensors::Gyro(robot, imu_);
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, imu_);
  const JPH::Vec3 global_angvel = sensors::FrameAngVel(robot, imu_);
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu_);
  const float lin_error = Square(command[0] - linvel[0]) + Square(command[1] - linvel[1]);
  const float ang_error = Square(command[2] - gyro[2]);
  const bool moving = command.Length() >= 0.01f;

  float pose_error = 0.0f, stand_still = 0.0f, limit = 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)];
    const float delta = q - default_pose_[size_t(i)];
    pose_error += delta * delta * (i % 3 == 2 ? 0.1f : 1.0f);
    stand_still += std::fabs(delta);
    limit += -std::min(q - soft_lower_[size_t(i)], 0.0f) + std::max(q - soft_upper_[size_t(i)], 0.0f);
  }
  float torque_l2 = 0.0f, torque_l1 = 0.0f, energy = 0.0f, action_rate = 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    const float torque = robot.actuator_forces()[size_t(i)];
    torque_l2 += torque * torque;
    torque_l1 += std::fabs(torque);
    energy += std::fabs(ws.qvel[size_t(6 + i)]) * std::fabs(torque);
    action_rate += Square(action[i] - float(memory[kLastAction + i]));
  }
  float slip = 0.0f, clearance = 0.0f, height = 0.0f, air_time = 0.0f;
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    const float speed_xy_sq = v[0] * v[0] + v[1] * v[1];
    if (contact[size_t(f)] && moving) slip += speed_xy_sq;
    clearance += std::fabs(foot_z[size_t(f)] - params_.max_foot_height) * std::sqrt(std::sqrt(speed_xy_sq));
    if (first_contact[size_t(f)] && moving) {
      height += Square(float(memory[kSwingPeak + f]) / params_.max_foot_height - 1.0f);
      air_time += float(memory[kAirTime + f]) - 0.1f;
    }
  }

  const float terms[kRewardTerms] = {
      std::exp(-lin_error / params_.tracking_sigma) * params_.tracking_lin_vel_scale,
      std::exp(-ang_error / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      Square(global_linvel[2]) * params_.lin_vel_z_scale,
      (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale,
      (Square(up[0]) + Square(up[1])) * params_.orientation_scale,
      limit * params_.dof_pos_limits_scale,
      std::exp(-pose_error) * params_.pose_scale,
      (terminated ? 1.0f : 0.0f) * params_.termination_scale,
      (moving ? 0.0f : stand_still) * params_.stand_still_scale,
      (std::sqrt(torque_l2) + torque_l1) * params_.torques_scale,
      action_rate * params_.action_rate_scale,
      energy * params_.energy_scale,
      clearance * params_.feet_clearance_scale,
      height * params_.feet_height_scale,
      slip * params_.feet_slip_scale,
      air_time * params_.feet_air_time_scale,
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }
  const float reward = std::clamp(total * h, 0.0f, 10000.0f);

  memory[kStepsUntilNextCommand] -= 1.0;
  if (memory[kStepsUntilNextCommand] <= 0.0 || terminated) {
    ResampleCommand(rng, memory + kCommand);
    memory[kStepsUntilNextCommand] = StepsUntilNextCommand(rng);
  }
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  info.Set(steps_until_next_cmd_, memory[kStepsUntilNextCommand]);

  // The next observation shows the state before this step's bookkeeping, as EnvPool's does:
  // the previous action, and air times not yet cleared by this step's touchdowns.
  for (int i = 0; i < kJoints; ++i) {
    memory[kObservedAction + i] = memory[kLastAction + i];
    memory[kLastAction + i] = action[i];
  }
  for (int f = 0; f < kFeet; ++f) {
    memory[kObservedAirTime + f] = memory[kAirTime + f];
    memory[kObservedContact + f] = memory[kLastContact + f];
    memory[kLastContact + f] = contact[size_t(f)] ? 1.0 : 0.0;
    if (contact[size_t(f)]) memory[kAirTime + f] = memory[kSwingPeak + f] = 0.0;
  }
  return {reward, terminated};
}

}  // namespace joltgym
