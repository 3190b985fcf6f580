// Apollo joystick: MuJoCo Playground's Apptronik Apollo humanoid (32 joints) follows a commanded
// forward, sideways and turning velocity with a periodic gait, with EnvPool 1.2.5's conventions
// (ApolloJoystickFlatTerrain-v1): its dict observation, 12 reward terms (summed times ctrl_dt, not
// clipped), Go1's command resampling, pushes and the gait phase resting while the command is zero.
// Each action moves the 32 PD targets by action_scale about the "knees_bent" keyframe's controls.
#pragma once

#include "tasks/geom_contact.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>
#include <vector>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct ApolloJoystickParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.005f;
  float action_scale = 0.5f;
  float noise_level = 1.0f;
  float noise_joint_pos = 0.03f;
  float noise_joint_vel = 1.5f;
  float noise_gravity = 0.05f;
  float noise_linvel = 0.1f;
  float noise_gyro = 0.2f;
  float tracking_scale = 1.0f;
  float lin_vel_z_scale = 0.0f;
  float ang_vel_xy_scale = -0.15f;
  float orientation_scale = -1.0f;
  float torques_scale = 0.0f;
  float action_rate_scale = 0.0f;
  float energy_scale = 0.0f;
  float feet_phase_scale = 1.0f;
  float alive_scale = 0.0f;
  float termination_scale = 0.0f;
  float pose_scale = -1.0f;
  float collision_scale = -1.0f;
  float tracking_sigma = 0.25f;
  float max_foot_height = 0.12f;
  // pushes unless 0 (a number in EnvPool's spec)
  float push_enable = 1.0f;
  float push_interval_min = 5.0f;
  float push_interval_max = 10.0f;
  float push_magnitude_min = 0.1f;
  float push_magnitude_max = 2.0f;
  float command_min0 = -1.5f;
  float command_min1 = -0.8f;
  float command_min2 = -1.5f;
  float command_max0 = 1.5f;
  float command_max1 = 0.8f;
  float command_max2 = 1.5f;
  // Commands: when redrawn, each component kept with probability 1/2, else uniform in [min, max) and
  // nonzero with probability command_zero_prob (EnvPool's name).
  float command_zero_prob0 = 0.9f;
  float command_zero_prob1 = 0.25f;
  float command_zero_prob2 = 0.5f;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("action_scale", action_scale);
    visit("noise_level", noise_level);
    visit("noise_joint_pos", noise_joint_pos);
    visit("noise_joint_vel", noise_joint_vel);
    visit("noise_gravity", noise_gravity);
    visit("noise_linvel", noise_linvel);
    visit("noise_gyro", noise_gyro);
    visit("tracking_scale", tracking_scale);
    visit("lin_vel_z_scale", lin_vel_z_scale);
    visit("ang_vel_xy_scale", ang_vel_xy_scale);
    visit("orientation_scale", orientation_scale);
    visit("torques_scale", torques_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("energy_scale", energy_scale);
    visit("feet_phase_scale", feet_phase_scale);
    visit("alive_scale", alive_scale);
    visit("termination_scale", termination_scale);
    visit("pose_scale", pose_scale);
    visit("collision_scale", collision_scale);
    visit("tracking_sigma", tracking_sigma);
    visit("max_foot_height", max_foot_height);
    visit("push_enable", push_enable);
    visit("push_interval_min", push_interval_min);
    visit("push_interval_max", push_interval_max);
    visit("push_magnitude_min", push_magnitude_min);
    visit("push_magnitude_max", push_magnitude_max);
    visit("command_min0", command_min0);
    visit("command_min1", command_min1);
    visit("command_min2", command_min2);
    visit("command_max0", command_max0);
    visit("command_max1", command_max1);
    visit("command_max2", command_max2);
    visit("command_zero_prob0", command_zero_prob0);
    visit("command_zero_prob1", command_zero_prob1);
    visit("command_zero_prob2", command_zero_prob2);
  }
};

class ApolloJoystickTask final : public Task {
 public:
  static constexpr int kJoints = 32;
  static constexpr int kStateDim = 112;
  static constexpr int kPrivilegedDim = 224;
  static constexpr int kRewardTerms = 12;

  ApolloJoystickTask(const CompiledModel& model, const ApolloJoystickParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kCommand = 0,             // 3
    kStepsUntilNextCommand = 3,
    kPushStep = 4,
    kPushInterval = 5,
    kPhase = 6,               // 2
    kPhaseDt = 8,
    kObservedPhase = 9,       // 2: the phase the step began with
    kLastAction = 11,         // 32
    kObservedAction = 43,     // 32: the action before the last
    kMemorySize = 75,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  int StepsUntilNextCommand(Rng& rng) const;
  void ResampleCommand(Rng& rng, double* command) const;

  ApolloJoystickParams params_;
  std::vector<float> home_qpos_;
  std::array<float, kJoints> default_pose_{}, default_ctrl_{}, torque_limit_{};
  int imu_ = -1;
  std::array<int, 2> foot_sites_{};
  std::vector<GeomContact> collisions_;  // hands on thighs, soles, shins, thighs
  InfoSlot command_, steps_until_next_cmd_;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

}  // namespace joltgym
