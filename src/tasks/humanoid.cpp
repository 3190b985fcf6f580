#include "tasks/humanoid.h"

#include "tasks/com_terms.h"
#include "tasks/contact_terms.h"
#include "tasks/observation_terms.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr int kFreeJointDofs = 6;  // qfrc_actuator leaves out the root's

}  // namespace

int HumanoidTask::ObservationSize(const CompiledModel& model, const HumanoidParams& p) {
  const int moving_bodies = model.desc().mj_nbody - 1;
  return model.nq() + model.nv() - (p.exclude_current_positions_from_observation ? 2 : 0) +
         (p.include_cinert_in_observation ? 10 * moving_bodies : 0) +
         (p.include_cvel_in_observation ? 6 * moving_bodies : 0) +
         (p.include_qfrc_actuator_in_observation ? model.nv() - kFreeJointDofs : 0) +
         (p.include_cfrc_ext_in_observation ? 6 * moving_bodies : 0);
}

HumanoidTask::HumanoidTask(const CompiledModel& model, const HumanoidParams& params)
    : SizedTask(ObservationSize(model, params), model.nu(), params.frame_skip),
      params_(params),
      dt_(model.timestep() * float(params.frame_skip)) {
  if (model.joints().empty() || model.joints()[0].type != JointType::Free)
    throw std::invalid_argument("Humanoid needs a free root joint first");
}

const std::vector<std::string>& HumanoidTask::info_keys() const {
  static const std::vector<std::string> keys = {"x_position",     "y_position",     "distance_from_origin",
                                                "x_velocity",     "y_velocity",     "reward_survive",
                                                "reward_forward", "reward_ctrl",    "reward_contact"};
  return keys;
}

const std::vector<std::string>& HumanoidTask::reset_info_keys() const { return XYPositionKeys(); }

void HumanoidTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(world, rng, params_.reset_noise_scale, /*uniform_velocity=*/true, ws);
  std::fill(ws.contact_forces.begin(), ws.contact_forces.end(), 0.0f);  // no contacts solved yet
}

void HumanoidTask::ResetInfo(const World& world, TaskWorkspace& ws, float* info) const {
  world.GetQpos(ws.qpos.data());
  WriteXYPosition(ws, info);
}

void HumanoidTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  const int skip = params_.exclude_current_positions_from_observation ? 2 : 0;
  float* out = obs + WritePositionsAndVelocities(world, ws, skip, obs);
  const int moving_bodies = world.model().desc().mj_nbody - 1;
  const bool com_terms = params_.include_cinert_in_observation || params_.include_cvel_in_observation;
  const JPH::RVec3 centre = com_terms ? RobotCentreOfMass(world) : JPH::RVec3::sZero();
  if (params_.include_cinert_in_observation) {
    ComInertia(world, centre, out);
    out += 10 * moving_bodies;
  }
  if (params_.include_cvel_in_observation) {
    ComVelocity(world, centre, out);
    out += 6 * moving_bodies;
  }
  if (params_.include_qfrc_actuator_in_observation) {
    const auto& qfrc = world.actuator_joint_forces();
    out = std::copy(qfrc.begin() + kFreeJointDofs, qfrc.end(), out);
  }
  if (params_.include_cfrc_ext_in_observation) std::copy(ws.contact_forces.begin() + 6, ws.contact_forces.end(), out);
}

StepOutcome HumanoidTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                               float* info) const {
  const JPH::RVec3 before = RobotCentreOfMass(world);
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
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
  const float contact_cost =
      std::clamp(params_.contact_cost_weight * SquaredNorm(ws.contact_forces.data(), int(ws.contact_forces.size())),
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
