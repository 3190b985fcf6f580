#include "tasks/ant.h"

#include "tasks/contact_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Ant", AntTask, AntParams);

AntTask::AntTask(const CompiledModel& model, const AntParams& params)
    : Task(model, params.frame_skip),
      params_(params),
      main_body_(FindMovingMjBody(model.desc(), params.main_body, "main_body")),
      position_info_(info_) {
  if (model.joints().empty() || model.joints()[0].type != JointType::Free)
    throw std::invalid_argument("Ant needs a free root joint first");
  AddPositionsAndVelocities(model, params.exclude_current_positions_from_observation ? 2 : 0, observation_);
  observation_.Add("cfrc_ext", params.include_cfrc_ext_in_observation ? (model.desc().mj_nbody - 1) * 6 : 0);
  x_velocity_ = info_.Add("x_velocity");
  y_velocity_ = info_.Add("y_velocity");
  reward_forward_ = info_.Add("reward_forward");
  reward_ctrl_ = info_.Add("reward_ctrl");
  reward_contact_ = info_.Add("reward_contact");
  reward_survive_ = info_.Add("reward_survive");
}

void AntTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(robot, rng, params_.reset_noise_scale, /*uniform_velocity=*/false, ws);
  std::fill(ws.contact_forces.begin(), ws.contact_forces.end(), 0.0f);  // no contacts solved yet
}

void AntTask::ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  position_info_.Write(ws, info);
}

void AntTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  const int skip = params_.exclude_current_positions_from_observation ? 2 : 0;
  float* out = obs + WritePositionsAndVelocities(robot, ws, skip, obs);
  if (!params_.include_cfrc_ext_in_observation) return;
  const auto [lo, hi] = params_.contact_force_range;
  for (size_t i = 6; i < ws.contact_forces.size(); ++i) *out++ = std::clamp(ws.contact_forces[i], lo, hi);
}

void AntTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  ws.tracked_before = robot.MjBodyPosition(main_body_);
}

StepOutcome AntTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  const JPH::RVec3 before = ws.tracked_before;
  const JPH::RVec3 after = robot.MjBodyPosition(main_body_);
  ExternalContactForces(robot, ws.contact_forces.data());
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());

  const float x_velocity = float(after.GetX() - before.GetX()) / dt();
  const float y_velocity = float(after.GetY() - before.GetY()) / dt();
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

  position_info_.Write(ws, info);
  info.Set(x_velocity_, x_velocity);
  info.Set(y_velocity_, y_velocity);
  info.Set(reward_forward_, forward_reward);
  info.Set(reward_ctrl_, -ctrl_cost);
  info.Set(reward_contact_, -contact_cost);
  info.Set(reward_survive_, healthy_reward);
  const bool terminated = params_.terminate_when_unhealthy && !healthy;
  return {forward_reward + healthy_reward - ctrl_cost - contact_cost, terminated};
}

}  // namespace joltgym
