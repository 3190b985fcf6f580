#include "tasks/task.h"

#include <stdexcept>
#include <string>

namespace joltgym {

Task::Task(const CompiledModel& model, int frame_skip)
    : act_dim_(model.nu()), frame_skip_(frame_skip), dt_(model.timestep() * float(frame_skip)) {
  if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1, got " + std::to_string(frame_skip));
}

Rng& Task::StreamOf(TaskWorkspace& ws) {
  if (!ws.rng) throw std::logic_error("this task draws random numbers during episodes; its env kind gives it no stream");
  return *ws.rng;
}

}  // namespace joltgym
