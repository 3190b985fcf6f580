#include "tasks/suite_task.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

// dm_control's compute_n_steps: control steps must be whole multiples of the physics timestep.
int PhysicsStepsPerControlStep(float control_timestep, float timestep) {
  const double ratio = double(control_timestep) / double(timestep);
  const long steps = std::lround(ratio);
  if (steps < 1 || std::abs(ratio - double(steps)) > 1e-4 * ratio)
    throw std::invalid_argument("the control timestep " + std::to_string(control_timestep) +
                                " s is not a whole number of the model's timestep " + std::to_string(timestep) + " s");
  return int(steps);
}

int CheckedRepeat(int action_repeat) {
  if (action_repeat < 1) throw std::invalid_argument("action_repeat must be >= 1, got " + std::to_string(action_repeat));
  return action_repeat;
}

}  // namespace

SuiteTask::SuiteTask(const CompiledModel& model, const SuiteParams& params, float control_timestep)
    : Task(model, PhysicsStepsPerControlStep(control_timestep, model.timestep()) * CheckedRepeat(params.action_repeat),
           params.action_repeat),
      dict_observation_(params.dict_observation) {}

void SuiteTask::AddObservation(std::string name, int size) {
  if (dict_observation_) observation_.AddKey(name, observation_.size(), size);
  observation_.Add(std::move(name), size);
}

StepOutcome SuiteTask::Score(Robot& robot, const float* /*action*/, TaskWorkspace& ws, InfoRow /*info*/) const {
  const double reward = ws.repeated_reward + double(Reward(robot, ws));
  ws.repeated_reward = 0.0;
  return {float(reward), false};
}

}  // namespace joltgym
