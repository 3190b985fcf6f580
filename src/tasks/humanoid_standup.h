// HumanoidStandup: the humanoid starts lying on its back and should stand up; Gymnasium
// HumanoidStandup-v5. Reward: z of the root / model timestep - 0.1 |ctrl|^2
// - min(0.5e-6 |cfrc_ext|^2, 10) + 1; never terminates.
#pragma once

#include "tasks/humanoid_body.h"
#include "tasks/task_params.h"

#include <limits>

namespace joltgym {

// HumanoidStandup-v5's keyword arguments and defaults.
struct HumanoidStandupParams {
  // Weight of the height term. HumanoidStandup-v5 accepts uph_cost_weight but never
  // applies it; here it multiplies the term (the default, 1, gives v5's reward).
  float uph_cost_weight = 1.0f;
  float ctrl_cost_weight = 0.1f;
  float impact_cost_weight = 0.5e-6f;
  Range impact_cost_range{-std::numeric_limits<float>::infinity(), 10.0f};
  HumanoidObservationParams body;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("uph_cost_weight", uph_cost_weight);
    visit("ctrl_cost_weight", ctrl_cost_weight);
    visit("impact_cost_weight", impact_cost_weight);
    visit("impact_cost_range", impact_cost_range);
    body.VisitFields(visit);
  }
};

class HumanoidStandupTask final : public HumanoidBodyTask {
 public:
  HumanoidStandupTask(const CompiledModel& model, const HumanoidStandupParams& params);

  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;

 private:
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  // x, y and the root's height above its initial height, reported at reset too.
  void WritePositionInfo(const TaskWorkspace& ws, InfoRow info) const;

  HumanoidStandupParams params_;
  float timestep_;
  float initial_z_;
  InfoSlot x_position_, y_position_, z_distance_, reward_linup_, reward_quadctrl_, reward_impact_;
};

}  // namespace joltgym
