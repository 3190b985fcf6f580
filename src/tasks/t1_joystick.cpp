#include "tasks/t1_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace joltgym {

JOLTGYM_REGISTER_TASK("T1JoystickFlatTerrain", T1JoystickTask, T1JoystickParams);
JOLTGYM_REGISTER_TASK("T1JoystickRoughTerrain", T1JoystickTask, T1JoystickParams);  // on a height field

namespace {

constexpr const char* kTask = "T1Joystick";
constexpr int kRewardTerms = 25;
constexpr const char* kRewardNames[kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "base_height", "torques",
    "action_rate", "energy", "dof_acc", "dof_vel", "feet_clearance", "feet_air_time", "feet_slip", "feet_height",
    "feet_phase", "stand_still", "alive", "termination", "collision", "joint_deviation_knee", "joint_deviation_hip",
    "dof_pos_limits", "pose", "feet_distance"};
// The pose term's weight of each joint (head, arms, waist, legs): knees and hip pitch nearly free.
constexpr float kPoseWeights[T1JoystickTask::kJoints] = {1.0f, 1.0f, 0.1f,  1.0f, 1.0f, 1.0f,  0.1f, 1.0f,
                                                         1.0f, 1.0f, 1.0f,  0.01f, 1.0f, 1.0f, 0.01f, 1.0f,
                                                         1.0f, 0.01f, 1.0f, 1.0f, 0.01f, 1.0f, 1.0f};

float Square(float x) { return x * x; }

HumanoidJoystickSetup Setup() {
  HumanoidJoystickSetup setup;
  setup.task = kTask;
  setup.robot = "T1";
  setup.joints = T1JoystickTask::kJoints;
  setup.foot_sites = {"left_foot", "right_foot"};
  for (int k = 1; k <= 4; ++k) {
    setup.foot_geoms[0].push_back("left_foot_" + std::to_string(k));
    setup.foot_geoms[1].push_back("right_foot_" + std::to_string(k));
  }
  setup.gait_hz_max = 1.75f;
  setup.pose_weights.assign(std::begin(kPoseWeights), std::end(kPoseWeights));
  setup.phase_rests_without_command = true;
  return setup;
}

}  // namespace

T1JoystickTask::T1JoystickTask(const CompiledModel& model, const T1JoystickParams& params)
    : HumanoidJoystickTask(model, Setup(), HumanoidJoystickCommon::Of(params),
                           std::vector<float>(kJoints, params.noise_joint_pos),
                           std::vector<const char*>(std::begin(kRewardNames), std::end(kRewardNames))),
      params_(params) {
  auto joint = [&](const char* name) { return playground::ActuatedJointIndex(model.desc(), name, kTask); };
  hips_ = {joint("Left_Hip_Roll"), joint("Left_Hip_Yaw"), joint("Right_Hip_Roll"), joint("Right_Hip_Yaw")};
  knees_ = {joint("Left_Knee_Pitch"), joint("Right_Knee_Pitch")};
  feet_touching_ = std::make_unique<GeomContact>(model, "left_foot", "right_foot", kTask);
}

void T1JoystickTask::Terms(const Robot& robot, const TaskWorkspace& ws, const StepState& step,
                           float* terms) const {
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu()), gyro = sensors::Gyro(robot, imu());
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, imu()), up = sensors::FrameZAxis(robot, imu());
  const JPH::Vec3& command = step.command;
  const float command_norm = command.Length();
  float dof_vel = 0.0f;
  for (int i = 0; i < kJoints; ++i) dof_vel += Square(ws.qvel[size_t(6 + i)]);
  float hip_deviation = 0.0f, knee_deviation = 0.0f;
  if (std::fabs(command[1]) > 0.1f)
    for (int k : hips_) hip_deviation += std::fabs(ws.qpos[size_t(7 + k)] - default_pose(k));
  for (int k : knees_) knee_deviation += std::fabs(ws.qpos[size_t(7 + k)] - default_pose(k));
  // How far apart the feet stand across the body's heading; under 0.2 m costs up to 0.1.
  const JPH::Vec3 heading = robot.SiteRotation(imu()) * JPH::Vec3::sAxisX();
  const float yaw = std::atan2(heading.GetY(), heading.GetX());
  const JPH::Vec3 apart = JPH::Vec3(robot.SitePosition(foot_site(0)) - robot.SitePosition(foot_site(1)));
  const float feet_distance = std::fabs(std::cos(yaw) * apart.GetY() - std::sin(yaw) * apart.GetX());

  const float values[kRewardTerms] = {
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
          params_.tracking_lin_vel_scale,
      std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      Square(linvel[2]) * params_.lin_vel_z_scale,
      (Square(gyro[0]) + Square(gyro[1])) * params_.ang_vel_xy_scale,
      (Square(up[0]) + Square(up[1])) * params_.orientation_scale,
      Square(ws.qpos[2] - params_.base_height_target) * params_.base_height_scale,
      step.torques * params_.torques_scale,
      step.action_rate * params_.action_rate_scale,
      step.energy * params_.energy_scale,
      step.dof_acc * params_.dof_acc_scale,
      dof_vel * params_.dof_vel_scale,
      step.clearance * params_.feet_clearance_scale,
      (command_norm > 0.1f ? step.air_time : 0.0f) * params_.feet_air_time_scale,
      std::sqrt(Square(global_linvel[0]) + Square(global_linvel[1])) * float(step.contacts) * params_.feet_slip_scale,
      step.feet_height * params_.feet_height_scale,
      std::exp(-step.phase_error / 0.01f) * params_.feet_phase_scale,
      (command_norm < 0.1f ? step.deviation : 0.0f) * params_.stand_still_scale,
      params_.alive_scale,
      (step.terminated ? 1.0f : 0.0f) * params_.termination_scale,
      (feet_touching_->Touching(robot) ? 1.0f : 0.0f) * params_.collision_scale,
      knee_deviation * params_.joint_deviation_knee_scale,
      hip_deviation * params_.joint_deviation_hip_scale,
      step.limits * params_.dof_pos_limits_scale,
      step.pose * params_.pose_scale,
      std::clamp(0.2f - feet_distance, 0.0f, 0.1f) * params_.feet_distance_scale,
  };
  std::copy(values, values + kRewardTerms, terms);
}

}  // namespace joltgym
