// InvertedPendulum: keep a pole on a cart upright; Gymnasium InvertedPendulum-v5.
// Reward 1 per step while |pole angle| <= 0.2; obs = (qpos, qvel).
#pragma once

#include "tasks/task.h"

namespace joltgym {

struct InvertedPendulumParams {
  float reset_noise_scale = 0.01f;
  int frame_skip = 2;
};

class InvertedPendulumTask final : public SizedTask {
 public:
  InvertedPendulumTask(const CompiledModel& model, const InvertedPendulumParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World&, TaskWorkspace&, float*) const override {}
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  InvertedPendulumParams params_;
};

}  // namespace joltgym
