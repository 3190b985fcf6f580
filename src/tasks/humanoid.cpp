#include "tasks/humanoid.h"

#include "tasks/com_terms.h"
#include "tasks/contact_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Humanoid", HumanoidTask, HumanoidParams);

HumanoidTask::HumanoidTask(const CompiledModel& model, const HumanoidParams& params)
    : HumanoidBodyTask(model, params.body), params_(params), position_info_(info_) {
  x_velocity_ = info_.Add("x_velocity");
  y_velocity_ = info_.Add("y_velocity");
  reward_survive_ = info_.Add("reward_survive");
  reward_forward_ = info_.Add("reward_forward");
  reward_ctrl_ = info_.Add("reward_ctrl");
  reward_contact_ = info_.Add("reward_contact");
}

void HumanoidTask::ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  position_info_.Write(ws, info);
  WriteTendons(robot, ws, info);
}

void HumanoidTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  ws.tracked_before = RobotCentreOfMass(robot);
}

StepOutcome HumanoidTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  const JPH::RVec3 before = ws.tracked_before;
  const JPH::RVec3 after = RobotCentreOfMass(robot);
  ExternalContactForces(robot, ws.contact_forces.data());
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());

  const float x_velocity = float(after.GetX() - before.GetX()) / dt();
  const float y_velocity = float(after.GetY() - before.GetY()) / dt();
  const float z = ws.qpos[2];
  const bool healthy = params_.healthy_z_range[0] < z && z < params_.healthy_z_range[1];  // false for NaN
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float healthy_reward = healthy ? params_.healthy_reward : 0.0f;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  const float contact_cost = std::clamp(params_.contact_cost_weight * ContactForceSquaredNorm(ws),
                                        params_.contact_cost_range[0], params_.contact_cost_range[1]);

  position_info_.Write(ws, info);
  WriteTendons(robot, ws, info);
  info.Set(x_velocity_, x_velocity);
  info.Set(y_velocity_, y_velocity);
  info.Set(reward_survive_, healthy_reward);
  info.Set(reward_forward_, forward_reward);
  info.Set(reward_ctrl_, -ctrl_cost);
  info.Set(reward_contact_, -contact_cost);
  const bool terminated = params_.terminate_when_unhealthy && !healthy;
  return {forward_reward + healthy_reward - ctrl_cost - contact_cost, terminated};
}

}  // namespace joltgym
