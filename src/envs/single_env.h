// The single-environment face of a task (HalfCheetahCore, ...): an EnvInstance
// with its own stepping scratch and the validation a policy's input needs.
#pragma once

#include "envs/action_check.h"
#include "envs/env_instance.h"

#include <vector>

namespace joltgym {

class SingleEnv {
 public:
  SingleEnv(ModelPtr model, std::shared_ptr<const Task> task) : env_(std::move(model), std::move(task)) {
    info_.assign(env_.task().info_keys().size(), 0.0f);
    reset_info_.assign(env_.task().reset_info_keys().size(), 0.0f);
  }

  const Task& task() const { return env_.task(); }
  World& world() { return env_.world(); }

  void Reset(std::uint64_t seed, float* obs) { env_.Reset(seed, obs, reset_info_.data()); }
  StepOutcome Step(const float* action, float* obs) {
    RequireFiniteAction(action, task().act_dim());
    return env_.Step(action, ctx_, obs, info_.data());
  }
  void Observe(float* obs) { env_.Observe(obs); }
  const std::vector<float>& info() const { return info_; }
  const std::vector<float>& reset_info() const { return reset_info_; }

 private:
  EnvInstance env_;
  StepContext ctx_;
  std::vector<float> info_;
  std::vector<float> reset_info_;
};

}  // namespace joltgym
