#include "tasks/inverted_pendulum.h"

#include "tasks/observation_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_TASK("InvertedPendulum", InvertedPendulumTask, InvertedPendulumParams);

InvertedPendulumTask::InvertedPendulumTask(const CompiledModel& model, const InvertedPendulumParams& params)
    : Task(model, params.frame_skip), params_(params) {
  if (model.nq() < 2) throw std::invalid_argument("InvertedPendulum needs a cart slide and a pole hinge");
  observation_.Add("qpos", model.nq());
  observation_.Add("qvel", model.nv());
  reward_survive_ = info_.Add("reward_survive");
}

void InvertedPendulumTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  SampleNoisyState(robot, rng, params_.reset_noise_scale, /*uniform_velocity=*/true, ws);
}

void InvertedPendulumTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  WritePositionsAndVelocities(robot, ws, 0, obs);
}

StepOutcome InvertedPendulumTask::Score(Robot& robot, const float*, TaskWorkspace& ws, InfoRow info) const {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  bool finite = true;
  for (float v : ws.qpos) finite = finite && std::isfinite(v);
  for (float v : ws.qvel) finite = finite && std::isfinite(v);
  const bool terminated = !finite || std::abs(ws.qpos[1]) > 0.2f;
  const float reward = terminated ? 0.0f : 1.0f;
  info.Set(reward_survive_, reward);
  return {reward, terminated};
}

}  // namespace joltgym
