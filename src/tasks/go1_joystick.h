// Go1 joystick: MuJoCo Playground's Unitree Go1 follows a commanded forward, sideways and
// turning velocity on flat or rough ground (a height field), with EnvPool 1.2.5's conventions
// (Go1JoystickFlatTerrain-v1, Go1JoystickRoughTerrain-v1): its dict
// observation (a noisy "state" for the policy, a "privileged_state" for the critic), its
// reward terms and scales, its command resampling and its reset. The action moves the PD
// targets of the 12 position actuators about the home pose.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct Go1JoystickParams {
  float ctrl_dt = 0.02f;  // seconds per env step
  float sim_dt = 0.004f;  // the model's timestep (joltgym.tasks sets it on the model)
  float kp = 35.0f;       // the actuators' position gain and the joints' damping (set on the model)
  float kd = 0.5f;
  float action_scale = 0.5f;
  float soft_joint_pos_limit_factor = 0.95f;
  float noise_level = 1.0f;
  float noise_joint_pos = 0.03f;
  float noise_joint_vel = 1.5f;
  float noise_gyro = 0.2f;
  float noise_gravity = 0.05f;
  float noise_linvel = 0.1f;
  float tracking_lin_vel_scale = 1.0f;
  float tracking_ang_vel_scale = 0.5f;
  float lin_vel_z_scale = -0.5f;
  float ang_vel_xy_scale = -0.05f;
  float orientation_scale = -5.0f;
  float dof_pos_limits_scale = -1.0f;
  float pose_scale = 0.5f;
  float termination_scale = -1.0f;
  float stand_still_scale = -1.0f;
  float torques_scale = -0.0002f;
  float action_rate_scale = -0.01f;
  float energy_scale = -0.001f;
  float feet_clearance_scale = -2.0f;
  float feet_height_scale = -0.2f;
  float feet_slip_scale = -0.1f;
  float feet_air_time_scale = 0.1f;
  float tracking_sigma = 0.25f;
  float max_foot_height = 0.1f;
  // Commands: each component uniform in [-a, a]; when resampled, kept with probability 1/2,
  // else redrawn and zeroed with probability 1 - b.
  float command_a0 = 1.5f;
  float command_a1 = 0.8f;
  float command_a2 = 1.2f;
  float command_b0 = 0.9f;
  float command_b1 = 0.25f;
  float command_b2 = 0.5f;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("kp", kp);
    visit("kd", kd);
    visit("action_scale", action_scale);
    visit("soft_joint_pos_limit_factor", soft_joint_pos_limit_factor);
    visit("noise_level", noise_level);
    visit("noise_joint_pos", noise_joint_pos);
    visit("noise_joint_vel", noise_joint_vel);
    visit("noise_gyro", noise_gyro);
    visit("noise_gravity", noise_gravity);
    visit("noise_linvel", noise_linvel);
    visit("tracking_lin_vel_scale", tracking_lin_vel_scale);
    visit("tracking_ang_vel_scale", tracking_ang_vel_scale);
    visit("lin_vel_z_scale", lin_vel_z_scale);
    visit("ang_vel_xy_scale", ang_vel_xy_scale);
    visit("orientation_scale", orientation_scale);
    visit("dof_pos_limits_scale", dof_pos_limits_scale);
    visit("pose_scale", pose_scale);
    visit("termination_scale", termination_scale);
    visit("stand_still_scale", stand_still_scale);
    visit("torques_scale", torques_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("energy_scale", energy_scale);
    visit("feet_clearance_scale", feet_clearance_scale);
    visit("feet_height_scale", feet_height_scale);
    visit("feet_slip_scale", feet_slip_scale);
    visit("feet_air_time_scale", feet_air_time_scale);
    visit("tracking_sigma", tracking_sigma);
    visit("max_foot_height", max_foot_height);
    visit("command_a0", command_a0);
    visit("command_a1", command_a1);
    visit("command_a2", command_a2);
    visit("command_b0", command_b0);
    visit("command_b1", command_b1);
    visit("command_b2", command_b2);
  }
};

class Go1JoystickTask final : public Task {
 public:
  static constexpr int kJoints = 12;
  static constexpr int kFeet = 4;
  static constexpr int kStateDim = 48;
  static constexpr int kPrivilegedDim = 123;
  static constexpr int kRewardTerms = 16;

  Go1JoystickTask(const CompiledModel& model, const Go1JoystickParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  // Where each piece of the episode's memory sits in TaskWorkspace::memory.
  enum Memory : int {
    kCommand = 0,                          // 3
    kStepsUntilNextCommand = 3,            // 1
    kLastAction = 4,                       // 12: the previous action (action rate)
    kObservedAction = 16,                  // 12: the action the next observation shows
    kAirTime = 28,                         // 4
    kObservedAirTime = 32,                 // 4
    kLastContact = 36,                     // 4
    kSwingPeak = 40,                       // 4
    kObservedContact = 44,                 // 4
    kMemorySize = 48,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  int StepsUntilNextCommand(Rng& rng) const;
  void ResampleCommand(Rng& rng, double* command) const;
  float Noisy(Rng& rng, float value, float scale) const;

  Go1JoystickParams params_;
  std::array<float, kJoints> default_pose_{};
  std::array<float, kJoints> soft_lower_{}, soft_upper_{};
  std::array<float, 19> home_qpos_{};
  int imu_ = -1;
  std::array<int, kFeet> foot_sites_{};
  std::array<FloorContact, kFeet> foot_contacts_;
  InfoSlot command_, steps_until_next_cmd_;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

}  // namespace joltgym
