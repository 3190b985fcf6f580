#include "tasks/h1_joystick_gait_tracking.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("H1JoystickGaitTracking", H1JoystickGaitTrackingTask, H1JoystickGaitTrackingParams);
JOLTGYM_REGISTER_TASK("H1InplaceGaitTracking", H1InplaceGaitTrackingTask, H1InplaceGaitTrackingParams);

namespace {

constexpr const char* kRewardNames[H1GaitTrackingTask::kRewardTerms] = {
    "feet_phase", "tracking_lin_vel", "tracking_ang_vel", "feet_air_time", "ang_vel_xy", "lin_vel_z", "pose",
    "foot_slip", "action_rate", "ang_vel", "lin_vel"};
enum Term : int {
  kFeetPhase, kTrackingLinVel, kTrackingAngVel, kFeetAirTime, kAngVelXy, kLinVelZ, kPose, kFootSlip, kActionRate,
  kAngVel, kLinVel,
};
// The joints the pose term holds (all but the hips' pitch and the knees), with their weights.
constexpr int kPoseJoints[15] = {0, 1, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
constexpr float kPoseWeights[15] = {5.0f, 5.0f, 5.0f, 5.0f, 5.0f, 5.0f, 2.0f, 1.0f,
                                    1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};

float Square(float x) { return x * x; }

}  // namespace

H1GaitTrackingTask::H1GaitTrackingTask(const CompiledModel& model, const H1JoystickGaitTrackingParams& params,
                                       bool inplace)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params), inplace_(inplace),
      history_(inplace ? 3 : 1), base_dim_(inplace ? 63 : 66), state_dim_(base_dim_ + 2 * history_ * kJoints + 9) {
  const std::string task = inplace ? "H1InplaceGaitTracking" : "H1JoystickGaitTracking";
  const ModelDesc& desc = model.desc();
  if (model.nq() != 7 + kJoints || model.nv() != 6 + kJoints || model.nu() != kJoints || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(task + " needs H1's free root and 19 actuated hinges (nq 26, nu 19); model '" +
                                desc.name + "' has nq " + std::to_string(model.nq()) + ", nu " + std::to_string(model.nu()));
  if (params.history_len != history_)
    throw std::invalid_argument(task + ": history_len must be " + std::to_string(history_) + " (EnvPool's), got " +
                                std::to_string(params.history_len));
  if (params.gait_count < 1) throw std::invalid_argument(task + ": gait_count must be >= 1");
  home_qpos_ = model.FindKeyframe("home", task).qpos;
  for (int i = 0; i < kJoints; ++i) {
    default_pose_[size_t(i)] = home_qpos_[size_t(7 + i)];
    lower_[size_t(i)] = desc.actuators[size_t(i)].ctrlrange[0];
    upper_[size_t(i)] = desc.actuators[size_t(i)].ctrlrange[1];
  }
  imu_ = model.FindSite("imu", task);
  const char* sides[kFeet] = {"left_foot", "right_foot"};
  for (int f = 0; f < kFeet; ++f) {
    foot_sites_[size_t(f)] = model.FindSite(sides[f], task);
    for (int k = 1; k <= 3; ++k) foot_floor_[size_t(f)].emplace_back(model, sides[f] + std::to_string(k), "floor", task);
  }

  memory_size_ = kObservation + state_dim_;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  observation_.Add("gyro", 3);
  observation_.Add("upvector", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("joint_vel", kJoints);
  observation_.Add("last_act", kJoints);
  if (!inplace) observation_.Add("command", 3);
  observation_.Add("joint_vel_history", history_ * kJoints);
  observation_.Add("joint_error_history", history_ * kJoints);
  observation_.Add("contact", kFeet);
  observation_.Add("phase", 4);
  observation_.Add("gait_frequency", 1);
  observation_.Add("gait", 1);
  observation_.Add("foot_height", 1);
  command_ = info_.Add("command", true, 3);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

void H1GaitTrackingTask::SampleCommand(Rng& rng, double* command) const {
  command[0] = rng.Uniform(params_.lin_vel_x_min, params_.lin_vel_x_max);
  command[1] = rng.Uniform(params_.lin_vel_y_min, params_.lin_vel_y_max);
  command[2] = rng.Uniform(params_.ang_vel_yaw_min, params_.ang_vel_yaw_max);
  for (int k = 0; k < 2; ++k)
    if (std::fabs(command[k]) < params_.lin_vel_threshold) command[k] = 0.0;
  if (std::fabs(command[2]) < params_.ang_vel_threshold) command[2] = 0.0;
}

void H1GaitTrackingTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  std::fill(ws.ctrl.begin(), ws.ctrl.end(), 0.0f);
  double* memory = ws.memory.data();
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  memory[kGaitFrequency] = rng.Uniform(params_.gait_frequency_min, params_.gait_frequency_max);
  memory[kPhaseDt] = 2.0 * playground::kPi * double(dt()) * memory[kGaitFrequency];
  memory[kGait] = std::min(int(std::floor(rng.Uniform(0.0f, float(params_.gait_count)))), params_.gait_count - 1);
  memory[kPhase] = 0.0;
  memory[kPhase + 1] = memory[kGait] == 0.0 ? playground::kPi : 0.0;  // walking, or hopping on both feet
  memory[kFootHeight] = rng.Uniform(params_.foot_height_min, params_.foot_height_max);
  if (!inplace_) SampleCommand(rng, memory + kCommand);
  memory[kObservationPending] = 1.0;
}

void H1GaitTrackingTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void H1GaitTrackingTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  for (int i = 0; i < kJoints; ++i) {
    // In place the targets are home plus the action; the joystick's add the action to the last ones.
    const double base = inplace_ ? double(default_pose_[size_t(i)]) : ws.memory[size_t(kTargets + i)];
    const double target = base + double(action[i]) * params_.action_scale;
    ws.memory[size_t(kTargets + i)] = std::clamp(target, double(lower_[size_t(i)]), double(upper_[size_t(i)]));
    ws.ctrl[size_t(i)] = float(ws.memory[size_t(kTargets + i)]);
  }
  robot.SetControls(ws.ctrl.data());
}

bool H1GaitTrackingTask::Touching(const Robot& robot, int foot) const {
  for (const FloorContact& c : foot_floor_[size_t(foot)])
    if (c.Touching(robot)) return true;
  return false;
}

void H1GaitTrackingTask::UpdateObservation(const Robot& robot, TaskWorkspace& ws,
                                           const std::array<bool, kFeet>& contact) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const float level = params_.obs_noise_level;
  const JPH::Vec3 gyro = sensors::Gyro(robot, imu_), up = sensors::FrameZAxis(robot, imu_);
  double* obs = memory + kObservation;
  int n = 0;
  for (int k = 0; k < 3; ++k) obs[n++] = playground::Noisy(rng, gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) obs[n++] = playground::Noisy(rng, up[k], level, params_.noise_gravity);
  for (int i = 0; i < kJoints; ++i)
    obs[n++] = playground::Noisy(rng, ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)], level, params_.noise_joint_pos);
  for (int i = 0; i < kJoints; ++i) obs[n++] = playground::Noisy(rng, ws.qvel[size_t(6 + i)], level, params_.noise_joint_vel);
  for (int i = 0; i < kJoints; ++i) obs[n++] = memory[kLastAction + i];
  if (!inplace_)
    for (int k = 0; k < 3; ++k) obs[n++] = memory[kCommand + k];
  // The joints' true velocities and errors from their targets, the last `history_` frames each, newest first.
  const playground::FrameHistory velocities{kObservation + n, kJoints, history_};
  const playground::FrameHistory errors{kObservation + n + history_ * kJoints, kJoints, history_};
  double* velocity = velocities.Push(memory);
  double* error = errors.Push(memory);
  for (int i = 0; i < kJoints; ++i) {
    velocity[i] = ws.qvel[size_t(6 + i)];
    error[i] = ws.qpos[size_t(7 + i)] - memory[kTargets + i];
  }
  n += 2 * history_ * kJoints;
  for (int f = 0; f < kFeet; ++f) obs[n++] = contact[size_t(f)] ? 1.0 : 0.0;
  for (int f = 0; f < kFeet; ++f) obs[n++] = std::cos(memory[kPhase + f]);
  for (int f = 0; f < kFeet; ++f) obs[n++] = std::sin(memory[kPhase + f]);
  obs[n++] = memory[kGaitFrequency];
  obs[n++] = memory[kGait];
  obs[n++] = memory[kFootHeight];
}

