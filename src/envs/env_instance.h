// One environment alone in its world: an EnvGroup of one. The unit of the single env.
#pragma once

#include "envs/env_group.h"

#include <cstdint>
#include <memory>

namespace joltgym {

class EnvInstance {
 public:
  EnvInstance(ModelPtr model, std::shared_ptr<const Task> task) : group_(std::move(model), std::move(task), 1) {}

  const Task& task() const { return group_.task(); }
  World& world() { return group_.world(); }
  Robot& robot() { return group_.robot(0); }
  TaskWorkspace& workspace() { return group_.workspace(0); }

  // Restores the initial world, draws the task's reset noise from `seed`, and writes
  // the first observation and an info row holding the reset keys (the rest zero).
  void Reset(std::uint64_t seed, float* obs, double* info) { group_.Reset(0, seed, obs, info); }
  // One environment step; the action must already be finite and of act_dim length.
  StepOutcome Step(const float* action, StepContext& ctx, float* obs, double* info) {
    group_.Prepare(0, action);
    group_.StepPhysics(ctx);
    return group_.Finish(0, action, obs, info);
  }
  // The task's observation of the current state.
  void Observe(float* obs) { group_.Observe(0, obs); }
  void SaveState(StateBuffer& out) const { group_.SaveEnv(0, out); }
  bool RestoreState(StateBuffer& in) { return group_.RestoreEnv(0, in); }
  void SetRandomization(std::shared_ptr<const Randomization> randomization) { group_.SetRandomization(std::move(randomization)); }

 private:
  EnvGroup group_;
};

}  // namespace joltgym
