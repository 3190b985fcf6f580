#include "tasks/inverted_pendulum.h"

#include "tasks/observation_terms.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

InvertedPendulumTask::InvertedPendulumTask(const CompiledModel& model, const InvertedPendulumParams& params)
    : SizedTask(model.nq() + model.nv(),
                model.nu(), params.frame_skip),
      params_(params) {
  if (model.nq() < 2) throw std::invalid_argument("InvertedPendulum needs a cart slide and a pole hinge");
}

const std::vector<std::string>& InvertedPendulumTask::info_keys() const {
  static const std::vector<std::string> keys = {"reward_survive"};
  return keys;
}

const std::vector<std::string>& InvertedPendulumTask::reset_info_keys() const {
  static const std::vector<std::string> keys;
  return keys;
}

void InvertedPendulumTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(world, rng, params_.reset_noise_scale, /*uniform_velocity=*/true, ws);
}

void InvertedPendulumTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  WritePositionsAndVelocities(world, ws, 0, obs);
}

StepOutcome InvertedPendulumTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace& ws,
                                       float* info) const {
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  world.GetQpos(ws.qpos.data());
  world.GetQvel(ws.qvel.data());
  bool finite = true;
  for (float v : ws.qpos) finite = finite && std::isfinite(v);
  for (float v : ws.qvel) finite = finite && std::isfinite(v);
  const bool terminated = !finite || std::abs(ws.qpos[1]) > 0.2f;
  info[0] = terminated ? 0.0f : 1.0f;
  return {info[0], terminated};
}

}  // namespace joltgym
