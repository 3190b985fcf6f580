#include "tasks/spot_gait.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("SpotJoystickGaitTracking", SpotGaitTask, SpotGaitParams);

namespace {

constexpr const char* kTask = "SpotJoystickGaitTracking";
constexpr double kPi = playground::kPi;
// Each gait's starting phase of the feet (FL, FR, HL, HR): trot, walk, pace, bound, pronk.
constexpr double kGaitPhases[SpotGaitTask::kGaits][SpotGaitTask::kFeet] = {
    {0.0, kPi, kPi, 0.0}, {0.0, 0.5 * kPi, kPi, 1.5 * kPi}, {0.0, kPi, 0.0, kPi}, {0.0, 0.0, kPi, kPi},
    {0.0, 0.0, 0.0, 0.0}};

float Square(float x) { return x * x; }

}  // namespace

SpotGaitTask::SpotGaitTask(const CompiledModel& model, const SpotGaitParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params), parts_(model, params, kTask) {
  if (params.gait_count < 1 || params.gait_count > kGaits)
    throw std::invalid_argument(std::string(kTask) + ": gait_count must be 1-5 (trot, walk, pace, bound, pronk), got " +
                                std::to_string(params.gait_count));
  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  observation_.Add("gyro", 3);
  observation_.Add("upvector", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("joint_error_history", kHistory * kJoints);
  observation_.Add("contact", kFeet);
  observation_.Add("phase", 2 * kFeet);
  observation_.Add("gait_frequency", 1);
  observation_.Add("gait", 1);
  observation_.Add("foot_height", 1);
  command_ = info_.Add("command", true, 3);
  for (int t = 0; t < kSpotRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kSpotRewardNames[t]);
}

void SpotGaitTask::SampleCommand(Rng& rng, double* command) const {
  const float lo[3] = {params_.lin_vel_x_min, params_.lin_vel_y_min, params_.ang_vel_yaw_min};
  const float hi[3] = {params_.lin_vel_x_max, params_.lin_vel_y_max, params_.ang_vel_yaw_max};
  playground::SampleCommand(rng, lo, hi, 0.1, command);
}

void SpotGaitTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(parts_.home_qpos.begin(), parts_.home_qpos.end(), ws.qpos.begin());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  double* memory = ws.memory.data();
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  SampleCommand(rng, memory + kCommand);
  memory[kGaitFrequency] = rng.Uniform(params_.gait_frequency_min, params_.gait_frequency_max);
  memory[kPhaseDt] = 2.0 * kPi * double(dt()) * memory[kGaitFrequency];
  const int gait = std::min(int(std::floor(rng.Uniform(0.0f, float(params_.gait_count)))), params_.gait_count - 1);
  memory[kGait] = gait;
  for (int f = 0; f < kFeet; ++f) memory[kPhase + f] = kGaitPhases[gait][f];
  memory[kFootHeight] = rng.Uniform(params_.foot_height_min, params_.foot_height_max);
  memory[kObservationPending] = 1.0;
}

void SpotGaitTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void SpotGaitTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  for (int i = 0; i < kJoints; ++i) {
    ws.ctrl[size_t(i)] =
        std::clamp(parts_.default_pose[size_t(i)] + action[i] * params_.action_scale, parts_.lower[size_t(i)], parts_.upper[size_t(i)]);
    ws.memory[size_t(kTargets + i)] = ws.ctrl[size_t(i)];
  }
  robot.SetControls(ws.ctrl.data());
}

void SpotGaitTask::UpdateObservation(const Robot& robot, TaskWorkspace& ws, const std::array<bool, kFeet>& contact) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  const float level = params_.noise_level;
  std::array<float, kJoints> noisy_q{};
  for (int i = 0; i < kJoints; ++i) noisy_q[size_t(i)] = playground::Noisy(rng, ws.qpos[size_t(7 + i)], level, params_.noise_joint_pos);
  const playground::FrameHistory history{kErrorHistory, kJoints, kHistory};
  double* errors = history.Push(memory);
  for (int i = 0; i < kJoints; ++i) errors[i] = noisy_q[size_t(i)] - memory[kTargets + i];
  const JPH::Vec3 gyro = sensors::Gyro(robot, parts_.imu), up = sensors::FrameZAxis(robot, parts_.imu);
  double* obs = memory + kObservation;
  int n = 0;
  for (int k = 0; k < 3; ++k) obs[n++] = playground::Noisy(rng, gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) obs[n++] = playground::Noisy(rng, up[k], level, params_.noise_gravity);
  for (int i = 0; i < kJoints; ++i) obs[n++] = noisy_q[size_t(i)];  // the joints themselves, as EnvPool's
  for (int i = 0; i < kHistory * kJoints; ++i) obs[n++] = memory[kErrorHistory + i];
  for (int f = 0; f < kFeet; ++f) obs[n++] = contact[size_t(f)] ? 1.0 : 0.0;
  for (int f = 0; f < kFeet; ++f) obs[n++] = std::cos(memory[kPhase + f]);
  for (int f = 0; f < kFeet; ++f) obs[n++] = std::sin(memory[kPhase + f]);
  obs[n++] = memory[kGaitFrequency];
  obs[n++] = memory[kGait];
  obs[n++] = memory[kFootHeight];
}

void SpotGaitTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  if (ws.memory[kObservationPending] > 0.5) {  // the reset's observation
    ws.memory[kObservationPending] = 0.0;
    std::array<bool, kFeet> contact{};
    for (int f = 0; f < kFeet; ++f) contact[size_t(f)] = parts_.Touching(robot, f);
    UpdateObservation(robot, ws, contact);
  }
  for (int i = 0; i < kStateDim; ++i) obs[i] = float(ws.memory[size_t(kObservation + i)]);
}

StepOutcome SpotGaitTask::Score(Robot& robot, const float* /*action*/, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  std::array<bool, kFeet> contact{};
  std::array<float, kFeet> foot_z{};
  for (int f = 0; f < kFeet; ++f) {
    contact[size_t(f)] = parts_.Touching(robot, f);
    foot_z[size_t(f)] = float((robot.SitePosition(parts_.foot_sites[size_t(f)]) - robot.origin()).GetZ());
  }
  UpdateObservation(robot, ws, contact);  // also reads qpos
  const JPH::Vec3 up = sensors::FrameZAxis(robot, parts_.imu);
  const bool terminated = params_.early_termination && up.GetZ() < 0.85f;

  const float command[3] = {float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, parts_.imu), gyro = sensors::Gyro(robot, parts_.imu);
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, parts_.imu), global_angvel = sensors::FrameAngVel(robot, parts_.imu);
  float phase_error = 0.0f;
  for (int f = 0; f < kFeet; ++f)
    phase_error += Square(foot_z[size_t(f)] - playground::FootPhaseTarget(memory[kPhase + f], float(memory[kFootHeight])));
  float hip_splay = 0.0f;  // the four abduction joints away from home
  for (int i = 0; i < kJoints; i += 3) hip_splay += Square(ws.qpos[size_t(7 + i)] - parts_.default_pose[size_t(i)]);
  const float sigma = params_.tracking_sigma;
  std::array<float, kSpotRewardTerms> terms{};
  terms[kSpotTrackingLinVel] =
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / sigma) * params_.tracking_lin_vel_scale;
  terms[kSpotTrackingAngVel] = std::exp(-Square(command[2] - gyro[2]) / sigma) * params_.tracking_ang_vel_scale;
  terms[kSpotFeetPhase] = std::exp(-phase_error / 0.1f) * params_.feet_phase_scale;
  terms[kSpotLinVelZ] = (memory[kGait] > 2.0 ? Square(global_linvel[2]) : 0.0f) * params_.lin_vel_z_scale;
  terms[kSpotAngVelXy] = (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale;
  terms[kSpotHipSplay] = hip_splay * params_.hip_splay_scale;
  for (int t = 0; t < kSpotRewardTerms; ++t) info.Set(reward_slots_[size_t(t)], terms[size_t(t)]);
  const float gains = terms[kSpotTrackingLinVel] + terms[kSpotTrackingAngVel] + terms[kSpotFeetPhase];
  const float costs = terms[kSpotAngVelXy] + terms[kSpotLinVelZ] + terms[kSpotHipSplay];
  const float reward = gains * std::exp(0.2f * costs) * dt();

  for (int f = 0; f < kFeet; ++f) memory[kPhase + f] = playground::AdvancePhase(memory[kPhase + f], memory[kPhaseDt]);
  memory[kStep] += 1.0;
  if (memory[kStep] > 200.0) SampleCommand(rng, memory + kCommand);
  if (terminated || memory[kStep] > 200.0) memory[kStep] = 0.0;
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  return {reward, terminated};
}

}  // namespace joltgym
