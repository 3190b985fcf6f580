// The interface every task implements once; the single env, the pool and the
// multi-agent env all drive tasks through it. Tasks hold parameters only (no
// per-episode state), so one task object serves any number of worlds.
#pragma once

#include "physics/step_context.h"
#include "physics/world.h"
#include "tasks/rng.h"

#include <string>
#include <vector>

namespace joltgym {

struct StepOutcome {
  float reward = 0.0f;
  bool terminated = false;
};

// Scratch owned by each environment instance so tasks allocate nothing per step.
struct TaskWorkspace {
  std::vector<float> qpos;
  std::vector<float> qvel;
  std::vector<float> ctrl;
  std::vector<float> contact_forces;  // cfrc_ext, 6 per MuJoCo body
};

class Task {
 public:
  virtual ~Task() = default;

  virtual int obs_dim() const = 0;
  virtual int act_dim() const = 0;
  virtual int frame_skip() const = 0;
  // Names of the per-step scalars a task reports (Gymnasium's info keys), in order.
  virtual const std::vector<std::string>& info_keys() const = 0;

  // Draws the initial generalized state (noise around qpos0) into ws.qpos / ws.qvel.
  virtual void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const = 0;
  // The info keys reported at reset (Gymnasium's _get_reset_info), and their values.
  virtual const std::vector<std::string>& reset_info_keys() const = 0;
  virtual void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const = 0;
  virtual void Observe(const World& world, TaskWorkspace& ws, float* obs) const = 0;
  // Applies the action for frame_skip physics steps and scores the transition.
  virtual StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                           float* info) const = 0;
};

// The sizes most tasks only store: observation and action lengths and frame_skip.
class SizedTask : public Task {
 public:
  int obs_dim() const final { return obs_dim_; }
  int act_dim() const final { return act_dim_; }
  int frame_skip() const final { return frame_skip_; }

 protected:
  SizedTask(int obs_dim, int act_dim, int frame_skip);

 private:
  int obs_dim_;
  int act_dim_;
  int frame_skip_;
};

}  // namespace joltgym
