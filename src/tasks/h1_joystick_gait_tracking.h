// H1 gait tracking: MuJoCo Playground's Unitree H1 humanoid (19 joints) steps at a drawn gait
// frequency and swing height, with EnvPool 1.2.5's conventions. H1JoystickGaitTracking-v1 also follows
// a commanded velocity: a flat observation (113: noisy IMU, joints, previous action, command, the
// joints' velocities and errors, feet contacts, gait phase, frequency and swing height), actions
// that move PD targets starting at zero by action_scale. H1InplaceGaitTracking-v1 steps in place:
// no command, the last 3 frames of joint velocities and errors (186), targets at home plus
// action_scale x a. Targets are clipped to the control ranges; a joint leaving its control range or
// (with early_termination) the torso tilting past ~32 degrees ends the episode.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>
#include <vector>

namespace joltgym {

// EnvPool's config fields of the tasks, with H1JoystickGaitTracking-v1's defaults.
struct H1JoystickGaitTrackingParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.004f;
  bool early_termination = true;
  float action_scale = 0.3f;
  int history_len = 1;
  float obs_noise_level = 0.6f;
  float noise_joint_pos = 0.01f;
  float noise_joint_vel = 1.5f;
  float noise_gyro = 0.2f;
  float noise_gravity = 0.05f;
  float feet_phase_scale = 5.0f;
  float tracking_lin_vel_scale = 3.5f;
  float tracking_ang_vel_scale = 0.75f;
  float feet_air_time_scale = 0.0f;
  float ang_vel_xy_scale = -0.0f;
  float lin_vel_z_scale = -0.0f;
  float pose_scale = -2.5f;
  float foot_slip_scale = -0.0f;
  float action_rate_scale = -0.01f;
  float ang_vel_scale = -0.5f;
  float lin_vel_scale = -0.5f;
  float tracking_sigma = 0.5f;
  float lin_vel_x_min = -1.5f;
  float lin_vel_x_max = 1.5f;
  float lin_vel_y_min = -0.5f;
  float lin_vel_y_max = 0.5f;
  float ang_vel_yaw_min = -1.0f;
  float ang_vel_yaw_max = 1.0f;
  float lin_vel_threshold = 0.1f;
  float ang_vel_threshold = 0.1f;
  float gait_frequency_min = 0.5f;
  float gait_frequency_max = 2.0f;
  int gait_count = 1;
  float foot_height_min = 0.08f;
  float foot_height_max = 0.4f;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("early_termination", early_termination);
    visit("action_scale", action_scale);
    visit("history_len", history_len);
    visit("obs_noise_level", obs_noise_level);
    visit("noise_joint_pos", noise_joint_pos);
    visit("noise_joint_vel", noise_joint_vel);
    visit("noise_gyro", noise_gyro);
    visit("noise_gravity", noise_gravity);
    visit("feet_phase_scale", feet_phase_scale);
    visit("tracking_lin_vel_scale", tracking_lin_vel_scale);
    visit("tracking_ang_vel_scale", tracking_ang_vel_scale);
    visit("feet_air_time_scale", feet_air_time_scale);
    visit("ang_vel_xy_scale", ang_vel_xy_scale);
    visit("lin_vel_z_scale", lin_vel_z_scale);
    visit("pose_scale", pose_scale);
    visit("foot_slip_scale", foot_slip_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("ang_vel_scale", ang_vel_scale);
    visit("lin_vel_scale", lin_vel_scale);
    visit("tracking_sigma", tracking_sigma);
    visit("lin_vel_x_min", lin_vel_x_min);
    visit("lin_vel_x_max", lin_vel_x_max);
    visit("lin_vel_y_min", lin_vel_y_min);
    visit("lin_vel_y_max", lin_vel_y_max);
    visit("ang_vel_yaw_min", ang_vel_yaw_min);
    visit("ang_vel_yaw_max", ang_vel_yaw_max);
    visit("lin_vel_threshold", lin_vel_threshold);
    visit("ang_vel_threshold", ang_vel_threshold);
    visit("gait_frequency_min", gait_frequency_min);
    visit("gait_frequency_max", gait_frequency_max);
    visit("gait_count", gait_count);
    visit("foot_height_min", foot_height_min);
    visit("foot_height_max", foot_height_max);
  }
};

// H1InplaceGaitTracking-v1's defaults over the joystick's.
struct H1InplaceGaitTrackingParams : H1JoystickGaitTrackingParams {
  H1InplaceGaitTrackingParams() {
    action_scale = 0.6f;
    history_len = 3;
    obs_noise_level = 1.0f;
    feet_phase_scale = 2.0f;
    pose_scale = -0.5f;
    gait_frequency_max = 4.0f;
    gait_count = 2;
  }
};

class H1GaitTrackingTask : public Task {
 public:
  static constexpr int kJoints = 19;
  static constexpr int kFeet = 2;
  static constexpr int kRewardTerms = 11;

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 protected:
  // inplace: H1InplaceGaitTracking's task, else the joystick's.
  H1GaitTrackingTask(const CompiledModel& model, const H1JoystickGaitTrackingParams& params, bool inplace);

 private:
  enum Memory : int {
    kCommand = 0,           // 3 (zero in place)
    kStep = 3,              // steps since the command was drawn
    kObservationPending = 4,
    kGaitFrequency = 5,
    kGait = 6,
    kFootHeight = 7,        // the swing height the feet should reach
    kPhase = 8,             // 2
    kPhaseDt = 10,
    kLastAction = 11,       // 19
    kLastLastAction = 30,   // 19
    kTargets = 49,          // 19: the PD targets
    kAirTime = 68,          // 2
    kLastContact = 70,      // 2
    kSwingPeak = 72,        // 2
    kObservation = 74,      // the observation, whose history blocks roll in place
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  bool Touching(const Robot& robot, int foot) const;
  void UpdateObservation(const Robot& robot, TaskWorkspace& ws, const std::array<bool, kFeet>& contact) const;
  void SampleCommand(Rng& rng, double* command) const;
  float PoseCost(const TaskWorkspace& ws) const;
  float FeetPhase(const std::array<float, kFeet>& foot_z, const double* memory, float denominator) const;

  H1JoystickGaitTrackingParams params_;
  bool inplace_;
  int history_, base_dim_, state_dim_;
  std::vector<float> home_qpos_;
  std::array<float, kJoints> default_pose_{}, lower_{}, upper_{};
  int imu_ = -1;
  std::array<int, kFeet> foot_sites_{};
  std::array<std::vector<FloorContact>, kFeet> foot_floor_;  // three spheres under each foot
  InfoSlot command_;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

class H1JoystickGaitTrackingTask final : public H1GaitTrackingTask {
 public:
  H1JoystickGaitTrackingTask(const CompiledModel& model, const H1JoystickGaitTrackingParams& params)
      : H1GaitTrackingTask(model, params, false) {}
};

class H1InplaceGaitTrackingTask final : public H1GaitTrackingTask {
 public:
  H1InplaceGaitTrackingTask(const CompiledModel& model, const H1InplaceGaitTrackingParams& params)
      : H1GaitTrackingTask(model, params, true) {}
};

}  // namespace joltgym
