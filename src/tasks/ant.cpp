#include "tasks/ant.h"

#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace joltgym {

AntTask::AntTask(const CompiledModel& model, const AntParams& params)
    : SizedTask(model.nq() + model.nv() - (params.exclude_current_positions_from_observation ? 2 : 0) +
               (params.include_cfrc_ext_in_observation ? (model.desc().mj_nbody - 1) * 6 : 0),
                model.nu(), params.frame_skip),
      params_(params),
      dt_(model.timestep() * float(params.frame_skip)) {
  if (model.joints().empty() || model.joints()[0].type != JointType::Free)
    throw std::invalid_argument("Ant needs a free root joint first");
  if (params.main_body < 0 || params.main_body >= int(model.bodies().size()))
    throw std::invalid_argument("main_body out of range");
}

const std::vector<std::string>& AntTask::info_keys() const {
  static const std::vector<std::string> keys = {"x_position",  "y_position",    "distance_from_origin",
                                                "x_velocity",  "y_velocity",    "reward_forward",
                                                "reward_ctrl", "reward_contact", "reward_survive"};
  return keys;
}

const std::vector<std::string>& AntTask::reset_info_keys() const { return XYPositionKeys(); }

void AntTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(world, rng, params_.reset_noise_scale, /*uniform_velocity=*/false, ws);
  std::fill(ws.contact_forces.begin(), ws.contact_forces.end(), 0.0f);  // no contacts solved yet
}

void AntTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  WriteXYPosition(ws, info);
}

void AntTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  const int skip = params_.exclude_current_positions_from_observation ? 2 : 0;
  float* out = obs + WritePositionsAndVelocities(world, ws, skip, obs);
  if (!params_.include_cfrc_ext_in_observation) return;
  const auto [lo, hi] = params_.contact_force_range;
  for (size_t i = 6; i < ws.contact_forces.size(); ++i) *out++ = std::clamp(ws.contact_forces[i], lo, hi);
}

StepOutcome AntTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                          float* info) const {
  const JPH::RVec3 before = world.body(params_.main_body).GetPosition();
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  const JPH::RVec3 after = world.body(params_.main_body).GetPosition();
  ExternalContactForces(world, ws.contact_forces.data());
  world.GetQpos(ws.qpos.data());
  world.GetQvel(ws.qvel.data());

  const float x_velocity = float(after.GetX() - before.GetX()) / dt_;
  const float y_velocity = float(after.GetY() - before.GetY()) / dt_;
  bool finite = true;
  for (float v : ws.qpos) finite = finite && std::isfinite(v);
  for (float v : ws.qvel) finite = finite && std::isfinite(v);
  const float z = ws.qpos[2];
  const bool healthy = finite && params_.healthy_z_range[0] <= z && z <= params_.healthy_z_range[1];
  const float forward_reward = params_.forward_reward_weight * x_velocity;
  const float healthy_reward = healthy ? params_.healthy_reward : 0.0f;
  const float ctrl_cost = params_.ctrl_cost_weight * SquaredNorm(action, act_dim());
  float contact_sum = 0.0f;
  const auto [lo, hi] = params_.contact_force_range;
  for (float f : ws.contact_forces) {
    const float c = std::clamp(f, lo, hi);
    contact_sum += c * c;
  }
  const float contact_cost = params_.contact_cost_weight * contact_sum;

  WriteXYPosition(ws, info);
  info[3] = x_velocity;
  info[4] = y_velocity;
  info[5] = forward_reward;
  info[6] = -ctrl_cost;
  info[7] = -contact_cost;
  info[8] = healthy_reward;
  const bool terminated = params_.terminate_when_unhealthy && !healthy;
  return {forward_reward + healthy_reward - ctrl_cost - contact_cost, terminated};
}

}  // namespace joltgym
