// The single-environment face of a task: an EnvInstance with its own stepping
// scratch and the validation a policy's input needs. Calls are serialised by a lock
// of its own: bindings release the GIL around them, so Python threads may call one
// env at the same time, and Jolt's state and scratch must never be entered twice.
#pragma once

#include "envs/action_check.h"
#include "envs/env_instance.h"
#include "envs/saved_state.h"

#include <mutex>

namespace joltgym {

class SingleEnv {
 public:
  SingleEnv(ModelPtr model, std::shared_ptr<const Task> task)
      : state_kind_(StateKind(*task, *model)), env_(std::move(model), std::move(task)) {}

  const Task& task() const { return env_.task(); }

  // Outputs are the caller's: nothing the next call overwrites is handed out.
  void Reset(std::uint64_t seed, float* obs, double* info) {
    std::lock_guard<std::mutex> lock(mutex_);
    env_.Reset(seed, obs, info);
  }
  StepOutcome Step(const float* action, float* obs, double* info) {
    RequireUsableAction(action, task().act_dim());
    std::lock_guard<std::mutex> lock(mutex_);
    return env_.Step(action, ctx_, obs, info);
  }
  void Observe(float* obs) {
    std::lock_guard<std::mutex> lock(mutex_);
    env_.Observe(obs);
  }
  // Runs f(World&) under the env's lock (drawing it, say).
  template <class F>
  decltype(auto) WithWorld(F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    return f(env_.world());
  }
  // Runs f(Robot&) under the env's lock: reads and edits of the robot never race a step.
  template <class F>
  decltype(auto) WithRobot(F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    return f(env_.robot());
  }
  // Runs f(Robot&, TaskWorkspace&) under the env's lock: the robot and its episode's task memory.
  template <class F>
  decltype(auto) WithRobotAndWorkspace(F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    return f(env_.robot(), env_.workspace());
  }

  // The env's saved state (saved_state.h), its episode's bookkeeping given by the caller (the
  // single env's seed stream and step count live in Python); and its restoring, which returns
  // that bookkeeping. RestoreState throws std::invalid_argument for a state of another task or
  // model, or damaged bytes.
  void SaveState(const EpisodeState& episode, StateBuffer& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    WriteSavedState(out, state_kind_, episode, [this](StateBuffer& o) { env_.SaveState(o); });
  }
  EpisodeState RestoreState(StateBuffer& in) {
    std::lock_guard<std::mutex> lock(mutex_);
    return ReadSavedState(in, state_kind_, [this](StateBuffer& i) { return env_.RestoreState(i); });
  }

  void SetRandomization(std::shared_ptr<const Randomization> randomization) {
    std::lock_guard<std::mutex> lock(mutex_);
    env_.SetRandomization(std::move(randomization));
  }

 private:
  std::string state_kind_;
  std::mutex mutex_;
  EnvInstance env_;
  StepContext ctx_;
};

}  // namespace joltgym
