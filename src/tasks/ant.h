// Ant: a four-legged robot with a free root runs forward; Gymnasium Ant-v5.
// Reward: forward velocity of the main body + healthy reward - control cost
// - contact cost (squared, clipped cfrc_ext); ends when the torso leaves its z range.
#pragma once

#include "tasks/observation_terms.h"
#include "tasks/task.h"
#include "tasks/task_params.h"

namespace joltgym {

// Ant-v5's keyword arguments and defaults.
struct AntParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 0.5f;
  float contact_cost_weight = 5e-4f;
  float healthy_reward = 1.0f;
  BodyRef main_body{1, ""};  // whose frame origin measures progress
  bool terminate_when_unhealthy = true;
  Range healthy_z_range{0.2f, 1.0f};
  Range contact_force_range{-1.0f, 1.0f};
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  bool include_cfrc_ext_in_observation = true;
  int frame_skip = 5;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("forward_reward_weight", forward_reward_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("contact_cost_weight", contact_cost_weight);
    visit("healthy_reward", healthy_reward);
    visit("main_body", main_body);
    visit("terminate_when_unhealthy", terminate_when_unhealthy);
    visit("healthy_z_range", healthy_z_range);
    visit("contact_force_range", contact_force_range);
    visit("reset_noise_scale", reset_noise_scale);
    visit("exclude_current_positions_from_observation", exclude_current_positions_from_observation);
    visit("include_cfrc_ext_in_observation", include_cfrc_ext_in_observation);
    visit("frame_skip", frame_skip);
  }
};

class AntTask final : public Task {
 public:
  AntTask(const CompiledModel& model, const AntParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  void BeforePhysics(const Robot& robot, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  AntParams params_;
  int main_body_;  // MuJoCo body id
  XYPositionInfo position_info_;
  InfoSlot x_velocity_, y_velocity_, reward_forward_, reward_ctrl_, reward_contact_, reward_survive_;
};

}  // namespace joltgym
