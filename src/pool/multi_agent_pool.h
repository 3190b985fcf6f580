// N worlds of one multi-agent task, stepped on a persistent thread pool, as WorldPool
// steps single-agent envs: fixed contiguous chunks per thread and one Jolt scratch per
// thread, so results are bit-identical for any thread count. A world whose episode is over
// resets at its next step (Gymnasium's NEXT_STEP autoreset). Calls are serialised by a lock
// of the pool's own. Arrays are row-major, worlds first, then agents.
#pragma once

#include "marl/multi_agent_env.h"
#include "pool/thread_pool.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace joltgym {

struct MultiAgentPoolOutput {
  float* obs = nullptr;        // [worlds, agents, max_obs_dim]
  float* state = nullptr;      // [worlds, state_dim]
  float* rewards = nullptr;    // [worlds, agents]
  bool* terminated = nullptr;  // [worlds, agents]
  bool* truncated = nullptr;   // [worlds, agents]
  double* infos = nullptr;     // [worlds, agents, info size]; reset rows for worlds in `was_reset`
  bool* was_reset = nullptr;   // [worlds] the world began a new episode in this call
  bool* acted = nullptr;       // [worlds, agents] the agent was playing in this step
  bool* diverged = nullptr;    // [worlds] the world's physics diverged and its agents were truncated
};

class MultiAgentPool {
 public:
  MultiAgentPool(std::shared_ptr<const MultiAgentTask> task, int num_worlds, int num_threads, int max_episode_steps,
                 std::uint64_t entropy);

  const MultiAgentTask& task() const { return *task_; }
  int num_worlds() const { return int(envs_.size()); }
  int num_threads() const { return threads_.num_threads(); }
  // The task's knob `index` in every world.
  void SetKnob(int index, float value);

  // Resets every world (seeds[w] reseeds world w's episode stream when given).
  void Reset(const std::uint64_t* seeds, const MultiAgentPoolOutput& out);
  // One step of every world (actions [worlds, agents, max_act_dim]); worlds whose episode was
  // over reset instead. Throws std::invalid_argument, before any physics, naming the world and
  // agent of a non-finite action.
  void Step(const float* actions, const MultiAgentPoolOutput& out);
  // Runs f(World&) on world w under the pool's lock (drawing it, say); w in range.
  template <class F>
  decltype(auto) WithWorld(int w, F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    return f(envs_.at(size_t(w))->world());
  }
  std::vector<FloorMark> FloorMarks(int w) {
    std::lock_guard<std::mutex> lock(mutex_);
    return envs_.at(size_t(w))->floor_marks();
  }

 private:
  struct Batch;
  void ResetWorld(int w, const MultiAgentPoolOutput& out);
  void StepWorld(int w, const float* actions, const MultiAgentPoolOutput& out, StepContext& ctx);
  // One world's share of a Reset or Step batch, on the worker that took it (ThreadPool::ForEach).
  static void RunWorld(void* batch, int w, int worker);

  std::mutex mutex_;
  std::shared_ptr<const MultiAgentTask> task_;
  std::vector<std::unique_ptr<MultiAgentEnv>> envs_;
  std::vector<std::uint64_t> seed_state_;
  std::vector<std::unique_ptr<StepContext>> contexts_;  // one per worker thread
  ThreadPool threads_;
};

}  // namespace joltgym
