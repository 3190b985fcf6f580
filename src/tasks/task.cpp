#include "tasks/task.h"

#include <stdexcept>
#include <string>

namespace joltgym {

Task::Task(const CompiledModel& model, int frame_skip, int action_repeat)
    : act_dim_(model.nu()), frame_skip_(frame_skip), action_repeat_(action_repeat), dt_(model.timestep() * float(frame_skip)) {
  if (action_repeat < 1) throw std::invalid_argument("action_repeat must be >= 1, got " + std::to_string(action_repeat));
  if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1, got " + std::to_string(frame_skip));
  if (frame_skip % action_repeat != 0) throw std::logic_error("frame_skip is not a whole number of control steps");
}

Rng& Task::StreamOf(TaskWorkspace& ws) {
  if (!ws.rng) throw std::logic_error("this task draws random numbers during episodes; its env kind gives it no stream");
  return *ws.rng;
}

}  // namespace joltgym
