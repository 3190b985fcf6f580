#include "tasks/humanoid.h"

#include "tasks/com_terms.h"
#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"

#include <algorithm>

namespace joltgym {

HumanoidTask::HumanoidTask(const CompiledModel& model, const HumanoidParams& params)
    : HumanoidBodyTask(model, params.body), params_(params), dt_(model.timestep() * float(params.body.frame_skip)) {}

const std::vector<std::string>& HumanoidTask::info_keys() const {
  static const std::vector<std::string> keys = {"x_position",     "y_position",     "distance_from_origin",
                                                "x_velocity",     "y_velocity",     "reward_survive",
                                                "reward_forward", "reward_ctrl",    "reward_contact"};
  return keys;
}

const std::vector<std::string>& HumanoidTask::reset_info_keys() const { return XYPositionKeys(); }

void HumanoidTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  WriteXYPosition(ws, info);
}

StepOutcome HumanoidTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                               float* info) const {
  const JPH::RVec3 before = RobotCentreOfMass(world);
  for (int i = 0; i < params_.body.frame_skip; ++i) world.Step(action, ctx);
  const JPH::RVec3 after = RobotCentreOfMass(world);
  ExternalContactForces(world, ws.contact_forces.data());
  world.GetQpos(ws.qpos.data());

  const float x_velocity = float(after.GetX() - before.GetX()) / dt_;
  const float y_velocity = float(after.GetY() - before.GetY()) / dt_;
  const float z = ws.qpos[2];
  const bool healthy = params_.healthy_z_range[0] < z && z < params_.healthy_z_range[1];  // false for NaN
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float healthy_reward = healthy ? params_.healthy_reward : 0.0f;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  const float contact_cost = std::clamp(params_.contact_cost_weight * ContactForceSquaredNorm(ws),
                                        params_.contact_cost_range[0], params_.contact_cost_range[1]);

  WriteXYPosition(ws, info);
  info[3] = x_velocity;
  info[4] = y_velocity;
  info[5] = healthy_reward;
  info[6] = forward_reward;
  info[7] = -ctrl_cost;
  info[8] = -contact_cost;
  const bool terminated = params_.terminate_when_unhealthy && !healthy;
  return {forward_reward + healthy_reward - ctrl_cost - contact_cost, terminated};
}

}  // namespace joltgym