void H1GaitTrackingTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  if (ws.memory[kObservationPending] > 0.5) {  // the reset's observation
    ws.memory[kObservationPending] = 0.0;
    UpdateObservation(robot, ws, {Touching(robot, 0), Touching(robot, 1)});
  }
  for (int i = 0; i < state_dim_; ++i) obs[i] = float(ws.memory[size_t(kObservation + i)]);
}

float H1GaitTrackingTask::PoseCost(const TaskWorkspace& ws) const {
  float pose = 0.0f;
  for (int k = 0; k < 15; ++k) {
    const int i = kPoseJoints[k];
    pose += Square(ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)]) * kPoseWeights[k];
  }
  return pose;
}

float H1GaitTrackingTask::FeetPhase(const std::array<float, kFeet>& foot_z, const double* memory,
                                    float denominator) const {
  float error = 0.0f;
  for (int f = 0; f < kFeet; ++f)
    error += Square(foot_z[size_t(f)] - playground::FootPhaseTarget(memory[kPhase + f], float(memory[kFootHeight])));
  return std::exp(-error / denominator);
}

StepOutcome H1GaitTrackingTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  const float h = dt();
  std::array<bool, kFeet> contact{}, first_contact{};
  std::array<float, kFeet> foot_z{};
  for (int f = 0; f < kFeet; ++f) {
    contact[size_t(f)] = Touching(robot, f);
    if (!inplace_) {
      first_contact[size_t(f)] = memory[kAirTime + f] > 0.0 && (contact[size_t(f)] || memory[kLastContact + f] > 0.5);
      memory[kAirTime + f] += h;
    }
    foot_z[size_t(f)] = float((robot.SitePosition(foot_sites_[size_t(f)]) - robot.origin()).GetZ());
    memory[kSwingPeak + f] = std::max(memory[kSwingPeak + f], double(foot_z[size_t(f)]));
  }
  UpdateObservation(robot, ws, contact);  // also reads qpos and qvel
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu_);
  bool terminated = params_.early_termination && up.GetZ() < 0.85f;
  for (int i = 0; i < kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)];
    terminated = terminated || q < lower_[size_t(i)] || q > upper_[size_t(i)];
  }

  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, imu_), global_angvel = sensors::FrameAngVel(robot, imu_);
  std::array<float, kRewardTerms> terms{};
  float reward = 0.0f;
  if (inplace_) {
    terms[kFeetPhase] = FeetPhase(foot_z, memory, 0.1f) * params_.feet_phase_scale;
    terms[kAngVel] = global_angvel.LengthSq() * params_.ang_vel_scale;
    terms[kLinVel] = (Square(global_linvel[0]) + Square(global_linvel[1])) * params_.lin_vel_scale;
    terms[kPose] = PoseCost(ws) * params_.pose_scale;
    reward = terms[kFeetPhase] * std::exp(0.2f * (terms[kAngVel] + terms[kLinVel] + terms[kPose])) * h;
  } else {
    const float command[3] = {float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
    const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu_), gyro = sensors::Gyro(robot, imu_);
    float air_time = 0.0f, slip = 0.0f;
    for (int f = 0; f < kFeet; ++f) {
      if (first_contact[size_t(f)]) air_time += float(memory[kAirTime + f]) - 0.1f;
      const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
      if (contact[size_t(f)]) slip += v[0] * v[0] + v[1] * v[1];
    }
    float action_rate = 0.0f;  // EnvPool's: the last two actions' change, and a second difference with this one
    for (int i = 0; i < kJoints; ++i) {
      const float last = float(memory[kLastAction + i]), last_last = float(memory[kLastLastAction + i]);
      action_rate += Square(last - last_last) + Square(last - 2.0f * last_last + action[i]);
    }
    const float sigma = params_.tracking_sigma;
    terms[kFeetPhase] = FeetPhase(foot_z, memory, 0.01f) * params_.feet_phase_scale;
    terms[kTrackingLinVel] =
        std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / sigma) * params_.tracking_lin_vel_scale;
    terms[kTrackingAngVel] = std::exp(-Square(command[2] - gyro[2]) / sigma) * params_.tracking_ang_vel_scale;
    terms[kFeetAirTime] =
        (std::sqrt(Square(command[0]) + Square(command[1])) > 0.05f ? air_time : 0.0f) * params_.feet_air_time_scale;
    terms[kAngVelXy] = (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale;
    terms[kLinVelZ] = (memory[kGait] > 0.0 ? Square(global_linvel[2]) : 0.0f) * params_.lin_vel_z_scale;
    terms[kPose] = PoseCost(ws) * params_.pose_scale;
    terms[kFootSlip] = slip * params_.foot_slip_scale;
    terms[kActionRate] = action_rate * params_.action_rate_scale;
    for (int t = 0; t < kAngVel; ++t) reward += terms[size_t(t)];
    reward = std::max(reward * h, 0.0f);
  }
  for (int t = 0; t < kRewardTerms; ++t) info.Set(reward_slots_[size_t(t)], terms[size_t(t)]);

  for (int i = 0; i < kJoints; ++i) {
    memory[kLastLastAction + i] = memory[kLastAction + i];
    memory[kLastAction + i] = action[i];
  }
  for (int f = 0; f < kFeet; ++f) {
    memory[kPhase + f] = playground::AdvancePhase(memory[kPhase + f], memory[kPhaseDt]);
    if (contact[size_t(f)]) memory[kSwingPeak + f] = memory[kAirTime + f] = 0.0;
    memory[kLastContact + f] = contact[size_t(f)] ? 1.0 : 0.0;
  }
  if (!inplace_) {
    memory[kStep] += 1.0;
    if (memory[kStep] > 500.0) SampleCommand(rng, memory + kCommand);
    if (terminated || memory[kStep] > 500.0) memory[kStep] = 0.0;
  }
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  return {reward, terminated};
}

}  // namespace joltgym
