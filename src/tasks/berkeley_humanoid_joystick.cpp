#include "tasks/berkeley_humanoid_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("BerkeleyHumanoidJoystickFlatTerrain", BerkeleyHumanoidJoystickTask, BerkeleyHumanoidJoystickParams);
JOLTGYM_REGISTER_TASK("BerkeleyHumanoidJoystickRoughTerrain", BerkeleyHumanoidJoystickTask,
                      BerkeleyHumanoidJoystickParams);  // on a height field

namespace {

constexpr const char* kTask = "BerkeleyHumanoidJoystick";
constexpr int kRewardTerms = 21;
constexpr const char* kRewardNames[kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "base_height", "torques",
    "action_rate", "energy", "feet_clearance", "feet_air_time", "feet_slip", "feet_height", "feet_phase",
    "stand_still", "alive", "termination", "joint_deviation_knee", "joint_deviation_hip", "dof_pos_limits", "pose"};
// The pose term's weight of each joint of a leg (roll, abduction, hip and knee flexion, foot flexion
// and abduction): hip and knee flexion, which walking needs, nearly free.
constexpr float kPoseWeights[6] = {1.0f, 1.0f, 0.01f, 0.01f, 1.0f, 1.0f};

float Square(float x) { return x * x; }

HumanoidJoystickSetup Setup() {
  HumanoidJoystickSetup setup;
  setup.task = kTask;
  setup.robot = "the Berkeley Humanoid";
  setup.joints = BerkeleyHumanoidJoystickTask::kJoints;
  setup.foot_sites = {"l_foot", "r_foot"};
  setup.foot_geoms = {std::vector<std::string>{"l_foot1"}, std::vector<std::string>{"r_foot1"}};
  for (int i = 0; i < BerkeleyHumanoidJoystickTask::kJoints; ++i) setup.pose_weights.push_back(kPoseWeights[i % 6]);
  return setup;
}

std::vector<float> JointNoise(const BerkeleyHumanoidJoystickParams& p) {
  const float leg[6] = {p.noise_hip_pos, p.noise_hip_pos, p.noise_hip_pos, p.noise_kfe_pos, p.noise_ffe_pos, p.noise_faa_pos};
  std::vector<float> noise;
  for (int i = 0; i < BerkeleyHumanoidJoystickTask::kJoints; ++i) noise.push_back(leg[i % 6]);
  return noise;
}

}  // namespace

BerkeleyHumanoidJoystickTask::BerkeleyHumanoidJoystickTask(const CompiledModel& model,
                                                           const BerkeleyHumanoidJoystickParams& params)
    : HumanoidJoystickTask(model, Setup(), HumanoidJoystickCommon::Of(params), JointNoise(params),
                           std::vector<const char*>(std::begin(kRewardNames), std::end(kRewardNames))),
      params_(params) {
  auto joint = [&](const char* name) { return playground::ActuatedJointIndex(model.desc(), name, kTask); };
  hips_ = {joint("LL_HR"), joint("LL_HAA"), joint("LR_HR"), joint("LR_HAA")};
  knees_ = {joint("LL_KFE"), joint("LR_KFE")};
}

void BerkeleyHumanoidJoystickTask::Terms(const Robot& robot, const TaskWorkspace& ws, const StepState& step,
                                         float* terms) const {
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu()), gyro = sensors::Gyro(robot, imu());
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, imu()), global_angvel = sensors::FrameAngVel(robot, imu());
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu());
  const JPH::Vec3& command = step.command;
  const float command_norm = command.Length();
  float hip_deviation = 0.0f, knee_deviation = 0.0f;
  if (std::fabs(command[1]) > 0.1f)
    for (int k : hips_) hip_deviation += std::fabs(ws.qpos[size_t(7 + k)] - default_pose(k));
  for (int k : knees_) knee_deviation += std::fabs(ws.qpos[size_t(7 + k)] - default_pose(k));

  const float values[kRewardTerms] = {
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
          params_.tracking_lin_vel_scale,
      std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      Square(global_linvel[2]) * params_.lin_vel_z_scale,
      (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale,
      (Square(up[0]) + Square(up[1])) * params_.orientation_scale,
      Square(ws.qpos[2] - params_.base_height_target) * params_.base_height_scale,
      step.torques * params_.torques_scale,
      step.action_rate * params_.action_rate_scale,
      step.energy * params_.energy_scale,
      step.clearance * params_.feet_clearance_scale,
      (command_norm > 0.1f ? step.air_time : 0.0f) * params_.feet_air_time_scale,
      std::sqrt(Square(global_linvel[0]) + Square(global_linvel[1])) * float(step.contacts) * params_.feet_slip_scale,
      step.feet_height * params_.feet_height_scale,
      std::exp(-step.phase_error / 0.01f) * params_.feet_phase_scale,
      (command_norm < 0.1f ? step.deviation : 0.0f) * params_.stand_still_scale,
      params_.alive_scale,
      (step.terminated ? 1.0f : 0.0f) * params_.termination_scale,
      knee_deviation * params_.joint_deviation_knee_scale,
      hip_deviation * params_.joint_deviation_hip_scale,
      step.limits * params_.dof_pos_limits_scale,
      step.pose * params_.pose_scale,
  };
  std::copy(values, values + kRewardTerms, terms);
}

}  // namespace joltgym
