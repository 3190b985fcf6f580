#include "tasks/humanoid_standup.h"

#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"

#include <algorithm>

namespace joltgym {

HumanoidStandupTask::HumanoidStandupTask(const CompiledModel& model, const HumanoidStandupParams& params)
    : HumanoidBodyTask(model, params.body),
      params_(params),
      timestep_(model.timestep()),
      initial_z_(model.qpos0()[2]) {}

const std::vector<std::string>& HumanoidStandupTask::info_keys() const {
  static const std::vector<std::string> keys = {"x_position",  "y_position",      "z_distance_from_origin",
                                                "reward_linup", "reward_quadctrl", "reward_impact"};
  return keys;
}

const std::vector<std::string>& HumanoidStandupTask::reset_info_keys() const {
  static const std::vector<std::string> keys = {"x_position", "y_position", "z_distance_from_origin"};
  return keys;
}

void HumanoidStandupTask::WritePositionInfo(const TaskWorkspace& ws, float* info) const {
  info[0] = ws.qpos[0];
  info[1] = ws.qpos[1];
  info[2] = ws.qpos[2] - initial_z_;
}

void HumanoidStandupTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  WritePositionInfo(ws, info);
}

StepOutcome HumanoidStandupTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                                      float* info) const {
  for (int i = 0; i < params_.body.frame_skip; ++i) world.Step(action, ctx);
  ExternalContactForces(world, ws.contact_forces.data());
  world.GetQpos(ws.qpos.data());

  // v5 divides by the model timestep, not by the env step dt.
  const float uph = params_.uph_cost_weight * ws.qpos[2] / timestep_;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  const float impact_cost = std::clamp(params_.impact_cost_weight * ContactForceSquaredNorm(ws),
                                       params_.impact_cost_range[0], params_.impact_cost_range[1]);
  WritePositionInfo(ws, info);
  info[3] = uph;
  info[4] = -ctrl_cost;
  info[5] = -impact_cost;
  return {uph - ctrl_cost - impact_cost + 1.0f, false};
}

}  // namespace joltgym
