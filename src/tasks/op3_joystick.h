// OP3 joystick: MuJoCo Playground's Robotis OP3 humanoid follows a commanded velocity, with EnvPool
// 1.2.5's conventions (Op3Joystick-v1): a flat observation (EnvPool's `state`), the last three
// frames of 49 noisy readings (gyro, up vector, command, joints less the bent-knees pose, previous
// action), newest first; 12 reward terms. Each action moves the 20 PD targets by action_scale about
// the pose, clipped to the actuators' ranges.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/playground_terms.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>
#include <vector>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct Op3JoystickParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.004f;
  float kp = 21.1f;
  float kd = 1.084f;
  bool early_termination = true;
  float action_scale = 0.3f;
  float obs_noise = 0.05f;
  float max_foot_height = 0.07f;
  float lin_vel_x_min = -0.6f;
  float lin_vel_x_max = 1.5f;
  float lin_vel_y_min = -0.8f;
  float lin_vel_y_max = 0.8f;
  float ang_vel_yaw_min = -0.7f;
  float ang_vel_yaw_max = 0.7f;
  float tracking_lin_vel_scale = 1.5f;
  float tracking_ang_vel_scale = 0.8f;
  float lin_vel_z_scale = -2.0f;
  float ang_vel_xy_scale = -0.05f;
  float orientation_scale = -5.0f;
  float torques_scale = -0.0002f;
  float action_rate_scale = -0.01f;
  float zero_cmd_scale = -0.5f;
  float termination_scale = -1.0f;
  float feet_slip_scale = -0.1f;
  float feet_clearance_scale = 0.0f;
  float energy_scale = -0.0001f;
  float tracking_sigma = 0.25f;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("kp", kp);
    visit("kd", kd);
    visit("early_termination", early_termination);
    visit("action_scale", action_scale);
    visit("obs_noise", obs_noise);
    visit("max_foot_height", max_foot_height);
    visit("lin_vel_x_min", lin_vel_x_min);
    visit("lin_vel_x_max", lin_vel_x_max);
    visit("lin_vel_y_min", lin_vel_y_min);
    visit("lin_vel_y_max", lin_vel_y_max);
    visit("ang_vel_yaw_min", ang_vel_yaw_min);
    visit("ang_vel_yaw_max", ang_vel_yaw_max);
    visit("tracking_lin_vel_scale", tracking_lin_vel_scale);
    visit("tracking_ang_vel_scale", tracking_ang_vel_scale);
    visit("lin_vel_z_scale", lin_vel_z_scale);
    visit("ang_vel_xy_scale", ang_vel_xy_scale);
    visit("orientation_scale", orientation_scale);
    visit("torques_scale", torques_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("zero_cmd_scale", zero_cmd_scale);
    visit("termination_scale", termination_scale);
    visit("feet_slip_scale", feet_slip_scale);
    visit("feet_clearance_scale", feet_clearance_scale);
    visit("energy_scale", energy_scale);
    visit("tracking_sigma", tracking_sigma);
  }
};

class Op3JoystickTask final : public Task {
 public:
  static constexpr int kJoints = 20;
  static constexpr int kFrame = 49;
  static constexpr int kHistory = 3;
  static constexpr int kStateDim = kFrame * kHistory;
  static constexpr int kRewardTerms = 12;

  Op3JoystickTask(const CompiledModel& model, const Op3JoystickParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kCommand = 0,        // 3
    kStep = 3,
    kFramePending = 4,   // 1 after a reset: the next Observe reads the first frame
    kLastAction = 5,     // 20
    kLastLastAction = 25,
    kHistoryStart = 45,  // kStateDim: the frames, newest first
    kMemorySize = 45 + kStateDim,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  void SampleCommand(Rng& rng, double* command) const;
  // Reads a noisy frame of the current state into the history's front, the older frames shifted back.
  void PushFrame(const Robot& robot, TaskWorkspace& ws) const;

  Op3JoystickParams params_;
  playground::FrameHistory history_{kHistoryStart, kFrame, kHistory};
  std::vector<float> home_qpos_;
  std::array<float, kJoints> default_pose_{}, ctrl_lower_{}, ctrl_upper_{};
  int imu_ = -1;
  int torso_ = -1;  // simulated body "body_link"
  std::array<int, 2> foot_sites_{};
  std::vector<FloorContact> left_foot_, right_foot_;
  InfoSlot command_;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

}  // namespace joltgym
