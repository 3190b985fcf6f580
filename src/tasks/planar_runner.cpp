#include "tasks/planar_runner.h"

#include "tasks/observation_terms.h"
#include "tasks/task_registry.h"

#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_TASK("HalfCheetah", PlanarRunnerTask, HalfCheetahParams);
JOLTGYM_REGISTER_TASK("Hopper", PlanarRunnerTask, HopperParams);
JOLTGYM_REGISTER_TASK("Walker2d", PlanarRunnerTask, Walker2dParams);

template <class Params>
PlanarRunnerTask::Config PlanarRunnerTask::RunnerConfig(const Params& p) {
  Config c;
  c.forward_reward_weight = p.forward_reward_weight;
  c.ctrl_cost_weight = p.ctrl_cost_weight;
  c.reset_noise_scale = p.reset_noise_scale;
  c.exclude_current_positions_from_observation = p.exclude_current_positions_from_observation;
  c.frame_skip = p.frame_skip;
  return c;
}

template <class Params>
PlanarRunnerTask::Config PlanarRunnerTask::WalkerConfig(const Params& p) {
  Config c = RunnerConfig(p);
  c.uniform_velocity_noise = true;
  c.qvel_clip = 10.0f;
  c.has_health = true;
  c.healthy_reward = p.healthy_reward;
  c.terminate_when_unhealthy = p.terminate_when_unhealthy;
  c.healthy_z_range = p.healthy_z_range;
  c.healthy_angle_range = p.healthy_angle_range;
  return c;
}

PlanarRunnerTask::PlanarRunnerTask(const CompiledModel& model, const HalfCheetahParams& params)
    : PlanarRunnerTask(model, RunnerConfig(params)) {}

PlanarRunnerTask::PlanarRunnerTask(const CompiledModel& model, const Walker2dParams& params)
    : PlanarRunnerTask(model, WalkerConfig(params)) {}

PlanarRunnerTask::PlanarRunnerTask(const CompiledModel& model, const HopperParams& params)
    : PlanarRunnerTask(model, [&params] {
        Config c = WalkerConfig(params);
        c.check_state_range = true;
        c.healthy_state_range = params.healthy_state_range;
        return c;
      }()) {}

PlanarRunnerTask::PlanarRunnerTask(const CompiledModel& model, const Config& config)
    : Task(model, config.frame_skip), config_(config) {
  if (model.nq() < 3 || model.joints().size() < 3 || model.joints()[0].type != JointType::Slide)
    throw std::invalid_argument("a planar runner needs a root of rootx (slide), rootz, rooty as its first joints");
  init_z_ = model.qpos0()[1];
  AddPositionsAndVelocities(model, config.exclude_current_positions_from_observation ? 1 : 0, observation_);
  x_position_ = info_.Add("x_position", /*at_reset=*/true);
  if (config.has_health) z_distance_ = info_.Add("z_distance_from_origin", /*at_reset=*/true);
  x_velocity_ = info_.Add("x_velocity");
  reward_forward_ = info_.Add("reward_forward");
  reward_ctrl_ = info_.Add("reward_ctrl");
  if (config.has_health) reward_survive_ = info_.Add("reward_survive");
}

bool PlanarRunnerTask::IsHealthy(const TaskWorkspace& ws) const {
  if (!config_.has_health) return true;
  const auto inside = [](float v, const Range& range) { return range[0] < v && v < range[1]; };
  if (!inside(ws.qpos[1], config_.healthy_z_range) || !inside(ws.qpos[2], config_.healthy_angle_range)) return false;
  if (config_.check_state_range) {
    for (size_t i = 2; i < ws.qpos.size(); ++i)
      if (!inside(ws.qpos[i], config_.healthy_state_range)) return false;
    for (float v : ws.qvel)
      if (!inside(v, config_.healthy_state_range)) return false;
  }
  return true;
}

void PlanarRunnerTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(robot, rng, config_.reset_noise_scale, config_.uniform_velocity_noise, ws);
}

void PlanarRunnerTask::ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  info.Set(x_position_, ws.qpos[0]);
  info.Set(z_distance_, ws.qpos[1] - init_z_);
}

void PlanarRunnerTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  const int skip = config_.exclude_current_positions_from_observation ? 1 : 0;
  const int written = WritePositionsAndVelocities(robot, ws, skip, obs);
  if (config_.qvel_clip > 0.0f)
    for (int i = written - int(ws.qvel.size()); i < written; ++i)
      obs[i] = Clip(obs[i], config_.qvel_clip);
}

void PlanarRunnerTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  robot.GetQpos(ws.qpos.data());
  ws.tracked_before = JPH::RVec3(ws.qpos[0], 0.0f, 0.0f);
}

StepOutcome PlanarRunnerTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const float x_before = float(ws.tracked_before.GetX());
  const float x_after = ws.qpos[0];
  const float x_velocity = (x_after - x_before) / dt();
  const float forward_reward = config_.forward_reward_weight * x_velocity;
  const float ctrl_cost = config_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  const bool healthy = IsHealthy(ws);
  const float healthy_reward = config_.has_health && healthy ? config_.healthy_reward : 0.0f;
  info.Set(x_position_, x_after);
  info.Set(z_distance_, ws.qpos[1] - init_z_);
  info.Set(x_velocity_, x_velocity);
  info.Set(reward_forward_, forward_reward);
  info.Set(reward_ctrl_, -ctrl_cost);
  info.Set(reward_survive_, healthy_reward);
  const bool terminated = config_.has_health && config_.terminate_when_unhealthy && !healthy;
  return {forward_reward + healthy_reward - ctrl_cost, terminated};
}

}  // namespace joltgym
