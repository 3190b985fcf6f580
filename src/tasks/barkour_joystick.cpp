#include "tasks/barkour_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("BarkourJoystick", BarkourJoystickTask, BarkourJoystickParams);

namespace {

constexpr const char* kTask = "BarkourJoystick";
constexpr const char* kFootNames[BarkourJoystickTask::kFeet] = {"foot_front_left", "foot_hind_left", "foot_front_right",
                                                                "foot_hind_right"};
constexpr const char* kRewardNames[BarkourJoystickTask::kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "torques", "action_rate",
    "stand_still", "termination", "feet_air_time"};
// EnvPool's bounds of the targets and the joints (abduction, hip, knee, leg after leg).
constexpr float kLower[3] = {-0.7f, -1.0f, 0.05f};
constexpr float kUpper[3] = {0.52f, 2.1f, 2.1f};
constexpr double kPi = 3.14159265358979323846;

float Square(float x) { return x * x; }

// An integer uniform in [low, high_exclusive), or low when the range is empty (EnvPool's UniformInt).
int UniformInt(Rng& rng, int low, int high_exclusive) {
  if (high_exclusive <= low) return low;
  return low + std::min(int(rng.Unit() * double(high_exclusive - low)), high_exclusive - low - 1);
}

}  // namespace

BarkourJoystickTask::BarkourJoystickTask(const CompiledModel& model, const BarkourJoystickParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params) {
  const ModelDesc& desc = model.desc();
  if (model.nq() != 7 + kJoints || model.nv() != 6 + kJoints || model.nu() != kJoints || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(std::string(kTask) + " needs Barkour's free root and 12 actuated hinges; model '" +
                                desc.name + "' has nq " + std::to_string(model.nq()) + ", nu " + std::to_string(model.nu()));
  home_qpos_ = model.FindKeyframe("home", kTask).qpos;
  for (int i = 0; i < kJoints; ++i) default_pose_[size_t(i)] = home_qpos_[size_t(7 + i)];
  for (const BodyDesc& b : desc.bodies) mass_ += b.mass;
  imu_ = model.FindSite("imu_frame", kTask);
  for (const char* foot : kFootNames) feet_.emplace_back(model, foot, "floor", kTask);

  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  for (int h = 0; h < kHistory; ++h) {
    const std::string frame = "frame" + std::to_string(h) + "_";
    observation_.Add(frame + "yaw_rate", 1);
    observation_.Add(frame + "upvector", 3);
    observation_.Add(frame + "command", 3);
    observation_.Add(frame + "joint_pos", kJoints);
    observation_.Add(frame + "last_act", kJoints);
  }
  command_ = info_.Add("command", true, 3);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

void BarkourJoystickTask::SampleCommand(Rng& rng, double* command) const {
  const float lo[3] = {params_.lin_vel_x_min, params_.lin_vel_y_min, params_.ang_vel_yaw_min};
  const float hi[3] = {params_.lin_vel_x_max, params_.lin_vel_y_max, params_.ang_vel_yaw_max};
  playground::SampleCommand(rng, lo, hi, 0.0, command);  // never zero, as EnvPool's Barkour
}

void BarkourJoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  double* memory = ws.memory.data();
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  SampleCommand(rng, memory + kCommand);
  memory[kKickWait] = UniformInt(rng, params_.kick_wait_steps_min, params_.kick_wait_steps_max);
  memory[kKickDuration] = UniformInt(rng, params_.kick_duration_steps_min, params_.kick_duration_steps_max);
  memory[kKickVelocity] = rng.Uniform(params_.velocity_kick_min, params_.velocity_kick_max);
  memory[kLastKick] = -1.0;
  memory[kFramePending] = 1.0;
}

void BarkourJoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void BarkourJoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  double* memory = ws.memory.data();
  // A kick every kick_wait steps: a half-sine push on the torso lasting kick_duration steps that
  // gives the robot about kick_velocity (MuJoCo's xfrc_applied, EnvPool's MaybeApplyPerturbation).
  const int step = int(memory[kStep]), wait = int(memory[kKickWait]), duration = int(memory[kKickDuration]);
  JPH::Vec3 force = JPH::Vec3::sZero();
  if (wait > 0 && duration > 0) {
    if (step != 0 && step % wait == 0) {
      const double angle = StreamOf(ws).Uniform(0.0f, float(2.0 * kPi));
      memory[kKickDirection] = std::cos(angle);
      memory[kKickDirection + 1] = std::sin(angle);
      memory[kLastKick] = step;
    }
    const double since = double(step) - memory[kLastKick];
    if (memory[kLastKick] >= 0.0 && since < duration) {
      const double f = 0.5 * std::sin(kPi * since / duration) * mass_ * memory[kKickVelocity] / (duration * double(dt()));
      force = JPH::Vec3(float(f * memory[kKickDirection]), float(f * memory[kKickDirection + 1]), 0.0f);
    }
  }
  robot.SetExternalForce(0, force);  // the torso, the tree's root
  for (int i = 0; i < kJoints; ++i)
    ws.ctrl[size_t(i)] =
        std::clamp(default_pose_[size_t(i)] + action[i] * params_.action_scale, kLower[i % 3], kUpper[i % 3]);
  robot.SetControls(ws.ctrl.data());
}

