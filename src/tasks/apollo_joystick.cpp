#include "tasks/apollo_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("ApolloJoystickFlatTerrain", ApolloJoystickTask, ApolloJoystickParams);

namespace {

constexpr const char* kTask = "ApolloJoystick";
constexpr const char* kRewardNames[ApolloJoystickTask::kRewardTerms] = {
    "termination", "alive", "tracking", "lin_vel_z", "ang_vel_xy", "orientation", "feet_phase", "torques",
    "action_rate", "energy", "collision", "pose"};
// Pairs of geoms whose touch the collision term penalises.
constexpr const char* kCollisions[5][2] = {
    {"collision_l_hand_plate", "collision_capsule_body_l_thigh"},
    {"collision_r_hand_plate", "collision_capsule_body_r_thigh"},
    {"collision_l_sole", "collision_r_sole"},
    {"collision_capsule_body_l_shin", "collision_capsule_body_r_shin"},
    {"collision_capsule_body_l_thigh", "collision_capsule_body_r_thigh"},
};
// The pose term's weight of each joint while walking (all 1 under a zero command).
constexpr float kPoseWeights[ApolloJoystickTask::kJoints] = {
    5.0f, 5.0f, 5.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.1f, 1.0f, 1.0f, 1.0f,  1.0f,  1.0f, 1.0f, 0.1f,
    1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.01f, 0.01f, 1.0f, 1.0f, 1.0f, 1.0f, 0.01f, 0.01f, 1.0f, 1.0f};
constexpr int kHipRolls[2] = {21, 27};  // free to swing under a sideways command past 0.3

float Square(float x) { return x * x; }

}  // namespace

