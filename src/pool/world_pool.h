// N independent environments of one task, stepped on a persistent thread pool.
// Each env is an EnvInstance (its own world, RNG and scratch); all share the
// compiled model and the task. Work is split into fixed contiguous chunks and an
// env's computation never depends on another's, so results are bit-identical for
// any number of threads. Reset and Step are serialised by a lock of the pool's own:
// bindings release the GIL around them, so Python threads may call one pool at once.
#pragma once

#include "envs/env_instance.h"
#include "pool/thread_pool.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace joltgym {

// Gymnasium 1.x's vector autoreset modes.
enum class AutoresetMode : int { NextStep = 0, SameStep = 1, Disabled = 2 };

// Caller-owned outputs of one Step; arrays are row-major with num_envs rows.
struct PoolStepOutput {
  float* obs = nullptr;          // [n, obs_dim]
  float* rewards = nullptr;      // [n]
  bool* terminated = nullptr;    // [n]
  bool* truncated = nullptr;     // [n]
  double* infos = nullptr;       // [n, info row]; the reset row for envs in `was_reset`
  bool* was_reset = nullptr;     // [n] the env was reset during this call
  float* final_obs = nullptr;    // [n, obs_dim] SameStep: observation that ended an episode
  double* final_infos = nullptr; // [n, info row] SameStep: its info
};

class WorldPool {
 public:
  WorldPool(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int num_threads,
            int max_episode_steps, AutoresetMode mode, std::uint64_t entropy);

  int num_envs() const { return int(envs_.size()); }
  int num_threads() const { return threads_.num_threads(); }
  int obs_dim() const { return task_->obs_dim(); }
  int act_dim() const { return task_->act_dim(); }
  int max_episode_steps() const { return max_episode_steps_; }
  AutoresetMode autoreset_mode() const { return mode_; }
  const Task& task() const { return *task_; }
  int info_size() const { return task_->info_layout().size(); }

  // Resets the envs with mask[i] (all when mask is null). seeds[i] reseeds env i's
  // episode stream; without seeds each env continues its own stream.
  void Reset(const std::uint64_t* seeds, const bool* mask, float* obs, double* infos);
  // One step of every env (actions [n, act_dim]). Throws std::invalid_argument, before
  // touching any env, naming the envs whose actions are not finite or (autoreset
  // disabled) that wait for a reset.
  void Step(const float* actions, const PoolStepOutput& out);
  // Runs f(World&) on env i's world under the pool's lock (drawing it, say); i in range.
  template <class F>
  decltype(auto) WithWorld(int i, F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    return f(envs_.at(size_t(i))->world());
  }

 private:
  struct Slot {
    std::uint64_t seed_state = 0;
    int elapsed = 0;
    bool done = false;
  };
  struct Batch;  // one Reset or Step call, shared with the workers

  void CheckActions(const float* actions) const;
  void ResetEnv(int i, float* obs, double* info_row);
  void StepEnv(int i, const float* action, const PoolStepOutput& out, StepContext& ctx);
  static void RunBatch(void* batch, int worker);

  std::mutex mutex_;
  std::shared_ptr<const Task> task_;
  std::vector<std::unique_ptr<EnvInstance>> envs_;
  std::vector<Slot> slots_;
  std::vector<std::unique_ptr<StepContext>> contexts_;  // one per worker thread: Jolt scratch is not shared
  int max_episode_steps_;
  AutoresetMode mode_;
  ThreadPool threads_;
};

}  // namespace joltgym
