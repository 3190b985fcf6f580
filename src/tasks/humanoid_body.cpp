#include "tasks/humanoid_body.h"

#include "tasks/com_terms.h"
#include "tasks/observation_terms.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr int kFreeJointDofs = 6;  // qfrc_actuator leaves out the root's

}  // namespace

HumanoidBodyTask::HumanoidBodyTask(const CompiledModel& model, const HumanoidObservationParams& params)
    : Task(model, params.frame_skip), params_(params) {
  if (model.joints().empty() || model.joints()[0].type != JointType::Free)
    throw std::invalid_argument("a humanoid task needs a free root joint first");
  const int moving_bodies = model.desc().mj_nbody - 1;
  AddPositionsAndVelocities(model, params.exclude_current_positions_from_observation ? 2 : 0, observation_);
  observation_.Add("cinert", params.include_cinert_in_observation ? 10 * moving_bodies : 0);
  observation_.Add("cvel", params.include_cvel_in_observation ? 6 * moving_bodies : 0);
  observation_.Add("qfrc_actuator", params.include_qfrc_actuator_in_observation ? model.nv() - kFreeJointDofs : 0);
  observation_.Add("cfrc_ext", params.include_cfrc_ext_in_observation ? 6 * moving_bodies : 0);
  observation_.Add("ten_length", 0);
  observation_.Add("ten_velocity", 0);
  const int tendons = int(model.desc().tendons.size());
  tendon_length_ = info_.Add("tendon_length", /*at_reset=*/true, tendons);
  tendon_velocity_ = info_.Add("tendon_velocity", /*at_reset=*/true, tendons);
}

void HumanoidBodyTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(robot, rng, params_.reset_noise_scale, /*uniform_velocity=*/true, ws);
  std::fill(ws.contact_forces.begin(), ws.contact_forces.end(), 0.0f);  // no contacts solved yet
}

void HumanoidBodyTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  const int skip = params_.exclude_current_positions_from_observation ? 2 : 0;
  float* out = obs + WritePositionsAndVelocities(robot, ws, skip, obs);
  const int moving_bodies = robot.model().desc().mj_nbody - 1;
  const bool com_terms = params_.include_cinert_in_observation || params_.include_cvel_in_observation;
  const JPH::RVec3 centre = com_terms ? RobotCentreOfMass(robot) : JPH::RVec3::sZero();
  if (params_.include_cinert_in_observation) {
    ComInertia(robot, centre, out);
    out += 10 * moving_bodies;
  }
  if (params_.include_cvel_in_observation) {
    ComVelocity(robot, centre, out);
    out += 6 * moving_bodies;
  }
  if (params_.include_qfrc_actuator_in_observation) {
    const auto& qfrc = robot.actuator_joint_forces();
    out = std::copy(qfrc.begin() + kFreeJointDofs, qfrc.end(), out);
  }
  if (params_.include_cfrc_ext_in_observation) std::copy(ws.contact_forces.begin() + 6, ws.contact_forces.end(), out);
}

float HumanoidBodyTask::ContactForceSquaredNorm(const TaskWorkspace& ws) {
  return SquaredNorm(ws.contact_forces.data(), int(ws.contact_forces.size()));
}

void HumanoidBodyTask::WriteTendons(const Robot& robot, const TaskWorkspace& ws, InfoRow info) const {
  const auto& tendons = robot.model().desc().tendons;
  const auto& joints = robot.model().joints();
  double* length = info.Values(tendon_length_);
  double* velocity = info.Values(tendon_velocity_);
  for (size_t t = 0; t < tendons.size(); ++t) {
    double l = 0.0, v = 0.0;
    for (size_t k = 0; k < tendons[t].joints.size(); ++k) {
      const CompiledJoint& joint = joints[size_t(tendons[t].joints[k])];
      l += double(tendons[t].coefs[k]) * ws.qpos[size_t(joint.qposadr)];
      v += double(tendons[t].coefs[k]) * ws.qvel[size_t(joint.dofadr)];
    }
    length[t] = l;
    velocity[t] = v;
  }
}

}  // namespace joltgym
