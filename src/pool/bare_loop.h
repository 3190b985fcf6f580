// The pool's work without the pool: N envs, packed into worlds as a one-thread pool
// packs them, stepped in one plain loop on the calling thread, no threads, no Python.
// The reference for pool efficiency.
#pragma once

#include "envs/env_group.h"

#include <cstdint>
#include <memory>

namespace joltgym {

struct BareLoopSeconds {
  double wall = 0.0;
  double cpu = 0.0;  // the process's CPU time: the loop's own, the process's other threads being idle
};

// Steps num_envs envs for `steps` env steps with fixed random actions, uniform over each
// actuator's control range (else [-1, 1]) (auto-resetting at max_episode_steps) and returns the seconds spent, building the envs excluded.
BareLoopSeconds RunBareLoop(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int steps, int max_episode_steps,
                   std::uint64_t seed);

}  // namespace joltgym
