#include "tasks/humanoid_standup.h"

#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>

namespace joltgym {

JOLTGYM_REGISTER_TASK("HumanoidStandup", HumanoidStandupTask, HumanoidStandupParams);

HumanoidStandupTask::HumanoidStandupTask(const CompiledModel& model, const HumanoidStandupParams& params)
    : HumanoidBodyTask(model, params.body),
      params_(params),
      timestep_(model.timestep()),
      initial_z_(model.qpos0()[2]) {
  x_position_ = info_.Add("x_position", /*at_reset=*/true);
  y_position_ = info_.Add("y_position", /*at_reset=*/true);
  z_distance_ = info_.Add("z_distance_from_origin", /*at_reset=*/true);
  reward_linup_ = info_.Add("reward_linup");
  reward_quadctrl_ = info_.Add("reward_quadctrl");
  reward_impact_ = info_.Add("reward_impact");
}

void HumanoidStandupTask::WritePositionInfo(const TaskWorkspace& ws, InfoRow info) const {
  info.Set(x_position_, ws.qpos[0]);
  info.Set(y_position_, ws.qpos[1]);
  info.Set(z_distance_, ws.qpos[2] - initial_z_);
}

void HumanoidStandupTask::ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  WritePositionInfo(ws, info);
  WriteTendons(robot, ws, info);
}

StepOutcome HumanoidStandupTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  ExternalContactForces(robot, ws.contact_forces.data());
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());

  // v5 divides by the model timestep, not by the env step dt.
  const float uph = params_.uph_cost_weight * ws.qpos[2] / timestep_;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  const float impact_cost = std::clamp(params_.impact_cost_weight * ContactForceSquaredNorm(ws),
                                       params_.impact_cost_range[0], params_.impact_cost_range[1]);
  WritePositionInfo(ws, info);
  WriteTendons(robot, ws, info);
  info.Set(reward_linup_, uph);
  info.Set(reward_quadctrl_, -ctrl_cost);
  info.Set(reward_impact_, -impact_cost);
  return {uph - ctrl_cost - impact_cost + 1.0f, false};
}

}  // namespace joltgym
