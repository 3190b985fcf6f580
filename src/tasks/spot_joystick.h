// Spot joystick: MuJoCo Playground's Boston Dynamics Spot follows a commanded forward, sideways and
// turning velocity on flat ground, with EnvPool 1.2.5's conventions (SpotFlatTerrainJoystick-v1):
// its dict observation (a noisy "state" with the last 3 frames of joint errors and the feet's
// positions for the policy, a "privileged_state" for the critic), its reward terms and scales and
// its command resampling. Each action moves the 12 PD targets by action_scale about home, clipped
// to the actuators' control ranges; the episode ends when the body tilts past ~32 degrees.
#pragma once

#include "tasks/spot_model.h"
#include "tasks/task.h"

#include <array>
#include <vector>

namespace joltgym {

class SpotJoystickTask final : public Task {
 public:
  static constexpr int kJoints = spot::kJoints;
  static constexpr int kFeet = spot::kFeet;
  static constexpr int kHistory = spot::kHistory;
  static constexpr int kStateDim = 81;
  static constexpr int kPrivilegedDim = 167;

  SpotJoystickTask(const CompiledModel& model, const SpotParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kCommand = 0,          // 3
    kStep = 3,             // steps since the command was drawn
    kObservationPending = 4,
    kLastAction = 5,       // 12
    kLastLastAction = 17,  // 12
    kTargets = 29,         // 12: the PD targets of the last step (zero at reset)
    kErrorHistory = 41,    // 36: noisy joints less targets, newest first
    kAirTime = 77,         // 4
    kSwingPeak = 81,       // 4
    kLastContact = 85,     // 4
    kObservation = 89,     // kStateDim + kPrivilegedDim: the observation of the last step
    kMemorySize = 89 + kStateDim + kPrivilegedDim,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  // EnvPool's UpdateJoystickObs: rolls the joint-error history and writes the observation to memory.
  void UpdateObservation(const Robot& robot, TaskWorkspace& ws) const;
  void SampleCommand(Rng& rng, double* command) const;

  SpotParams params_;
  spot::Parts parts_;
  InfoSlot command_;
  std::array<InfoSlot, kSpotRewardTerms> reward_slots_{};
};

}  // namespace joltgym
