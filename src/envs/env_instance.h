// One environment: a world, the task that scores it, its random stream and
// scratch. The unit the single env and the pool are made of.
#pragma once

#include "physics/world.h"
#include "tasks/task.h"

#include <cstdint>
#include <memory>

namespace joltgym {

class EnvInstance {
 public:
  EnvInstance(ModelPtr model, std::shared_ptr<const Task> task);

  const Task& task() const { return *task_; }
  World& world() { return world_; }
  Robot& robot() { return world_.robot(0); }

  // Restores the initial world, draws the task's reset noise from `seed`, and writes
  // the first observation and an info row holding the reset keys (the rest zero).
  void Reset(std::uint64_t seed, float* obs, double* info);
  // One environment step; the action must already be finite and of act_dim length.
  StepOutcome Step(const float* action, StepContext& ctx, float* obs, double* info);
  // The task's observation of the current state.
  void Observe(float* obs) { task_->Observe(world_.robot(0), ws_, obs); }

 private:
  std::shared_ptr<const Task> task_;
  World world_;
  Rng rng_;
  TaskWorkspace ws_;
};

}  // namespace joltgym
