// Planar runners: HalfCheetah, Hopper and Walker2d, one task with their
// Gymnasium v5 conventions as data. Reward: forward_reward_weight * dx/dt
// + healthy_reward (when healthy) - ctrl_cost_weight * |a|^2; termination when
// unhealthy (if the task has a health check and asks for it).
#pragma once

#include "tasks/task.h"

#include <array>

namespace joltgym {

struct PlanarRunnerParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 0.1f;
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 5;
  // HalfCheetah's reset draws qvel noise from N(0, 1); Hopper's and Walker2d's from U(-1, 1).
  bool uniform_velocity_noise = false;
  float qvel_clip = 0.0f;  // observation clips qvel to +-qvel_clip when > 0
  // Health (Hopper, Walker2d): z = qpos[1], angle = qpos[2], state = (qpos, qvel)[2:].
  bool has_health = false;
  float healthy_reward = 1.0f;
  bool terminate_when_unhealthy = true;
  std::array<float, 2> healthy_z_range{0.0f, 0.0f};
  std::array<float, 2> healthy_angle_range{0.0f, 0.0f};
  bool check_state_range = false;
  std::array<float, 2> healthy_state_range{-100.0f, 100.0f};
};

class PlanarRunnerTask final : public SizedTask {
 public:
  PlanarRunnerTask(const CompiledModel& model, const PlanarRunnerParams& params);

  const std::vector<std::string>& info_keys() const override { return info_keys_; }
  const std::vector<std::string>& reset_info_keys() const override { return reset_info_keys_; }

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

 private:
  bool IsHealthy(const TaskWorkspace& ws) const;

  PlanarRunnerParams params_;
  float dt_;
  float init_z_;
  std::vector<std::string> info_keys_;
  std::vector<std::string> reset_info_keys_;
};

}  // namespace joltgym
