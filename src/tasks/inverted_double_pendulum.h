// InvertedDoublePendulum: balance two poles on a cart; Gymnasium
// InvertedDoublePendulum-v5. Observation: cart position, sin and cos of the hinge
// angles, clipped qvel, clipped constraint force on the cart; the reward keeps the
// tip (site 0) high and centred; the episode ends when the tip drops to y <= 1.
#pragma once

#include "tasks/task.h"

namespace joltgym {

struct InvertedDoublePendulumParams {
  float healthy_reward = 10.0f;
  float reset_noise_scale = 0.1f;
  int frame_skip = 5;
};

class InvertedDoublePendulumTask final : public SizedTask {
 public:
  InvertedDoublePendulumTask(const CompiledModel& model, const InvertedDoublePendulumParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World&, TaskWorkspace&, float*) const override {}
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  InvertedDoublePendulumParams params_;
};

}  // namespace joltgym