ApolloJoystickTask::ApolloJoystickTask(const CompiledModel& model, const ApolloJoystickParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params) {
  const ModelDesc& desc = model.desc();
  if (model.nq() != 7 + kJoints || model.nv() != 6 + kJoints || model.nu() != kJoints || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(std::string(kTask) + " needs Apollo's free root and 32 actuated hinges (nq 39, nu 32); "
                                "model '" + desc.name + "' has nq " + std::to_string(model.nq()) + ", nu " +
                                std::to_string(model.nu()));
  const KeyframeDesc& key = model.FindKeyframe("knees_bent", kTask);
  home_qpos_ = key.qpos;
  for (int i = 0; i < kJoints; ++i) {
    default_pose_[size_t(i)] = home_qpos_[size_t(7 + i)];
    default_ctrl_[size_t(i)] = key.ctrl.empty() ? 0.0f : key.ctrl[size_t(i)];
    const float limit = desc.joints[size_t(i + 1)].actfrcrange[1];
    torque_limit_[size_t(i)] = limit == 0.0f ? 1.0f : limit;
  }
  imu_ = model.FindSite("imu", kTask);
  foot_sites_ = {model.FindSite("l_foot", kTask), model.FindSite("r_foot", kTask)};
  for (const auto& pair : kCollisions) collisions_.emplace_back(model, pair[0], pair[1], kTask);

  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  observation_.Add("linvel", 3);
  observation_.Add("gyro", 3);
  observation_.Add("gravity", 3);
  observation_.Add("command", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("joint_vel", kJoints);
  observation_.Add("last_act", kJoints);
  observation_.Add("phase", 4);
  observation_.Add("privileged_noisy_state", kStateDim);
  observation_.Add("privileged_gyro", 3);
  observation_.Add("privileged_gravity", 3);
  observation_.Add("privileged_linvel", 3);
  observation_.Add("privileged_joint_pos", kJoints);
  observation_.Add("privileged_joint_vel", kJoints);
  observation_.Add("privileged_actuator_force", kJoints);
  observation_.Add("privileged_root_pos", 3);
  observation_.Add("privileged_root_quat", 4);
  observation_.AddKey("state", 0, kStateDim);
  observation_.AddKey("privileged_state", kStateDim, kPrivilegedDim);
  command_ = info_.Add("command", true, 3);
  steps_until_next_cmd_ = info_.Add("steps_until_next_cmd", true);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

int ApolloJoystickTask::StepsUntilNextCommand(Rng& rng) const {
  return int(std::llround(-std::log(1.0 - rng.Unit()) * 5.0 / dt()));
}

void ApolloJoystickTask::ResampleCommand(Rng& rng, double* command) const {
  const float low[3] = {params_.command_min0, params_.command_min1, params_.command_min2};
  const float high[3] = {params_.command_max0, params_.command_max1, params_.command_max2};
  const float nonzero[3] = {params_.command_zero_prob0, params_.command_zero_prob1, params_.command_zero_prob2};
  for (int i = 0; i < 3; ++i) {
    const double y = rng.Uniform(low[i], high[i]);
    const double z = rng.Unit() < nonzero[i] ? 1.0 : 0.0;
    const double w = rng.Unit() < 0.5 ? 1.0 : 0.0;
    command[i] -= w * (command[i] - y * z);
  }
}

void ApolloJoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  playground::ScatterOnFloor(rng, ws.qpos.data());
  for (int i = 0; i < kJoints; ++i) ws.qpos[size_t(7 + i)] *= rng.Uniform(0.5f, 1.5f);
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  for (int i = 0; i < 6; ++i) ws.qvel[size_t(i)] = rng.Uniform(-0.5f, 0.5f);

  double* memory = ws.memory.data();
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  memory[kPhase] = memory[kObservedPhase] = 0.0;
  memory[kPhase + 1] = memory[kObservedPhase + 1] = playground::kPi;
  memory[kPhaseDt] = 2.0 * playground::kPi * double(dt()) * rng.Uniform(1.25f, 1.75f);
  memory[kPushInterval] = double(std::llround(rng.Uniform(params_.push_interval_min, params_.push_interval_max) / dt()));
  memory[kStepsUntilNextCommand] = StepsUntilNextCommand(rng);
  const float low[3] = {params_.command_min0, params_.command_min1, params_.command_min2};
  const float high[3] = {params_.command_max0, params_.command_max1, params_.command_max2};
  for (int i = 0; i < 3; ++i) memory[kCommand + i] = rng.Uniform(low[i], high[i]);
}

void ApolloJoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
  info.Set(steps_until_next_cmd_, ws.memory[kStepsUntilNextCommand]);
}

void ApolloJoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  double* memory = ws.memory.data();
  const int interval = int(memory[kPushInterval]);
  if (params_.push_enable != 0.0f && interval > 0 && (int(memory[kPushStep]) + 1) % interval == 0)
    playground::PushBase(robot, ws, StreamOf(ws), params_.push_magnitude_min, params_.push_magnitude_max);
  memory[kPushStep] += 1.0;
  for (int i = 0; i < kJoints; ++i) ws.ctrl[size_t(i)] = default_ctrl_[size_t(i)] + action[i] * params_.action_scale;
  robot.SetControls(ws.ctrl.data());
}

void ApolloJoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const playground::Imu imu = playground::ReadImu(robot, imu_);
  const double* memory = ws.memory.data();
  const float level = params_.noise_level;
  float* state = obs;
  int n = 0;
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.linvel[k], level, params_.noise_linvel);
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.gravity[k], level, params_.noise_gravity);
  for (int k = 0; k < 3; ++k) state[n++] = float(memory[kCommand + k]);  // after any redraw, as EnvPool's
  for (int i = 0; i < kJoints; ++i)
    state[n++] = playground::Noisy(rng, ws.qpos[size_t(7 + i)], level, params_.noise_joint_pos) - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) state[n++] = playground::Noisy(rng, ws.qvel[size_t(6 + i)], level, params_.noise_joint_vel);
  for (int i = 0; i < kJoints; ++i) state[n++] = float(memory[kObservedAction + i]);
  for (int f = 0; f < 2; ++f) state[n++] = float(std::cos(memory[kObservedPhase + f]));
  for (int f = 0; f < 2; ++f) state[n++] = float(std::sin(memory[kObservedPhase + f]));

  float* p = std::copy(state, state + kStateDim, obs + kStateDim);
  for (const JPH::Vec3& v : {imu.gyro, imu.gravity, imu.linvel})
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qvel[size_t(6 + i)];
  for (int i = 0; i < kJoints; ++i) *p++ = robot.actuator_forces()[size_t(i)];
  for (int k = 0; k < 7; ++k) *p++ = ws.qpos[size_t(k)];
}

