#include "tasks/swimmer.h"

#include "tasks/task_registry.h"

#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Swimmer", SwimmerTask, SwimmerParams);

SwimmerTask::SwimmerTask(const CompiledModel& model, const SwimmerParams& params)
    : Task(model, params.frame_skip), params_(params), position_info_(info_) {
  if (model.nq() < 3) throw std::invalid_argument("Swimmer needs a planar root (slide x, slide y, hinge z)");
  AddPositionsAndVelocities(model, params.exclude_current_positions_from_observation ? 2 : 0, observation_);
  x_velocity_ = info_.Add("x_velocity");
  y_velocity_ = info_.Add("y_velocity");
  reward_forward_ = info_.Add("reward_forward");
  reward_ctrl_ = info_.Add("reward_ctrl");
}

void SwimmerTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(robot, rng, params_.reset_noise_scale, /*uniform_velocity=*/true, ws);
}

void SwimmerTask::ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  position_info_.Write(ws, info);
}

void SwimmerTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  WritePositionsAndVelocities(robot, ws, params_.exclude_current_positions_from_observation ? 2 : 0, obs);
}

void SwimmerTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  robot.GetQpos(ws.qpos.data());
  ws.tracked_before = JPH::RVec3(ws.qpos[0], ws.qpos[1], 0.0f);
}

StepOutcome SwimmerTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  const float x_velocity = (ws.qpos[0] - float(ws.tracked_before.GetX())) / dt();
  const float y_velocity = (ws.qpos[1] - float(ws.tracked_before.GetY())) / dt();
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  position_info_.Write(ws, info);
  info.Set(x_velocity_, x_velocity);
  info.Set(y_velocity_, y_velocity);
  info.Set(reward_forward_, forward_reward);
  info.Set(reward_ctrl_, -ctrl_cost);
  return {forward_reward - ctrl_cost, false};
}

}  // namespace joltgym
