// Reacher: a two-link planar arm brings its fingertip to a target; Gymnasium Reacher-v5.
// Observation: cos and sin of the two arm angles, the target's position (qpos[2:]), the arm's
// joint rates and fingertip - target in the plane (10). Reward: -|fingertip - target| *
// reward_dist_weight - |a|^2 * reward_control_weight; never terminates.
#pragma once

#include "tasks/task.h"

namespace joltgym {

// Reacher-v5's keyword arguments and defaults.
struct ReacherParams {
  float reward_dist_weight = 1.0f;
  float reward_control_weight = 1.0f;
  int frame_skip = 2;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("reward_dist_weight", reward_dist_weight);
    visit("reward_control_weight", reward_control_weight);
    visit("frame_skip", frame_skip);
  }
};

class ReacherTask final : public Task {
 public:
  ReacherTask(const CompiledModel& model, const ReacherParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  JPH::Vec3 FingertipToTarget(const Robot& robot) const;

  ReacherParams params_;
  int fingertip_, target_;  // MuJoCo body ids whose centres of mass are compared
  InfoSlot reward_dist_, reward_ctrl_;
};

}  // namespace joltgym
