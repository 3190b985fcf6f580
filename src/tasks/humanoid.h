// Humanoid: a 17-actuator biped on a free root walks forward; Gymnasium Humanoid-v5.
// Observation: qpos[2:], qvel, cinert, cvel, qfrc_actuator[6:], cfrc_ext (the last four
// without the world body, each switchable). Reward: 1.25 x velocity of the centre of
// mass + 5 while healthy - 0.1 |ctrl|^2 - min(5e-7 |cfrc_ext|^2, 10); ends when the
// root leaves 1 < z < 2.
#pragma once

#include "tasks/task.h"

#include <array>
#include <limits>

namespace joltgym {

struct HumanoidParams {
  float forward_reward_weight = 1.25f;
  float ctrl_cost_weight = 0.1f;
  float contact_cost_weight = 5e-7f;
  std::array<float, 2> contact_cost_range{-std::numeric_limits<float>::infinity(), 10.0f};
  float healthy_reward = 5.0f;
  bool terminate_when_unhealthy = true;
  std::array<float, 2> healthy_z_range{1.0f, 2.0f};
  float reset_noise_scale = 1e-2f;
  bool exclude_current_positions_from_observation = true;
  bool include_cinert_in_observation = true;
  bool include_cvel_in_observation = true;
  bool include_qfrc_actuator_in_observation = true;
  bool include_cfrc_ext_in_observation = true;
  int frame_skip = 5;
};

class HumanoidTask final : public SizedTask {
 public:
  HumanoidTask(const CompiledModel& model, const HumanoidParams& params);

  const std::vector<std::string>& info_keys() const override;
  const std::vector<std::string>& reset_info_keys() const override;

  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const World& world, TaskWorkspace& ws, float* info) const override;
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;
  StepOutcome Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                   float* info) const override;

  // Observation length for a model and the switches (Gymnasium's obs_size).
  static int ObservationSize(const CompiledModel& model, const HumanoidParams& params);

 private:
  HumanoidParams params_;
  float dt_;
};

}  // namespace joltgym
