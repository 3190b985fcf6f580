// The pool's work without the pool: N envs, packed into worlds as a pool packs them, stepped
// in plain loops: no pool, no Python, no action checks; with several threads, each steps a
// fixed run of the worlds and waits at a spinning barrier after every step (a vector step is
// synchronous). The reference for pool efficiency. Its episodes are the pool's: the same per-env
// seed stream (an env reset with seed s starts from stream state s + i, as
// JoltVectorEnv.reset(seed=s) sets it), the same episode limit and NextStep autoreset, so
// that given the same actions it runs the pool's very trajectories, and the two are timed
// on the same work (a Humanoid standing after a reset costs less per step than one rolling
// on the floor later in its episode).
#pragma once

#include "envs/env_group.h"
#include "pool/episode_slot.h"
#include "pool/packing.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace joltgym {

struct BareLoopSeconds {
  double wall = 0.0;
  double cpu = 0.0;  // the process's CPU time: the loop's own, the process's other threads being idle
};

class SpinBarrier;  // bare_loop.cpp

class BareLoop {
 public:
  // Builds num_envs envs and resets env i with seed stream state seed + i, packed into `worlds`
  // worlds as a pool packs them into as many (0: as a one-thread pool chooses), so that the two
  // can pack alike.
  BareLoop(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int max_episode_steps, std::uint64_t seed,
           int worlds = 0);

  int num_envs() const { return num_envs_; }
  int num_worlds() const { return packing_.worlds(); }
  int obs_dim() const { return task_->obs_dim(); }
  int act_dim() const { return task_->act_dim(); }
  // Steps every env `steps` times, continuing where the last call stopped; step s takes
  // actions + (s % batches) * num_envs * act_dim ([batches, num_envs, act_dim], finite).
  // With threads > 1 the worlds are split into that many contiguous runs, each stepped on a
  // thread of its own (started and joined inside the timing), all finishing step s before any
  // starts step s + 1. Returns the seconds the steps took.
  BareLoopSeconds Run(const float* actions, int batches, int steps, int threads = 1);
  // [num_envs, obs_dim]: each env's latest observation (after a reset, the reset's).
  const std::vector<float>& observations() const { return obs_; }

 private:
  void StepGroup(int g, const float* actions, StepContext& ctx);
  // Steps groups [first, last) `steps` times; with a barrier, waits at it after each step.
  void RunGroups(int first, int last, const float* actions, int batches, int steps, StepContext& ctx,
                 SpinBarrier* barrier);
  void ResetEnv(int i);

  std::shared_ptr<const Task> task_;
  int num_envs_;
  Packing packing_;
  int max_episode_steps_;
  std::vector<std::unique_ptr<EnvGroup>> groups_;
  std::vector<EpisodeSlot> slots_;
  std::vector<float> obs_;
  std::vector<double> infos_;
  std::vector<std::unique_ptr<StepContext>> contexts_;  // one per thread: Jolt's scratch is not shared
};

// Actions for a benchmark: `batches` x num_envs draws uniform over each actuator's control
// range (else [-1, 1]), the distribution of the Gymnasium action space the pool's users sample.
std::vector<float> RandomActions(const CompiledModel& model, int act_dim, int num_envs, int batches, std::uint64_t seed);

}  // namespace joltgym
