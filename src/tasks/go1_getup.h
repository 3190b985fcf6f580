// Go1 get-up: MuJoCo Playground's Unitree Go1, dropped in a random pose or set down in its home
// pose, stands up and holds still, with EnvPool 1.2.5's conventions (Go1Getup-v1): its dict
// observation, reward terms and scales, and its reset, which lets the robot settle for
// settle_time holding its joints before the episode starts. Each action moves the 12 PD targets
// to the joints' positions plus action_scale x a; every geom of the legs collides.
#pragma once

#include "tasks/go1_model.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>
#include <limits>
#include <vector>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct Go1GetupParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.004f;
  float kp = 35.0f;
  float kd = 0.5f;
  float action_scale = 0.5f;
  float soft_joint_pos_limit_factor = 0.95f;
  float noise_level = 1.0f;
  float noise_joint_pos = 0.03f;
  float noise_joint_vel = 1.5f;
  float noise_gyro = 0.2f;
  float noise_gravity = 0.05f;
  float drop_from_height_prob = 0.6f;
  float settle_time = 0.5f;
  float energy_termination_threshold = std::numeric_limits<float>::infinity();
  float orientation_scale = 1.0f;
  float torso_height_scale = 1.0f;
  float posture_scale = 1.0f;
  float stand_still_scale = 1.0f;
  float action_rate_scale = -0.001f;
  float dof_pos_limits_scale = -0.1f;
  float torques_scale = -1e-5f;
  float dof_acc_scale = -2.5e-7f;
  float dof_vel_scale = -0.1f;

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
    visit("drop_from_height_prob", drop_from_height_prob);
    visit("settle_time", settle_time);
    visit("energy_termination_threshold", energy_termination_threshold);
    visit("orientation_scale", orientation_scale);
    visit("torso_height_scale", torso_height_scale);
    visit("posture_scale", posture_scale);
    visit("stand_still_scale", stand_still_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("dof_pos_limits_scale", dof_pos_limits_scale);
    visit("torques_scale", torques_scale);
    visit("dof_acc_scale", dof_acc_scale);
    visit("dof_vel_scale", dof_vel_scale);
  }
};

class Go1GetupTask final : public Task {
 public:
  static constexpr int kStateDim = 42;
  static constexpr int kPrivilegedDim = 91;
  static constexpr int kRewardTerms = 9;

  Go1GetupTask(const CompiledModel& model, const Go1GetupParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kLastAction = 0,
    kLastLastAction = 12,
    kObservedAction = 24,
    kVelocityBefore = 36,  // the joints' velocities before the step's physics
    kMemorySize = 48,
  };

  void BeforePhysics(const Robot& robot, TaskWorkspace& ws) const override;
  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  Go1GetupParams params_;
  std::array<float, go1::kJoints> default_pose_{}, soft_lower_{}, soft_upper_{}, range_lower_{}, range_upper_{};
  std::vector<float> home_qpos_;
  int imu_ = -1;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

}  // namespace joltgym
