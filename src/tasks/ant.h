// Ant: a four-legged robot with a free root runs forward; Gymnasium Ant-v5.
// Reward: forward velocity of the main body + healthy reward - control cost
// - contact cost (squared, clipped cfrc_ext); ends when the torso leaves its z range.
#pragma once

#include "tasks/task.h"

#include <array>

namespace joltgym {

struct AntParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 0.5f;
  float contact_cost_weight = 5e-4f;
  float healthy_reward = 1.0f;
  bool terminate_when_unhealthy = true;
  std::array<float, 2> healthy_z_range{0.2f, 1.0f};
  std::array<float, 2> contact_force_range{-1.0f, 1.0f};
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  bool include_cfrc_ext_in_observation = true;
  int frame_skip = 5;
  int main_body = 0;  // simulated body whose frame origin measures progress
};

class AntTask final : public SizedTask {
 public:
  AntTask(const CompiledModel& model, const AntParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  AntParams params_;
  float dt_;
};

}  // namespace joltgym