StepOutcome ApolloJoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu_);
  const bool terminated = up.GetZ() < 0.0f;
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu_), gyro = sensors::Gyro(robot, imu_);
  const float command[3] = {float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
  const float command_norm = std::sqrt(Square(command[0]) + Square(command[1]) + Square(command[2]));

  float phase_error = 0.0f;
  for (int f = 0; f < 2; ++f) {
    const float z = float((robot.SitePosition(foot_sites_[size_t(f)]) - robot.origin()).GetZ());
    phase_error += Square(z - playground::FootPhaseTarget(memory[kPhase + f], params_.max_foot_height));
  }
  float torques = 0.0f, action_rate = 0.0f, energy = 0.0f, pose = 0.0f;
  const std::vector<float>& force = robot.actuator_forces();
  for (int i = 0; i < kJoints; ++i) {
    torques += std::fabs(force[size_t(i)]);
    action_rate += Square(action[i] - float(memory[kLastAction + i]));
    energy += std::fabs(ws.qvel[size_t(6 + i)] * force[size_t(i)] / torque_limit_[size_t(i)]);
    float weight = command_norm < 0.01f ? 1.0f : kPoseWeights[i];
    if ((i == kHipRolls[0] || i == kHipRolls[1]) && std::fabs(command[1]) > 0.3f) weight = 0.01f;
    pose += Square(ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)]) * weight;
  }
  bool collision = false;
  for (const GeomContact& c : collisions_) collision = collision || c.Touching(robot);
  const float sigma = params_.tracking_sigma;
  const float terms[kRewardTerms] = {
      (terminated ? 1.0f : 0.0f) * params_.termination_scale,
      (terminated ? 0.0f : 1.0f) * params_.alive_scale,
      (std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / sigma) +
       0.5f * std::exp(-Square(command[2] - gyro[2]) / sigma)) * params_.tracking_scale,
      Square(linvel[2]) * params_.lin_vel_z_scale,
      (Square(gyro[0]) + Square(gyro[1])) * params_.ang_vel_xy_scale,
      (Square(up[0]) + Square(up[1])) * params_.orientation_scale,
      std::exp(-phase_error / 0.01f) * params_.feet_phase_scale,
      torques * params_.torques_scale,
      action_rate * params_.action_rate_scale,
      energy * params_.energy_scale,
      (collision ? 1.0f : 0.0f) * params_.collision_scale,
      pose * params_.pose_scale,
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }

  // The next observation shows the phase the step began with and the action before this one.
  std::copy(memory + kPhase, memory + kPhase + 2, memory + kObservedPhase);
  std::copy(memory + kLastAction, memory + kLastAction + kJoints, memory + kObservedAction);
  for (int f = 0; f < 2; ++f)
    memory[kPhase + f] = command_norm > 0.01f ? playground::AdvancePhase(memory[kPhase + f], memory[kPhaseDt]) : playground::kPi;
  memory[kStepsUntilNextCommand] -= 1.0;
  if (memory[kStepsUntilNextCommand] <= 0.0 || terminated) {
    ResampleCommand(rng, memory + kCommand);
    memory[kStepsUntilNextCommand] = StepsUntilNextCommand(rng);
  }
  std::copy(action, action + kJoints, memory + kLastAction);
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  info.Set(steps_until_next_cmd_, memory[kStepsUntilNextCommand]);
  return {total * dt(), terminated};
}

}  // namespace joltgym
