// EnvPool 1.2.5's config of its Spot ports (SpotFlatTerrainJoystick-v1, SpotGetup-v1,
// SpotJoystickGaitTracking-v1): one set of
// fields for every Spot task, each task with its own defaults.
#pragma once

namespace joltgym {

// The reward terms every Spot task reports as info["reward_<term>"], in EnvPool's order; a task
// reports zero for those it does not use.
constexpr int kSpotRewardTerms = 18;
constexpr const char* kSpotRewardNames[kSpotRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "feet_phase", "lin_vel_z", "ang_vel_xy", "hip_splay",
    "orientation", "termination", "posture", "torques", "action_rate", "energy", "feet_slip",
    "feet_clearance", "feet_height", "feet_air_time", "torso_height", "stand_still"};
enum SpotReward : int {
  kSpotTrackingLinVel, kSpotTrackingAngVel, kSpotFeetPhase, kSpotLinVelZ, kSpotAngVelXy, kSpotHipSplay,
  kSpotOrientation, kSpotTermination, kSpotPosture, kSpotTorques, kSpotActionRate, kSpotEnergy, kSpotFeetSlip,
  kSpotFeetClearance, kSpotFeetHeight, kSpotFeetAirTime, kSpotTorsoHeight, kSpotStandStill,
};

struct SpotParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.004f;  // the model's timestep (joltgym.tasks sets it on the model)
  float kp = 300.0f;      // the actuators' position gain and the joints' damping (set on the model)
  float kd = 1.0f;
  bool early_termination = true;
  float action_scale = 0.3f;
  int history_len = 3;  // EnvPool's fixed length of the joint-error history
  float noise_level = 1.0f;
  float noise_joint_pos = 0.05f;
  float noise_gyro = 0.1f;
  float noise_gravity = 0.03f;
  float noise_feet_pos_x = 0.01f;
  float noise_feet_pos_y = 0.005f;
  float noise_feet_pos_z = 0.02f;
  float drop_from_height_prob = 0.6f;
  float settle_time = 0.5f;
  float tracking_lin_vel_scale = 1.5f;
  float tracking_ang_vel_scale = 0.8f;
  float lin_vel_z_scale = -2.0f;
  float ang_vel_xy_scale = -0.05f;
  float orientation_scale = -5.0f;
  float termination_scale = -1.0f;
  float posture_scale = 1.0f;
  float torques_scale = -0.0002f;
  float action_rate_scale = -0.01f;
  float energy_scale = -0.001f;
  float feet_slip_scale = -0.1f;
  float feet_clearance_scale = -2.0f;
  float feet_height_scale = -0.1f;
  float feet_air_time_scale = 0.1f;
  float feet_phase_scale = 0.0f;
  float hip_splay_scale = 0.0f;
  float torso_height_scale = 0.0f;
  float stand_still_scale = 0.0f;
  float tracking_sigma = 0.25f;
  float max_foot_height = 0.12f;
  // EnvPool's spec carries pushes that its Spot never applies; true is refused.
  bool pert_enable = false;
  float kick_wait_time_min = 1.0f;
  float kick_wait_time_max = 3.0f;
  float kick_duration_min = 0.05f;
  float kick_duration_max = 0.2f;
  float kick_velocity_min = 0.0f;
  float kick_velocity_max = 3.0f;
  float lin_vel_x_min = -1.0f;
  float lin_vel_x_max = 1.0f;
  float lin_vel_y_min = -0.8f;
  float lin_vel_y_max = 0.8f;
  float ang_vel_yaw_min = -1.0f;
  float ang_vel_yaw_max = 1.0f;
  float gait_frequency_min = 0.5f;
  float gait_frequency_max = 4.0f;
  int gait_count = 5;
  float foot_height_min = 0.08f;
  float foot_height_max = 0.4f;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("kp", kp);
    visit("kd", kd);
    visit("early_termination", early_termination);
    visit("action_scale", action_scale);
    visit("history_len", history_len);
    visit("noise_level", noise_level);
    visit("noise_joint_pos", noise_joint_pos);
    visit("noise_gyro", noise_gyro);
    visit("noise_gravity", noise_gravity);
    visit("noise_feet_pos_x", noise_feet_pos_x);
    visit("noise_feet_pos_y", noise_feet_pos_y);
    visit("noise_feet_pos_z", noise_feet_pos_z);
    visit("drop_from_height_prob", drop_from_height_prob);
    visit("settle_time", settle_time);
    visit("tracking_lin_vel_scale", tracking_lin_vel_scale);
    visit("tracking_ang_vel_scale", tracking_ang_vel_scale);
    visit("lin_vel_z_scale", lin_vel_z_scale);
    visit("ang_vel_xy_scale", ang_vel_xy_scale);
    visit("orientation_scale", orientation_scale);
    visit("termination_scale", termination_scale);
    visit("posture_scale", posture_scale);
    visit("torques_scale", torques_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("energy_scale", energy_scale);
    visit("feet_slip_scale", feet_slip_scale);
    visit("feet_clearance_scale", feet_clearance_scale);
    visit("feet_height_scale", feet_height_scale);
    visit("feet_air_time_scale", feet_air_time_scale);
    visit("feet_phase_scale", feet_phase_scale);
    visit("hip_splay_scale", hip_splay_scale);
    visit("torso_height_scale", torso_height_scale);
    visit("stand_still_scale", stand_still_scale);
    visit("tracking_sigma", tracking_sigma);
    visit("max_foot_height", max_foot_height);
    visit("pert_enable", pert_enable);
    visit("kick_wait_time_min", kick_wait_time_min);
    visit("kick_wait_time_max", kick_wait_time_max);
    visit("kick_duration_min", kick_duration_min);
    visit("kick_duration_max", kick_duration_max);
    visit("kick_velocity_min", kick_velocity_min);
    visit("kick_velocity_max", kick_velocity_max);
    visit("lin_vel_x_min", lin_vel_x_min);
    visit("lin_vel_x_max", lin_vel_x_max);
    visit("lin_vel_y_min", lin_vel_y_min);
    visit("lin_vel_y_max", lin_vel_y_max);
    visit("ang_vel_yaw_min", ang_vel_yaw_min);
    visit("ang_vel_yaw_max", ang_vel_yaw_max);
    visit("gait_frequency_min", gait_frequency_min);
    visit("gait_frequency_max", gait_frequency_max);
    visit("gait_count", gait_count);
    visit("foot_height_min", foot_height_min);
    visit("foot_height_max", foot_height_max);
  }
};

// SpotGetup-v1's defaults over the joystick's.
struct SpotGetupParams : SpotParams {
  SpotGetupParams() {
    kp = 400.0f;
    kd = 20.0f;
    action_scale = 0.6f;
    noise_joint_pos = 0.01f;
    noise_gyro = 0.2f;
    noise_gravity = 0.05f;
    orientation_scale = 1.0f;
    torques_scale = 0.0f;
    action_rate_scale = 0.0f;
    torso_height_scale = 1.0f;
    stand_still_scale = 1.0f;
  }
};

// SpotJoystickGaitTracking-v1's defaults over the joystick's.
struct SpotGaitParams : SpotParams {
  SpotGaitParams() {
    kp = 400.0f;
    kd = 10.0f;
    action_scale = 0.6f;
    tracking_lin_vel_scale = 0.5f;
    tracking_ang_vel_scale = 0.5f;
    lin_vel_z_scale = -0.5f;
    ang_vel_xy_scale = -0.5f;
    feet_phase_scale = 2.0f;
    hip_splay_scale = -0.5f;
    lin_vel_y_min = -0.5f;
    lin_vel_y_max = 0.5f;
  }
};

}  // namespace joltgym
