#include "tasks/half_cheetah.h"

#include "tasks/observation_terms.h"

#include <stdexcept>

namespace joltgym {

HalfCheetahTask::HalfCheetahTask(const CompiledModel& model, const HalfCheetahParams& params)
    : params_(params),
      obs_dim_(model.nq() + model.nv() - (params.exclude_current_positions_from_observation ? 1 : 0)),
      act_dim_(model.nu()),
      dt_(model.timestep() * float(params.frame_skip)) {
  if (params.frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1");
  if (model.nq() < 1 || model.joints().empty() || model.joints()[0].type != JointType::Slide)
    throw std::invalid_argument("HalfCheetah needs a model whose first joint slides along x");
}

const std::vector<std::string>& HalfCheetahTask::info_keys() const {
  static const std::vector<std::string> keys = {"x_position", "x_velocity", "reward_forward", "reward_ctrl"};
  return keys;
}

const std::vector<std::string>& HalfCheetahTask::reset_info_keys() const {
  static const std::vector<std::string> keys = {"x_position"};
  return keys;
}

void HalfCheetahTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  UniformPositionNormalVelocityNoise(world, rng, params_.reset_noise_scale, ws);
}

void HalfCheetahTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  info[0] = ws.qpos[0];
}

void HalfCheetahTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  WritePositionsAndVelocities(world, ws, params_.exclude_current_positions_from_observation ? 1 : 0, obs);
}

StepOutcome HalfCheetahTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                                  float* info) const {
  world.GetQpos(ws.qpos.data());
  const float x_before = ws.qpos[0];
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  world.GetQpos(ws.qpos.data());
  const float x_after = ws.qpos[0];
  const float x_velocity = (x_after - x_before) / dt_;
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim_);
  info[0] = x_after;
  info[1] = x_velocity;
  info[2] = forward_reward;
  info[3] = -ctrl_cost;
  return {forward_reward - ctrl_cost, false};
}

}  // namespace joltgym
