// InvertedDoublePendulum: balance two poles on a cart; Gymnasium
// InvertedDoublePendulum-v5. Observation: cart position, sin and cos of the hinge
// angles, clipped qvel, clipped constraint force on the cart; the reward keeps the
// tip (site 0) high and centred; the episode ends when the tip drops to y <= 1.
#pragma once

#include "tasks/task.h"

namespace joltgym {

// InvertedDoublePendulum-v5's keyword arguments and defaults.
struct InvertedDoublePendulumParams {
  float healthy_reward = 10.0f;
  float reset_noise_scale = 0.1f;
  int frame_skip = 5;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("healthy_reward", healthy_reward);
    visit("reset_noise_scale", reset_noise_scale);
    visit("frame_skip", frame_skip);
  }
};

class InvertedDoublePendulumTask final : public Task {
 public:
  InvertedDoublePendulumTask(const CompiledModel& model, const InvertedDoublePendulumParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  InvertedDoublePendulumParams params_;
  InfoSlot reward_survive_, distance_penalty_, velocity_penalty_;
};

}  // namespace joltgym
