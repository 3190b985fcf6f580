#include "tasks/inverted_double_pendulum.h"

#include "tasks/observation_terms.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

namespace {
constexpr float kObsClip = 10.0f;
}

InvertedDoublePendulumTask::InvertedDoublePendulumTask(const CompiledModel& model,
                                                       const InvertedDoublePendulumParams& params)
    : SizedTask(1 + 2 * (model.nq() - 1) + model.nv() + 1,
                model.nu(), params.frame_skip),
      params_(params) {
  if (model.nq() < 3 || model.desc().sites.empty())
    throw std::invalid_argument("InvertedDoublePendulum needs a cart, two hinges and a tip site");
}

const std::vector<std::string>& InvertedDoublePendulumTask::info_keys() const {
  static const std::vector<std::string> keys = {"reward_survive", "distance_penalty", "velocity_penalty"};
  return keys;
}

const std::vector<std::string>& InvertedDoublePendulumTask::reset_info_keys() const {
  static const std::vector<std::string> keys;
  return keys;
}

void InvertedDoublePendulumTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(world, rng, params_.reset_noise_scale, /*uniform_velocity=*/false, ws);
}

void InvertedDoublePendulumTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  world.GetQpos(ws.qpos.data());
  world.GetQvel(ws.qvel.data());
  const size_t nq = ws.qpos.size();
  *obs++ = ws.qpos[0];
  for (size_t i = 1; i < nq; ++i) *obs++ = std::sin(ws.qpos[i]);
  for (size_t i = 1; i < nq; ++i) *obs++ = std::cos(ws.qpos[i]);
  for (float v : ws.qvel) *obs++ = Clip(v, kObsClip);
  *obs = Clip(world.JointLimitForce(0), kObsClip);
}

StepOutcome InvertedDoublePendulumTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                                             float* info) const {
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  world.GetQvel(ws.qvel.data());
  const JPH::RVec3 tip = world.SitePosition(0);
  const float x = float(tip.GetX()), y = float(tip.GetZ());
  const bool terminated = y <= 1.0f;
  const float dist_penalty = 0.01f * x * x + (y - 2.0f) * (y - 2.0f);
  const float v1 = ws.qvel[1], v2 = ws.qvel[2];
  const float vel_penalty = 1e-3f * v1 * v1 + 5e-3f * v2 * v2;
  const float alive_bonus = terminated ? 0.0f : params_.healthy_reward;
  info[0] = alive_bonus;
  info[1] = -dist_penalty;
  info[2] = -vel_penalty;
  return {alive_bonus - dist_penalty - vel_penalty, terminated};
}

}  // namespace joltgym
