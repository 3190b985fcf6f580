#include "tasks/task.h"

#include <stdexcept>
#include <string>

namespace joltgym {

SizedTask::SizedTask(int obs_dim, int act_dim, int frame_skip)
    : obs_dim_(obs_dim), act_dim_(act_dim), frame_skip_(frame_skip) {
  if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1, got " + std::to_string(frame_skip));
}

}  // namespace joltgym
