// Barkour joystick: MuJoCo Menagerie's Google Barkour vB quadruped follows a commanded velocity while
// kicked now and then, with EnvPool 1.2.5's conventions (BarkourJoystick-v1): a flat observation of
// the last 15 frames of 31 noisy readings (yaw rate, up vector, scaled command, joints less home,
// previous action), newest first; 10 reward terms. Each action moves the 12 PD targets by
// action_scale about home, clipped to EnvPool's joint bounds, which also end the episode.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/playground_terms.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>
#include <vector>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct BarkourJoystickParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.004f;
  float action_scale = 0.3f;
  float obs_noise = 0.05f;
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
  float action_rate_scale = -0.1f;
  float stand_still_scale = -0.5f;
  float termination_scale = -1.0f;
  float feet_air_time_scale = 0.2f;
  float tracking_sigma = 0.25f;
  float velocity_kick_min = 0.1f;
  float velocity_kick_max = 1.0f;
  int kick_duration_steps_min = 1;
  int kick_duration_steps_max = 10;
  int kick_wait_steps_min = 50;
  int kick_wait_steps_max = 150;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("action_scale", action_scale);
    visit("obs_noise", obs_noise);
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
    visit("stand_still_scale", stand_still_scale);
    visit("termination_scale", termination_scale);
    visit("feet_air_time_scale", feet_air_time_scale);
    visit("tracking_sigma", tracking_sigma);
    visit("velocity_kick_min", velocity_kick_min);
    visit("velocity_kick_max", velocity_kick_max);
    visit("kick_duration_steps_min", kick_duration_steps_min);
    visit("kick_duration_steps_max", kick_duration_steps_max);
    visit("kick_wait_steps_min", kick_wait_steps_min);
    visit("kick_wait_steps_max", kick_wait_steps_max);
  }
};

class BarkourJoystickTask final : public Task {
 public:
  static constexpr int kJoints = 12;
  static constexpr int kFeet = 4;
  static constexpr int kFrame = 31;
  static constexpr int kHistory = 15;
  static constexpr int kStateDim = kFrame * kHistory;
  static constexpr int kRewardTerms = 10;

  BarkourJoystickTask(const CompiledModel& model, const BarkourJoystickParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kCommand = 0,         // 3
    kStep = 3,
    kKickWait = 4,        // steps between kicks
    kKickDuration = 5,    // steps a kick lasts
    kKickVelocity = 6,    // the base speed a kick gives
    kLastKick = 7,        // the step the last kick began, or -1
    kKickDirection = 8,   // 2
    kFramePending = 10,
    kLastAction = 11,     // 12
    kAirTime = 23,        // 4
    kLastContact = 27,    // 4
    kHistoryStart = 31,   // kStateDim: the frames, newest first
    kMemorySize = 31 + kStateDim,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  void PushFrame(const Robot& robot, TaskWorkspace& ws) const;
  void SampleCommand(Rng& rng, double* command) const;

  BarkourJoystickParams params_;
  playground::FrameHistory history_{kHistoryStart, kFrame, kHistory};
  std::vector<float> home_qpos_;
  std::array<float, kJoints> default_pose_{};
  float mass_ = 0.0f;  // the whole robot's (MuJoCo's subtree mass of the torso)
  int imu_ = -1;
  std::vector<FloorContact> feet_;
  InfoSlot command_;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

}  // namespace joltgym
