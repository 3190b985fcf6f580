#include "tasks/inverted_double_pendulum.h"

#include "tasks/observation_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_TASK("InvertedDoublePendulum", InvertedDoublePendulumTask, InvertedDoublePendulumParams);

namespace {
constexpr float kObsClip = 10.0f;
}

InvertedDoublePendulumTask::InvertedDoublePendulumTask(const CompiledModel& model,
                                                       const InvertedDoublePendulumParams& params)
    : Task(model, params.frame_skip), params_(params) {
  if (model.nq() < 3 || model.desc().sites.empty())
    throw std::invalid_argument("InvertedDoublePendulum needs a cart, two hinges and a tip site");
  observation_.Add("qpos_cart", 1);
  observation_.Add("sin_qpos_poles", model.nq() - 1);
  observation_.Add("cos_qpos_poles", model.nq() - 1);
  observation_.Add("qvel", model.nv());
  observation_.Add("qfrc_constraint_cart", 1);
  reward_survive_ = info_.Add("reward_survive");
  distance_penalty_ = info_.Add("distance_penalty");
  velocity_penalty_ = info_.Add("velocity_penalty");
}

void InvertedDoublePendulumTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(robot, rng, params_.reset_noise_scale, /*uniform_velocity=*/false, ws);
}

void InvertedDoublePendulumTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const size_t nq = ws.qpos.size();
  *obs++ = ws.qpos[0];
  for (size_t i = 1; i < nq; ++i) *obs++ = std::sin(ws.qpos[i]);
  for (size_t i = 1; i < nq; ++i) *obs++ = std::cos(ws.qpos[i]);
  for (float v : ws.qvel) *obs++ = Clip(v, kObsClip);
  *obs = Clip(robot.JointLimitForce(0), kObsClip);
}

StepOutcome InvertedDoublePendulumTask::Score(Robot& robot, const float*, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQvel(ws.qvel.data());
  const JPH::RVec3 tip = robot.SitePosition(0);
  const float x = float(tip.GetX()), y = float(tip.GetZ());
  const bool terminated = y <= 1.0f;
  const float dist_penalty = 0.01f * x * x + (y - 2.0f) * (y - 2.0f);
  const float v1 = ws.qvel[1], v2 = ws.qvel[2];
  const float vel_penalty = 1e-3f * v1 * v1 + 5e-3f * v2 * v2;
  const float alive_bonus = terminated ? 0.0f : params_.healthy_reward;
  info.Set(reward_survive_, alive_bonus);
  info.Set(distance_penalty_, -dist_penalty);
  info.Set(velocity_penalty_, -vel_penalty);
  return {alive_bonus - dist_penalty - vel_penalty, terminated};
}

}  // namespace joltgym
