// N independent environments of one task, stepped on a persistent thread pool. Envs
// are packed into EnvGroups (consecutive envs whose robots share one Jolt world and never
// touch; env_group.h): one world update advances a whole group. All share the compiled
// model and the task. Work is split into fixed contiguous chunks of groups, and an env's
// computation never depends on another's or on how envs are packed, so results are
// bit-identical for any number of threads and any robots_per_world. Reset and Step are
// serialised by a lock of the pool's own: bindings release the GIL around them, so Python
// threads may call one pool at once.
//
// Besides Step, the pool steps asynchronously (EnvPool's send/recv, AsyncStepper): Send stages
// actions for some envs and returns while background threads step their worlds; Recv returns the
// next batch_size envs whose worlds finished, with their ids.
#pragma once

#include "envs/env_group.h"
#include "envs/saved_state.h"
#include "pool/async_stepper.h"
#include "pool/episode_slot.h"
#include "pool/reset_requests.h"
#include "pool/packing.h"
#include "pool/pool_frames.h"
#include "pool/thread_pool.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
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
  bool* diverged = nullptr;      // [n] optional: the env's physics diverged, and its episode was truncated
};

// How num_envs envs on num_threads threads share worlds: at most robots_per_world to a world
// when positive, else AutoPacking for models whose robots can share a world (CanShareWorld)
// and a world per env for others. std::invalid_argument for robots_per_world < 0.
Packing ChoosePacking(const ModelPtr& model, int num_envs, int num_threads, int robots_per_world);

class WorldPool {
 public:
  // robots_per_world: 0 lets the pool choose (ChoosePacking); >1 needs a model
  // whose robots can share a world (std::invalid_argument otherwise).
  // batch_size: envs per Recv, 0 for all; below num_envs it packs worlds that divide it (AsyncPacking).
  WorldPool(ModelPtr model, std::shared_ptr<const Task> task, int num_envs, int num_threads,
            int max_episode_steps, AutoresetMode mode, std::uint64_t entropy, int robots_per_world = 0,
            int batch_size = 0);

  int num_envs() const { return num_envs_; }
  int batch_size() const { return batch_size_; }
  int robots_per_world() const { return packing_.largest(); }
  const Packing& packing() const { return packing_; }
  int num_threads() const { return threads_.num_threads(); }
  int obs_dim() const { return task_->obs_dim(); }
  int act_dim() const { return task_->act_dim(); }
  int max_episode_steps() const { return max_episode_steps_; }
  AutoresetMode autoreset_mode() const { return mode_; }
  const Task& task() const { return *task_; }
  int info_size() const { return task_->info_layout().size(); }

  // Resets the envs with mask[i] (all when mask is null). seeds[i] reseeds env i's
  // episode stream; without seeds each env continues its own stream. Ends any asynchronous
  // step first (AsyncStepper::Drain): results not received are dropped.
  void Reset(const std::uint64_t* seeds, const bool* mask, float* obs, double* infos);
  // One step of every env (actions [n, act_dim]). Throws std::invalid_argument, before
  // touching any env, naming the envs whose actions are not finite or (autoreset
  // disabled) that wait for a reset, or when envs are in flight from Send.
  void Step(const float* actions, const PoolStepOutput& out);

