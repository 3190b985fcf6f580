// T1 joystick: MuJoCo Playground's Booster T1 humanoid (23 joints) follows a commanded forward,
// sideways and turning velocity with a periodic gait, on flat or rough ground, with EnvPool 1.2.5's
// conventions (T1JoystickFlatTerrain-v1, T1JoystickRoughTerrain-v1): the humanoid joystick scheme
// (tasks/humanoid_joystick.h) with T1's 25 reward terms; a foot touches the floor through any of
// its four corner spheres, and the gait phase rests while the command is zero.
#pragma once

#include "tasks/humanoid_joystick.h"
#include "tasks/geom_contact.h"

#include <array>
#include <memory>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct T1JoystickParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.002f;
  float action_scale = 1.0f;
  float soft_joint_pos_limit_factor = 0.95f;
  float noise_level = 1.0f;
  float noise_joint_pos = 0.03f;
  float noise_joint_vel = 1.5f;
  float noise_gravity = 0.05f;
  float noise_linvel = 0.1f;
  float noise_gyro = 0.2f;
  float tracking_lin_vel_scale = 1.0f;
  float tracking_ang_vel_scale = 0.5f;
  float lin_vel_z_scale = 0.0f;
  float ang_vel_xy_scale = -0.15f;
  float orientation_scale = -1.0f;
  float base_height_scale = 0.0f;
  float torques_scale = 0.0f;
  float action_rate_scale = 0.0f;
  float energy_scale = 0.0f;
  float dof_acc_scale = 0.0f;
  float dof_vel_scale = 0.0f;
  float feet_clearance_scale = 0.0f;
  float feet_air_time_scale = 2.0f;
  float feet_slip_scale = -0.25f;
  float feet_height_scale = 0.0f;
  float feet_phase_scale = 1.0f;
  float stand_still_scale = 0.0f;
  float alive_scale = 0.25f;
  float termination_scale = 0.0f;
  float collision_scale = -1.0f;
  float joint_deviation_knee_scale = -0.1f;
  float joint_deviation_hip_scale = -0.1f;
  float dof_pos_limits_scale = -1.0f;
  float pose_scale = -1.0f;
  float feet_distance_scale = -1.0f;
  float tracking_sigma = 0.25f;
  float max_foot_height = 0.12f;
  float base_height_target = 0.665f;
  bool push_enable = true;
  float push_interval_min = 5.0f;
  float push_interval_max = 10.0f;
  float push_magnitude_min = 0.1f;
  float push_magnitude_max = 1.0f;
  float lin_vel_x_min = -1.0f;
  float lin_vel_x_max = 1.0f;
  float lin_vel_y_min = -0.8f;
  float lin_vel_y_max = 0.8f;
  float ang_vel_yaw_min = -1.0f;
  float ang_vel_yaw_max = 1.0f;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("action_scale", action_scale);
    visit("soft_joint_pos_limit_factor", soft_joint_pos_limit_factor);
    visit("noise_level", noise_level);
    visit("noise_joint_pos", noise_joint_pos);
    visit("noise_joint_vel", noise_joint_vel);
    visit("noise_gravity", noise_gravity);
    visit("noise_linvel", noise_linvel);
    visit("noise_gyro", noise_gyro);
    visit("tracking_lin_vel_scale", tracking_lin_vel_scale);
    visit("tracking_ang_vel_scale", tracking_ang_vel_scale);
    visit("lin_vel_z_scale", lin_vel_z_scale);
    visit("ang_vel_xy_scale", ang_vel_xy_scale);
    visit("orientation_scale", orientation_scale);
    visit("base_height_scale", base_height_scale);
    visit("torques_scale", torques_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("energy_scale", energy_scale);
    visit("dof_acc_scale", dof_acc_scale);
    visit("dof_vel_scale", dof_vel_scale);
    visit("feet_clearance_scale", feet_clearance_scale);
    visit("feet_air_time_scale", feet_air_time_scale);
    visit("feet_slip_scale", feet_slip_scale);
    visit("feet_height_scale", feet_height_scale);
    visit("feet_phase_scale", feet_phase_scale);
    visit("stand_still_scale", stand_still_scale);
    visit("alive_scale", alive_scale);
    visit("termination_scale", termination_scale);
    visit("collision_scale", collision_scale);
    visit("joint_deviation_knee_scale", joint_deviation_knee_scale);
    visit("joint_deviation_hip_scale", joint_deviation_hip_scale);
    visit("dof_pos_limits_scale", dof_pos_limits_scale);
    visit("pose_scale", pose_scale);
    visit("feet_distance_scale", feet_distance_scale);
    visit("tracking_sigma", tracking_sigma);
    visit("max_foot_height", max_foot_height);
    visit("base_height_target", base_height_target);
    visit("push_enable", push_enable);
    visit("push_interval_min", push_interval_min);
    visit("push_interval_max", push_interval_max);
    visit("push_magnitude_min", push_magnitude_min);
    visit("push_magnitude_max", push_magnitude_max);
    visit("lin_vel_x_min", lin_vel_x_min);
    visit("lin_vel_x_max", lin_vel_x_max);
    visit("lin_vel_y_min", lin_vel_y_min);
    visit("lin_vel_y_max", lin_vel_y_max);
    visit("ang_vel_yaw_min", ang_vel_yaw_min);
    visit("ang_vel_yaw_max", ang_vel_yaw_max);
  }
};

class T1JoystickTask final : public HumanoidJoystickTask {
 public:
  static constexpr int kJoints = 23;

  T1JoystickTask(const CompiledModel& model, const T1JoystickParams& params);

 private:
  void Terms(const Robot& robot, const TaskWorkspace& ws, const StepState& step, float* terms) const override;

  T1JoystickParams params_;
  std::array<int, 4> hips_{};  // left roll, left yaw, right roll, right yaw
  std::array<int, 2> knees_{};
  std::unique_ptr<GeomContact> feet_touching_;  // the collision term
};

}  // namespace joltgym
