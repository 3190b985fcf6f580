// Planar runners: HalfCheetah, Hopper and Walker2d, one task with their Gymnasium
// v5 conventions as data. Reward: forward_reward_weight * dx/dt + healthy_reward
// (when healthy) - ctrl_cost_weight * |a|^2; termination when unhealthy (Hopper and
// Walker2d, if asked).
#pragma once

#include "tasks/task.h"
#include "tasks/task_params.h"

#include <limits>

namespace joltgym {

// HalfCheetah-v5's keyword arguments and defaults.
struct HalfCheetahParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 0.1f;
  float reset_noise_scale = 0.1f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 5;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("forward_reward_weight", forward_reward_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("reset_noise_scale", reset_noise_scale);
    visit("exclude_current_positions_from_observation", exclude_current_positions_from_observation);
    visit("frame_skip", frame_skip);
  }
};

// Walker2d-v5's keyword arguments and defaults.
struct Walker2dParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 1e-3f;
  float healthy_reward = 1.0f;
  bool terminate_when_unhealthy = true;
  Range healthy_z_range{0.8f, 2.0f};
  Range healthy_angle_range{-1.0f, 1.0f};
  float reset_noise_scale = 5e-3f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 4;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("forward_reward_weight", forward_reward_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("healthy_reward", healthy_reward);
    visit("terminate_when_unhealthy", terminate_when_unhealthy);
    visit("healthy_z_range", healthy_z_range);
    visit("healthy_angle_range", healthy_angle_range);
    visit("reset_noise_scale", reset_noise_scale);
    visit("exclude_current_positions_from_observation", exclude_current_positions_from_observation);
    visit("frame_skip", frame_skip);
  }
};

// Hopper-v5's keyword arguments and defaults: Walker2d's plus a range for the rest of the state.
struct HopperParams {
  float forward_reward_weight = 1.0f;
  float ctrl_cost_weight = 1e-3f;
  float healthy_reward = 1.0f;
  bool terminate_when_unhealthy = true;
  Range healthy_state_range{-100.0f, 100.0f};
  Range healthy_z_range{0.7f, std::numeric_limits<float>::infinity()};
  Range healthy_angle_range{-0.2f, 0.2f};
  float reset_noise_scale = 5e-3f;
  bool exclude_current_positions_from_observation = true;
  int frame_skip = 4;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("forward_reward_weight", forward_reward_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("healthy_reward", healthy_reward);
    visit("terminate_when_unhealthy", terminate_when_unhealthy);
    visit("healthy_state_range", healthy_state_range);
    visit("healthy_z_range", healthy_z_range);
    visit("healthy_angle_range", healthy_angle_range);
    visit("reset_noise_scale", reset_noise_scale);
    visit("exclude_current_positions_from_observation", exclude_current_positions_from_observation);
    visit("frame_skip", frame_skip);
  }
};

class PlanarRunnerTask final : public Task {
 public:
  PlanarRunnerTask(const CompiledModel& model, const HalfCheetahParams& params);
  PlanarRunnerTask(const CompiledModel& model, const Walker2dParams& params);
  PlanarRunnerTask(const CompiledModel& model, const HopperParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  // Every knob of the three tasks; each Params fills it.
  struct Config {
    float forward_reward_weight = 1.0f;
    float ctrl_cost_weight = 0.0f;
    float reset_noise_scale = 0.0f;
    bool exclude_current_positions_from_observation = true;
    int frame_skip = 1;
    // HalfCheetah's reset draws qvel noise from N(0, 1); Hopper's and Walker2d's from U(-1, 1).
    bool uniform_velocity_noise = false;
    float qvel_clip = 0.0f;  // observation clips qvel to +-qvel_clip when > 0
    // Health (Hopper, Walker2d): z = qpos[1], angle = qpos[2], state = (qpos, qvel)[2:].
    bool has_health = false;
    float healthy_reward = 0.0f;
    bool terminate_when_unhealthy = false;
    Range healthy_z_range{0.0f, 0.0f};
    Range healthy_angle_range{0.0f, 0.0f};
    bool check_state_range = false;
    Range healthy_state_range{0.0f, 0.0f};
  };
  template <class Params>
  static Config RunnerConfig(const Params& params);
  template <class Params>
  static Config WalkerConfig(const Params& params);

  PlanarRunnerTask(const CompiledModel& model, const Config& config);
  void BeforePhysics(const Robot& robot, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  bool IsHealthy(const TaskWorkspace& ws) const;

  Config config_;
  float init_z_;
  InfoSlot x_position_, z_distance_, x_velocity_, reward_forward_, reward_ctrl_, reward_survive_;
};

}  // namespace joltgym
