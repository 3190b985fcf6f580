// N envs of one multi-agent task, stepped on a persistent thread pool as WorldPool steps
// single-agent envs: envs whose robots touch nothing through Jolt (MultiAgentTask::CanPack,
// the factorised robots) are packed several to a Jolt world, so that one world update
// advances them all, and each world is stepped whole by the worker that takes it, with one
// Jolt scratch per worker. An env's results depend neither on the packing nor on the thread
// count. An env whose episode is over resets at its next step (Gymnasium's NEXT_STEP
// autoreset). Calls are serialised by a lock of the pool's own. Arrays are row-major, envs
// first, then agents. Besides Step, envs step asynchronously as WorldPool's do (Send, Recv:
// AsyncStepper), batch_size envs per Recv.
#pragma once

#include "marl/multi_agent_env.h"
#include "pool/async_stepper.h"
#include "pool/packing.h"
#include "pool/reset_requests.h"
#include "pool/thread_pool.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace joltgym {

struct MultiAgentPoolOutput {
  float* obs = nullptr;        // [envs, agents, max_obs_dim]
  float* state = nullptr;      // [envs, state_dim]
  float* rewards = nullptr;    // [envs, agents]
  bool* terminated = nullptr;  // [envs, agents]
  bool* truncated = nullptr;   // [envs, agents]
  double* infos = nullptr;     // [envs, agents, info size]; reset rows for envs in `was_reset`
  bool* was_reset = nullptr;   // [envs] the env began a new episode in this call
  bool* acted = nullptr;       // [envs, agents] the agent was playing in this step
  bool* diverged = nullptr;    // [envs] the env's physics diverged and its agents were truncated
};

// How num_envs envs on num_threads threads share worlds: at most envs_per_world to a world when
// positive (more than 1 needs a task that CanPack: std::invalid_argument otherwise), else
// AutoPacking for tasks that CanPack and a world per env for others.
Packing ChooseEnvPacking(const MultiAgentTask& task, int num_envs, int num_threads, int envs_per_world);

class MultiAgentPool {
 public:
  // envs_per_world: 0 lets the pool choose (ChooseEnvPacking); >1 needs a task that CanPack
  // (std::invalid_argument otherwise).
  // batch_size: envs per Recv, 0 for all; below num_envs it packs worlds that divide it (AsyncPacking).
  MultiAgentPool(std::shared_ptr<const MultiAgentTask> task, int num_envs, int num_threads, int max_episode_steps,
                 std::uint64_t entropy, int envs_per_world = 0, int batch_size = 0);

  const MultiAgentTask& task() const { return *task_; }
  int num_envs() const { return int(envs_.size()); }
  int envs_per_world() const { return packing_.largest(); }
  const Packing& packing() const { return packing_; }
  int batch_size() const { return batch_size_; }
  int in_flight() const { return async_->in_flight(); }
  int ready() const { return async_->ready(); }
  int num_threads() const { return threads_.num_threads(); }
  // The task's knob `index` in every env.
  void SetKnob(int index, float value);

  // Resets every env (seeds[w] reseeds env w's episode stream when given), after ending any
  // asynchronous step (results not received are dropped).
  void Reset(const std::uint64_t* seeds, const MultiAgentPoolOutput& out);
  // One step of every env (actions [envs, agents, max_act_dim]); envs whose episode was over
  // reset instead. Throws std::invalid_argument, before any physics, naming the env and agent
  // of a non-finite action, or when envs are in flight from Send.
  void Step(const float* actions, const MultiAgentPoolOutput& out);
  // Sends envs[k] the actions [k, agents, max_act_dim] and returns while their worlds step;
  // throws std::invalid_argument before sending any, as Step and AsyncStepper::CheckSendable do.
  void Send(const int* envs, int count, const float* actions);
  // Sends every env a reset (seeds as Reset takes them), after ending any asynchronous step.
  void SendReset(const std::uint64_t* seeds);
  // Waits for the next batch_size envs and writes their ids and their rows of a step's outputs
  // into batch_size-row arrays (AsyncStepper::Recv).
  void Recv(int* envs, const MultiAgentPoolOutput& out);
  // Runs f(World&) on env w's world under the pool's lock (drawing it, say); w in range. The
  // world may hold other envs' robots too: RobotOfEnv says which one is env w's.
  template <class F>
  decltype(auto) WithWorld(int w, F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (w < 0 || w >= num_envs()) throw std::out_of_range("env " + std::to_string(w) + " out of range");
    async_->WaitForWorld(packing_.WorldOf(w));
    return f(envs_[size_t(w)]->world());
  }
  // The saved states of envs[0, count) and their restoring, as WorldPool's (SaveStates); the
  // envs' knobs are not in them (MultiAgentEnv::SaveState).
  void SaveStates(const int* envs, int count, StateBuffer* out);
  void RestoreStates(const int* envs, int count, StateBuffer* states);
  const std::string& state_kind() const { return state_kind_; }
  // Env w's robot in its world where the world holds other envs' robots too, else -1.
  int RobotOfEnv(int w) const { return packing_.largest() > 1 ? envs_.at(size_t(w))->first_robot() : -1; }
  std::vector<FloorMark> FloorMarks(int w) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (w < 0 || w >= num_envs()) throw std::out_of_range("env " + std::to_string(w) + " out of range");
    async_->WaitForWorld(packing_.WorldOf(w));
    return envs_[size_t(w)]->floor_marks();
  }

 private:
  struct Batch;
  void ResetEnv(int w, const MultiAgentPoolOutput& out);
  // Steps the envs of world g (resetting instead those whose episode was over, and those with
  // reset_now[w] when given).
  void StepWorld(int g, const float* actions, const MultiAgentPoolOutput& out, StepContext& ctx,
                 const bool* reset_now = nullptr);
  static void RunAsyncWorld(void* pool, int g, int worker);
  void CheckActionsOf(const int* envs, int count, const float* actions) const;
  void StageAsync();  // the asynchronous mode's buffers, at its first use
  // One world's share of a Reset or Step batch, on the worker that took it (ThreadPool::ForEach).
  static void RunWorld(void* batch, int g, int worker);
  int num_worlds() const;  // each stepped whole by one worker
  std::pair<int, int> EnvsOfWorld(int g) const;  // world g's envs: [first, last)
  MultiAgentStepOutput OutputOf(int w, const MultiAgentPoolOutput& out) const;

  std::mutex mutex_;
  std::shared_ptr<const MultiAgentTask> task_;
  Packing packing_;  // which envs share which world
  // The shared worlds, packing_'s; empty when every env has a world of its own.
  std::vector<std::unique_ptr<World>> worlds_;
  std::vector<std::unique_ptr<MultiAgentEnv>> envs_;
  std::vector<std::uint64_t> seed_state_;
  std::string state_kind_;  // MultiAgentEnv::StateKind
  std::vector<std::unique_ptr<StepContext>> contexts_;  // one per worker thread
  int batch_size_;
  ThreadPool threads_;
  // The asynchronous mode's inputs and outputs for every env (WorldPool's AsyncStage).
  struct AsyncStage {
    explicit AsyncStage(size_t n) : resets(n) {}
    std::vector<float> actions, obs, state, rewards;
    std::vector<double> infos;
    std::unique_ptr<bool[]> terminated, truncated, was_reset, acted, diverged;
    ResetRequests resets;
    MultiAgentPoolOutput out;
  };
  std::unique_ptr<AsyncStage> stage_;
  std::unique_ptr<AsyncStepper> async_;  // last: its threads stop before anything they use goes
};

}  // namespace joltgym