  // Sends envs[k] the action row k of actions [count, act_dim] and returns while their worlds
  // step. Throws std::invalid_argument before sending any, naming the envs that are out of
  // range, repeated, in flight, or whose actions Step would refuse.
  void Send(const int* envs, int count, const float* actions);
  // Sends every env a reset (seeds[i] reseeds env i when seeds is given), after ending any
  // asynchronous step as Reset does; Recv returns the first observations.
  void SendReset(const std::uint64_t* seeds);
  // Waits for the next batch_size envs and writes their ids, and their rows of a step's outputs
  // (an env sent a reset: its reset row, as a NextStep autoreset writes it), into batch_size-row
  // arrays. Throws std::invalid_argument when fewer envs are stepping or ready (AsyncStepper::Recv).
  void Recv(int* envs, const PoolStepOutput& out);
  // Envs sent and not yet received.
  int in_flight() const { return async_->in_flight(); }
  // Envs whose steps finished that Recv has not returned yet.
  int ready() const { return async_->ready(); }
  // Runs f(World&) on env i's world under the pool's lock (drawing it, say); i in range.
  // The world may hold other envs' robots too: RobotOfEnv says which one is env i's.
  template <class F>
  decltype(auto) WithWorld(int i, F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (i < 0 || i >= num_envs_) throw std::out_of_range("env " + std::to_string(i) + " out of range");
    async_->WaitForWorld(packing_.WorldOf(i));
    return f(groups_[size_t(packing_.WorldOf(i))]->world());
  }
  // Physical parameters drawn for every env at its resets from now on; null: none drawn.
  void SetRandomization(const std::shared_ptr<const Randomization>& randomization) {
    std::lock_guard<std::mutex> lock(mutex_);
    async_->WaitIdle();
    for (auto& group : groups_) group->SetRandomization(randomization);
  }
  // Runs f(Robot&) on env i's robot under the pool's lock; i in range.
  template <class F>
  decltype(auto) WithRobotOfEnv(int i, F&& f) {
    return WithWorld(i, [&](World& world) -> decltype(auto) { return f(world.robot(std::max(0, RobotOfEnv(i)))); });
  }
  // The saved states (saved_state.h) of envs[0, count) into out[0, count), and their restoring:
  // env envs[k] then steps on from states[k] bit for bit as the env it was saved from did
  // (world_pool_state.cpp). Both throw std::invalid_argument before touching any env, naming the
  // envs out of range or in flight (sent, not received), a repeated env (restoring), or the state
  // that is not of this pool's task and model.
  void SaveStates(const int* envs, int count, StateBuffer* out);
  void RestoreStates(const int* envs, int count, StateBuffer* states);
  const std::string& state_kind() const { return state_kind_; }
  // Pixel observations from now on: every env is drawn at once (its stack filled), then after each
  // of its steps and resets on the worker that ran them (pool_frames.h). Throws
  // std::invalid_argument while envs are in flight, or for a spec PoolFrames refuses.
  void EnableFrames(const FrameSpec& spec);
  bool has_frames() const { return frames_ != nullptr; }
  const FrameSpec& frame_spec() const;
  // The frame stacks of envs[0, count) (null: every env, in order) into out, one stack_bytes() row
  // each; `finals`: the stacks that ended their episodes (same-step autoreset's final observations).
  // Throws std::invalid_argument naming envs out of range or in flight, or without frames enabled.
  void CopyFrames(const int* envs, int count, bool finals, std::uint8_t* out);
  // Env i's robot in its world; -1 when the world holds env i alone.
  int RobotOfEnv(int i) const { return packing_.largest() > 1 ? packing_.IndexInWorld(i) : -1; }

 private:
  struct Batch;  // one Reset or Step call, shared with the workers

  // `worker`: the thread running it (the pool's worker index, or num_threads for Recv's caller).
  void ResetEnv(int i, float* obs, double* info_row, int worker);
  // Draws env i into its frames when they are enabled.
  void DrawEnv(int i, bool fresh, int worker);
  // Steps every env of group g (resetting instead those that NextStep autoreset reaches, and
  // those with reset_now[i] when given).
  void StepGroup(int g, const float* actions, const PoolStepOutput& out, StepContext& ctx, int worker,
                 const bool* reset_now = nullptr);
  // Group g's share of the asynchronous steps, on AsyncStepper's worker.
  static void RunAsyncGroup(void* pool, int g, int worker);
  void CheckActionsOf(const int* envs, int count, const float* actions) const;
  void StageAsync();  // the asynchronous mode's buffers, at its first use
  // The part of a step that follows the group's physics: scores env i, handles its episode's end.
  void FinishEnv(int i, const float* action, const PoolStepOutput& out, int worker);
  // One group's (world's) share of a Reset or Step batch, on the worker that took it (ThreadPool::ForEach).
  static void RunGroup(void* batch, int g, int worker);

  std::mutex mutex_;
  std::shared_ptr<const Task> task_;
  int num_envs_;
  Packing packing_;  // which envs share which group's world
  std::vector<std::unique_ptr<EnvGroup>> groups_;
  // With several threads, a Step gives each worker the same share of the groups (ForEachHomed),
  // costliest first by each one's time in the step before, so that what another worker takes
  // from the share's end is its cheapest: no worker is left alone with an expensive world at the
  // end. Which worker runs a group never changes its results.
  std::vector<int> step_order_;
  std::vector<double> step_seconds_;
  std::vector<EpisodeSlot> slots_;
  std::string state_kind_;  // StateKind of the task and model: what the saved states are of
  std::vector<std::unique_ptr<StepContext>> contexts_;  // one per worker thread: Jolt scratch is not shared
  int max_episode_steps_;
  AutoresetMode mode_;
  int batch_size_;
  ThreadPool threads_;
  // The asynchronous mode's inputs and outputs for every env: Send writes an env's action row and
  // reset request, its world's job reads them and writes its output rows, Recv gathers those.
  struct AsyncStage {
    explicit AsyncStage(size_t n) : resets(n) {}
    std::vector<float> actions, obs, rewards, final_obs;
    std::vector<double> infos, final_infos;
    std::unique_ptr<bool[]> terminated, truncated, was_reset, diverged;
    ResetRequests resets;
    PoolStepOutput out;
  };
  std::unique_ptr<AsyncStage> stage_;
  std::unique_ptr<PoolFrames> frames_;  // pixel observations, when enabled
  std::unique_ptr<AsyncStepper> async_;  // last: its threads stop before anything they use goes
};

}  // namespace joltgym
