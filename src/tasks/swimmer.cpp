#include "tasks/swimmer.h"

#include "tasks/observation_terms.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

SwimmerTask::SwimmerTask(const CompiledModel& model, const SwimmerParams& params)
    : SizedTask(model.nq() + model.nv() - (params.exclude_current_positions_from_observation ? 2 : 0),
                model.nu(), params.frame_skip),
      params_(params),
      dt_(model.timestep() * float(params.frame_skip)) {
  if (model.nq() < 3) throw std::invalid_argument("Swimmer needs a planar root (slide x, slide y, hinge z)");
}

const std::vector<std::string>& SwimmerTask::info_keys() const {
  static const std::vector<std::string> keys = {"x_position", "y_position",     "distance_from_origin",
                                                "x_velocity", "y_velocity",     "reward_forward",
                                                "reward_ctrl"};
  return keys;
}

const std::vector<std::string>& SwimmerTask::reset_info_keys() const { return XYPositionKeys(); }

void SwimmerTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(world, rng, params_.reset_noise_scale, /*uniform_velocity=*/true, ws);
}

void SwimmerTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  WriteXYPosition(ws, info);
}

void SwimmerTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  WritePositionsAndVelocities(world, ws, params_.exclude_current_positions_from_observation ? 2 : 0, obs);
}

StepOutcome SwimmerTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                              float* info) const {
  world.GetQpos(ws.qpos.data());
  const float x_before = ws.qpos[0], y_before = ws.qpos[1];
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  world.GetQpos(ws.qpos.data());
  const float x_velocity = (ws.qpos[0] - x_before) / dt_;
  const float y_velocity = (ws.qpos[1] - y_before) / dt_;
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  WriteXYPosition(ws, info);
  info[3] = x_velocity;
  info[4] = y_velocity;
  info[5] = forward_reward;
  info[6] = -ctrl_cost;
  return {forward_reward - ctrl_cost, false};
}

}  // namespace joltgym
