// Reacher: a two-link planar arm brings its fingertip to a target; Gymnasium Reacher-v5.
// Observation: cos and sin of the two arm angles, the target's position (qpos[2:]), the arm's
// joint rates and fingertip - target in the plane (10). Reward: -|fingertip - target| *
// reward_dist_weight - |a|^2 * reward_control_weight; never terminates.
#pragma once

#include "tasks/task.h"

namespace joltgym {

struct ReacherParams {
  float reward_dist_weight = 1.0f;
  float reward_control_weight = 1.0f;
  int frame_skip = 2;
  int fingertip = -1;  // MuJoCo body ids whose centres of mass are compared
  int target = -1;
};

class ReacherTask final : public SizedTask {
 public:
  ReacherTask(const CompiledModel& model, const ReacherParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World&, TaskWorkspace&, float*) const override {}
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  JPH::Vec3 FingertipToTarget(const World& world) const;

  ReacherParams params_;
};

}  // namespace joltgym
