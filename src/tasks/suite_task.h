// The DeepMind Control Suite's tasks (dm_control/suite): a reward in [0, 1] of the state after each
// control step, episodes that never terminate (the env's time limit ends them), observations as
// dm_control's ordered named arrays, flattened, or a Dict of them on request. An env step may repeat
// its action over several control steps (action_repeat); its reward is then their sum, as
// dm_control's action-repeat wrappers give it.
#pragma once

#include "tasks/task.h"

#include <string>

namespace joltgym {

// The keyword arguments every suite task takes.
struct SuiteParams {
  int action_repeat = 1;
  bool dict_observation = false;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("action_repeat", action_repeat);
    visit("dict_observation", dict_observation);
  }
};

class SuiteTask : public Task {
 public:
  // dm_control's get_reward: the reward of the robot's current state under its current controls
  // (ws: scratch).
  virtual float Reward(const Robot& robot, TaskWorkspace& ws) const = 0;
  float ControlStepReward(const Robot& robot, TaskWorkspace& ws) const final { return Reward(robot, ws); }

 protected:
  // `control_timestep`: seconds per control step (the suite's _CONTROL_TIMESTEP; the model's
  // timestep where the suite sets none), a whole number of model timesteps.
  SuiteTask(const CompiledModel& model, const SuiteParams& params, float control_timestep);
  // The next named array of the observation (a key of the Dict when dict_observation).
  void AddObservation(std::string name, int size);

 private:
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const final;

  bool dict_observation_;
};

}  // namespace joltgym
