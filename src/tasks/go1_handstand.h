// Go1 handstand and footstand: MuJoCo Playground's Unitree Go1 balances on its front legs
// (handstand, nose down) or its rear legs (footstand, nose up), with EnvPool 1.2.5's conventions
// (Go1Handstand-v1, Go1Footstand-v1): its dict observation, reward terms and scales, and its
// reset. Each action adds action_scale x a to the 12 PD targets, which start at the joints'
// positions; touching the floor with a front leg's calf, thigh or hip ends the episode.
#pragma once

#include "tasks/floor_contact.h"
#include "tasks/go1_model.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

#include <array>
#include <limits>
#include <vector>

namespace joltgym {

// EnvPool's config fields of the task, with their defaults.
struct Go1HandstandParams {
  float ctrl_dt = 0.02f;
  float sim_dt = 0.004f;
  float kp = 35.0f;
  float kd = 0.5f;
  float action_scale = 0.3f;
  float soft_joint_pos_limit_factor = 0.9f;
  float init_from_crouch = 0.0f;  // the probability of starting from the "pre_recovery" crouch
  float energy_termination_threshold = std::numeric_limits<float>::infinity();
  float noise_level = 1.0f;
  float noise_joint_pos = 0.01f;
  float noise_joint_vel = 1.5f;
  float noise_gyro = 0.2f;
  float noise_gravity = 0.05f;
  float noise_linvel = 0.1f;
  float height_scale = 1.0f;
  float orientation_scale = 1.0f;
  float contact_scale = -0.1f;
  float action_rate_scale = 0.0f;
  float termination_scale = 0.0f;
  float dof_pos_limits_scale = -0.5f;
  float torques_scale = 0.0f;
  float pose_scale = -0.1f;
  float stay_still_scale = 0.0f;
  float energy_scale = 0.0f;
  float dof_acc_scale = 0.0f;  // joltgym keeps no joint accelerations: it must stay 0

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("ctrl_dt", ctrl_dt);
    visit("sim_dt", sim_dt);
    visit("kp", kp);
    visit("kd", kd);
    visit("action_scale", action_scale);
    visit("soft_joint_pos_limit_factor", soft_joint_pos_limit_factor);
    visit("init_from_crouch", init_from_crouch);
    visit("energy_termination_threshold", energy_termination_threshold);
    visit("noise_level", noise_level);
    visit("noise_joint_pos", noise_joint_pos);
    visit("noise_joint_vel", noise_joint_vel);
    visit("noise_gyro", noise_gyro);
    visit("noise_gravity", noise_gravity);
    visit("noise_linvel", noise_linvel);
    visit("height_scale", height_scale);
    visit("orientation_scale", orientation_scale);
    visit("contact_scale", contact_scale);
    visit("action_rate_scale", action_rate_scale);
    visit("termination_scale", termination_scale);
    visit("dof_pos_limits_scale", dof_pos_limits_scale);
    visit("torques_scale", torques_scale);
    visit("pose_scale", pose_scale);
    visit("stay_still_scale", stay_still_scale);
    visit("energy_scale", energy_scale);
    visit("dof_acc_scale", dof_acc_scale);
  }
};

class Go1HandstandTask : public Task {
 public:
  static constexpr int kStateDim = 45;
  static constexpr int kPrivilegedDim = 94;
  static constexpr int kRewardTerms = 11;

  // footstand: balance on the rear legs, nose up, instead.
  Go1HandstandTask(const CompiledModel& model, const Go1HandstandParams& params, bool footstand = false);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int { kTargets = 0, kLastAction = 12, kObservedAction = 24, kMemorySize = 36 };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  Go1HandstandParams params_;
  std::array<float, go1::kJoints> default_pose_{}, soft_lower_{}, soft_upper_{};
  std::vector<float> home_qpos_, crouch_qpos_;
  std::array<int, 6> posed_joints_{};  // the legs held at the home pose: the ones it stands on
  JPH::Vec3 desired_forward_;
  float desired_height_;
  int imu_ = -1;
  std::vector<FloorContact> feet_, front_leg_geoms_;
  std::array<InfoSlot, kRewardTerms> reward_slots_{};
};

class Go1FootstandTask final : public Go1HandstandTask {
 public:
  Go1FootstandTask(const CompiledModel& model, const Go1HandstandParams& params) : Go1HandstandTask(model, params, true) {}
};

}  // namespace joltgym
