// Swimmer: a three-link robot swims forward in a viscous fluid; Gymnasium Swimmer-v5.
// Reward: forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2; never terminates.
#pragma once

#include "tasks/task.h"

namespace joltgym {

struct SwimmerParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 1e-4f;
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 4;
};

class SwimmerTask final : public SizedTask {
 public:
  SwimmerTask(const CompiledModel& model, const SwimmerParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  SwimmerParams params_;
  float dt_;
};

}  // namespace joltgym
