// Spot get-up: MuJoCo Playground's Boston Dynamics Spot, dropped from 1 m in a random orientation
// and joint pose (or set down at home), stands up and holds still, with EnvPool 1.2.5's conventions
// (SpotGetup-v1): the robot first settles for settle_time holding its pose; a 30-reading noisy
// observation; each action moves the 12 PD targets to the joints' positions plus action_scale x a,
// clipped to the control ranges; a joint outside its control range ends the episode.
#pragma once

#include "tasks/spot_model.h"
#include "tasks/task.h"

#include <array>
#include <vector>

namespace joltgym {

class SpotGetupTask final : public Task {
 public:
  static constexpr int kJoints = spot::kJoints;
  static constexpr int kStateDim = 30;

  SpotGetupTask(const CompiledModel& model, const SpotGetupParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kLastAction = 0,
    kLastLastAction = 12,
    kObservedAction = 24,  // the action the next observation shows: the one before the last
    kMemorySize = 36,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  SpotGetupParams params_;
  spot::Parts parts_;
  float desired_height_ = 0.0f;  // the home pose's
  std::array<InfoSlot, kSpotRewardTerms> reward_slots_{};
};

}  // namespace joltgym
