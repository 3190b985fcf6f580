// Humanoid: walk forward without falling; Gymnasium Humanoid-v5. Reward: 1.25 x velocity
// of the centre of mass + 5 while healthy - 0.1 |ctrl|^2 - min(5e-7 |cfrc_ext|^2, 10);
// ends when the root leaves 1 < z < 2.
#pragma once

#include "tasks/humanoid_body.h"

#include <array>
#include <limits>

namespace joltgym {

struct HumanoidParams {
  HumanoidObservationParams body;
  float forward_reward_weight = 1.25f;
  float ctrl_cost_weight = 0.1f;
  float contact_cost_weight = 5e-7f;
  std::array<float, 2> contact_cost_range{-std::numeric_limits<float>::infinity(), 10.0f};
  float healthy_reward = 5.0f;
  bool terminate_when_unhealthy = true;
  std::array<float, 2> healthy_z_range{1.0f, 2.0f};
};

class HumanoidTask final : public HumanoidBodyTask {
 public:
  HumanoidTask(const CompiledModel& model, const HumanoidParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  HumanoidParams params_;
  float dt_;
};

}  // namespace joltgym
