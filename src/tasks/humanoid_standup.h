// HumanoidStandup: the humanoid starts lying on its back and should stand up; Gymnasium
// HumanoidStandup-v5. Reward: z of the root / model timestep - 0.1 |ctrl|^2
// - min(0.5e-6 |cfrc_ext|^2, 10) + 1; never terminates.
#pragma once

#include "tasks/humanoid_body.h"

#include <array>
#include <limits>

namespace joltgym {

struct HumanoidStandupParams {
  HumanoidObservationParams body;
  // Weight of the height term. HumanoidStandup-v5 accepts uph_cost_weight but never
  // applies it; here it multiplies the term (the default, 1, gives v5's reward).
  float uph_cost_weight = 1.0f;
  float ctrl_cost_weight = 0.1f;
  float impact_cost_weight = 0.5e-6f;
  std::array<float, 2> impact_cost_range{-std::numeric_limits<float>::infinity(), 10.0f};
};

class HumanoidStandupTask final : public HumanoidBodyTask {
 public:
  HumanoidStandupTask(const CompiledModel& model, const HumanoidStandupParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  // x, y and the root's height above its initial height: the first info values.
  void WritePositionInfo(const TaskWorkspace& ws, float* info) const;

  HumanoidStandupParams params_;
  float timestep_;
  float initial_z_;
};

}  // namespace joltgym
