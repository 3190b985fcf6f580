// Humanoid: walk forward without falling; Gymnasium Humanoid-v5. Reward: 1.25 x velocity
// of the centre of mass + 5 while healthy - 0.1 |ctrl|^2 - min(5e-7 |cfrc_ext|^2, 10);
// ends when the root leaves 1 < z < 2.
#pragma once

#include "tasks/humanoid_body.h"
#include "tasks/observation_terms.h"
#include "tasks/task_params.h"

#include <limits>

namespace joltgym {

// Humanoid-v5's keyword arguments and defaults.
struct HumanoidParams {
  float forward_reward_weight = 1.25f;
  float ctrl_cost_weight = 0.1f;
  float contact_cost_weight = 5e-7f;
  Range contact_cost_range{-std::numeric_limits<float>::infinity(), 10.0f};
  float healthy_reward = 5.0f;
  bool terminate_when_unhealthy = true;
  Range healthy_z_range{1.0f, 2.0f};
  HumanoidObservationParams body;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("forward_reward_weight", forward_reward_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("contact_cost_weight", contact_cost_weight);
    visit("contact_cost_range", contact_cost_range);
    visit("healthy_reward", healthy_reward);
    visit("terminate_when_unhealthy", terminate_when_unhealthy);
    visit("healthy_z_range", healthy_z_range);
    body.VisitFields(visit);
  }
};

class HumanoidTask final : public HumanoidBodyTask {
 public:
  HumanoidTask(const CompiledModel& model, const HumanoidParams& params);

  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;

 private:
  void BeforePhysics(const Robot& robot, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;

  HumanoidParams params_;
  XYPositionInfo position_info_;
  InfoSlot x_velocity_, y_velocity_, reward_survive_, reward_forward_, reward_ctrl_, reward_contact_;
};

}  // namespace joltgym
