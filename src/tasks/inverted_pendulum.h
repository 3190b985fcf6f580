// InvertedPendulum: keep a pole on a cart upright; Gymnasium InvertedPendulum-v5.
// Reward 1 per step while |pole angle| <= 0.2; obs = (qpos, qvel).
#pragma once

#include "tasks/task.h"

namespace joltgym {

// InvertedPendulum-v5's keyword arguments and defaults.
struct InvertedPendulumParams {
  float reset_noise_scale = 0.01f;
  int frame_skip = 2;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("reset_noise_scale", reset_noise_scale);
    visit("frame_skip", frame_skip);
  }
};

class InvertedPendulumTask final : public Task {
 public:
  InvertedPendulumTask(const CompiledModel& model, const InvertedPendulumParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  InvertedPendulumParams params_;
  InfoSlot reward_survive_;
};

}  // namespace joltgym
