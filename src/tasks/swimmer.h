// Swimmer: a three-link robot swims forward in a viscous fluid; Gymnasium Swimmer-v5.
// Reward: forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2; never terminates.
#pragma once

#include "tasks/observation_terms.h"
#include "tasks/task.h"

namespace joltgym {

// Swimmer-v5's keyword arguments and defaults.
struct SwimmerParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 1e-4f;
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 4;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("forward_reward_weight", forward_reward_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("reset_noise_scale", reset_noise_scale);
    visit("exclude_current_positions_from_observation", exclude_current_positions_from_observation);
    visit("frame_skip", frame_skip);
  }
};

class SwimmerTask final : public Task {
 public:
  SwimmerTask(const CompiledModel& model, const SwimmerParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  void BeforePhysics(const Robot& robot, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  SwimmerParams params_;
  XYPositionInfo position_info_;
  InfoSlot x_velocity_, y_velocity_, reward_forward_, reward_ctrl_;
};

}  // namespace joltgym
