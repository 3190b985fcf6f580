#include "tasks/task.h"

#include <stdexcept>
#include <string>

namespace joltgym {

Task::Task(const CompiledModel& model, int frame_skip)
    : act_dim_(model.nu()), frame_skip_(frame_skip), dt_(model.timestep() * float(frame_skip)) {
  if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1, got " + std::to_string(frame_skip));
}

StepOutcome Task::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws, double* info) const {
  Robot& robot = world.robot(0);
  Prepare(robot, action, ws);
  for (int i = 0; i < frame_skip_; ++i) world.Step(ctx);
  return Finish(robot, action, ws, info);
}

}  // namespace joltgym