void BarkourJoystickTask::PushFrame(const Robot& robot, TaskWorkspace& ws) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  double* frame = history_.Push(memory);
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu_);
  int n = 0;
  frame[n++] = sensors::Gyro(robot, imu_)[2] * 0.25;
  for (int k = 0; k < 3; ++k) frame[n++] = up[k];
  frame[n++] = memory[kCommand] * 2.0;
  frame[n++] = memory[kCommand + 1] * 2.0;
  frame[n++] = memory[kCommand + 2] * 0.25;
  for (int i = 0; i < kJoints; ++i) frame[n++] = ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) frame[n++] = memory[kLastAction + i];
  playground::ClipAndNoise(rng, frame, kFrame, params_.obs_noise, /*clip_always=*/true);
}

void BarkourJoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  if (ws.memory[kFramePending] > 0.5) {  // the reset's first frame
    ws.memory[kFramePending] = 0.0;
    PushFrame(robot, ws);
  }
  history_.CopyTo(ws.memory.data(), obs);
}

StepOutcome BarkourJoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  PushFrame(robot, ws);  // the observation of the state the step reached, before its bookkeeping
  robot.GetQpos(ws.qpos.data());
  const float h = dt();
  std::array<bool, kFeet> contact{}, first_contact{};
  for (int f = 0; f < kFeet; ++f) {
    contact[size_t(f)] = feet_[size_t(f)].Touching(robot);
    first_contact[size_t(f)] = memory[kAirTime + f] > 0.0 && (contact[size_t(f)] || memory[kLastContact + f] > 0.5);
    memory[kAirTime + f] += h;
  }
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu_);
  bool terminated = up.GetZ() < 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)];
    terminated = terminated || q < kLower[i % 3] || q > kUpper[i % 3];
  }
  terminated = terminated || float((robot.body(0).GetPosition() - robot.origin()).GetZ()) < 0.18f;

  const JPH::Vec3 command{float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu_), gyro = sensors::Gyro(robot, imu_);
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, imu_), global_angvel = sensors::FrameAngVel(robot, imu_);
  float torque_sq = 0.0f, torque_abs = 0.0f, action_rate = 0.0f, stand_still = 0.0f, air_time = 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    const float torque = robot.actuator_forces()[size_t(i)];  // gear 1: qfrc_actuator
    torque_sq += Square(torque);
    torque_abs += std::fabs(torque);
    action_rate += Square(action[i] - float(memory[kLastAction + i]));
  }
  const float command_xy = std::sqrt(Square(command[0]) + Square(command[1]));
  if (command_xy > 0.0f && command[1] / command_xy < 0.1f)
    for (int i = 0; i < kJoints; ++i) stand_still += std::fabs(ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)]);
  for (int f = 0; f < kFeet; ++f)
    if (first_contact[size_t(f)]) air_time += float(memory[kAirTime + f]) - 0.1f;
  if (command_xy <= 0.05f) air_time = 0.0f;
  const float terms[kRewardTerms] = {
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
          params_.tracking_lin_vel_scale,
      std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      Square(global_linvel[2]) * params_.lin_vel_z_scale,
      (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale,
      (Square(up[0]) + Square(up[1])) * params_.orientation_scale,
      (std::sqrt(torque_sq) + torque_abs) * params_.torques_scale,
      action_rate * params_.action_rate_scale,
      stand_still * params_.stand_still_scale,
      (terminated && memory[kStep] < 500.0 ? 1.0f : 0.0f) * params_.termination_scale,
      air_time * params_.feet_air_time_scale,
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }
  std::copy(action, action + kJoints, memory + kLastAction);
  memory[kStep] += 1.0;
  for (int f = 0; f < kFeet; ++f) {
    if (contact[size_t(f)]) memory[kAirTime + f] = 0.0;
    memory[kLastContact + f] = contact[size_t(f)] ? 1.0 : 0.0;
  }
  if (memory[kStep] > 500.0) SampleCommand(rng, memory + kCommand);
  if (terminated || memory[kStep] > 500.0) memory[kStep] = 0.0;
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  return {std::clamp(total * h, 0.0f, 10000.0f), terminated};
}

}  // namespace joltgym
