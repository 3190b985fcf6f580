// HalfCheetah: run forward in the plane; Gymnasium HalfCheetah-v5's conventions.
#pragma once

#include "tasks/task.h"

namespace joltgym {

struct HalfCheetahParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 0.1f;
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 5;
};

class HalfCheetahTask final : public Task {
 public:
  HalfCheetahTask(const CompiledModel& model, const HalfCheetahParams& params);

  int obs_dim() const override { return obs_dim_; }
  int act_dim() const override { return act_dim_; }
  int frame_skip() const override { return params_.frame_skip; }
  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  HalfCheetahParams params_;
  int obs_dim_;
  int act_dim_;
  float dt_;
};

}  // namespace joltgym
