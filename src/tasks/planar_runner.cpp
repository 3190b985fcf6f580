#include "tasks/planar_runner.h"

#include "tasks/observation_terms.h"

#include <stdexcept>

namespace joltgym {

PlanarRunnerTask::PlanarRunnerTask(const CompiledModel& model, const PlanarRunnerParams& params)
    : SizedTask(model.nq() + model.nv() - (params.exclude_current_positions_from_observation ? 1 : 0),
                model.nu(), params.frame_skip),
      params_(params),
      dt_(model.timestep() * float(params.frame_skip)) {
  if (model.nq() < 3 || model.joints().size() < 3 || model.joints()[0].type != JointType::Slide)
    throw std::invalid_argument("a planar runner needs a root of rootx (slide), rootz, rooty as its first joints");
  init_z_ = model.qpos0()[1];
  info_keys_ = {"x_position"};
  reset_info_keys_ = {"x_position"};
  if (params.has_health) {
    info_keys_.push_back("z_distance_from_origin");
    reset_info_keys_.push_back("z_distance_from_origin");
  }
  for (const char* key : {"x_velocity", "reward_forward", "reward_ctrl"}) info_keys_.push_back(key);
  if (params.has_health) info_keys_.push_back("reward_survive");
}

bool PlanarRunnerTask::IsHealthy(const TaskWorkspace& ws) const {
  if (!params_.has_health) return true;
  const auto inside = [](float v, const std::array<float, 2>& range) { return range[0] < v && v < range[1]; };
  if (!inside(ws.qpos[1], params_.healthy_z_range) || !inside(ws.qpos[2], params_.healthy_angle_range)) return false;
  if (params_.check_state_range) {
    for (size_t i = 2; i < ws.qpos.size(); ++i)
      if (!inside(ws.qpos[i], params_.healthy_state_range)) return false;
    for (float v : ws.qvel)
      if (!inside(v, params_.healthy_state_range)) return false;
  }
  return true;
}

void PlanarRunnerTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(world, rng, params_.reset_noise_scale, params_.uniform_velocity_noise, ws);
}

void PlanarRunnerTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  info[0] = ws.qpos[0];
  if (params_.has_health) info[1] = ws.qpos[1] - init_z_;
}

void PlanarRunnerTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  const int skip = params_.exclude_current_positions_from_observation ? 1 : 0;
  const int written = WritePositionsAndVelocities(world, ws, skip, obs);
  if (params_.qvel_clip > 0.0f)
    for (int i = written - int(ws.qvel.size()); i < written; ++i)
      obs[i] = Clip(obs[i], params_.qvel_clip);
}

StepOutcome PlanarRunnerTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                                   float* info) const {
  world.GetQpos(ws.qpos.data());
  const float x_before = ws.qpos[0];
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  world.GetQpos(ws.qpos.data());
  world.GetQvel(ws.qvel.data());
  const float x_after = ws.qpos[0];
  const float x_velocity = (x_after - x_before) / dt_;
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  const bool healthy = IsHealthy(ws);
  const float healthy_reward = params_.has_health && healthy ? params_.healthy_reward : 0.0f;
  int k = 0;
  info[k++] = x_after;
  if (params_.has_health) info[k++] = ws.qpos[1] - init_z_;
  info[k++] = x_velocity;
  info[k++] = forward_reward;
  info[k++] = -ctrl_cost;
  if (params_.has_health) info[k++] = healthy_reward;
  const bool terminated = params_.has_health && params_.terminate_when_unhealthy && !healthy;
  return {forward_reward + healthy_reward - ctrl_cost, terminated};
}

}  // namespace joltgym
