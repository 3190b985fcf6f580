// Spot gait tracking: MuJoCo Playground's Boston Dynamics Spot follows a commanded velocity with a
// drawn gait (trot, walk, pace, bound or pronk), frequency and swing height, with EnvPool 1.2.5's
// conventions (SpotJoystickGaitTracking-v1): a flat observation (69: noisy IMU and joints, the last
// 3 frames of joint errors, the feet's contacts, the gait phases, frequency, gait and swing height);
// the reward the tracking and phase terms times exp(0.2 x (body motion and hip splay costs)). Each
// action moves the 12 PD targets by action_scale about home, clipped to the control ranges.
#pragma once

#include "tasks/spot_model.h"
#include "tasks/task.h"

#include <array>
#include <vector>

namespace joltgym {

class SpotGaitTask final : public Task {
 public:
  static constexpr int kJoints = spot::kJoints;
  static constexpr int kFeet = spot::kFeet;
  static constexpr int kHistory = spot::kHistory;
  static constexpr int kStateDim = 69;
  static constexpr int kGaits = 5;

  SpotGaitTask(const CompiledModel& model, const SpotGaitParams& params);

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void ResetInfo(const Robot& robot, TaskWorkspace& ws, InfoRow info) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 private:
  enum Memory : int {
    kCommand = 0,          // 3
    kStep = 3,
    kObservationPending = 4,
    kGaitFrequency = 5,
    kGait = 6,
    kFootHeight = 7,
    kPhaseDt = 8,
    kPhase = 9,            // 4
    kTargets = 13,         // 12
    kErrorHistory = 25,    // 36: noisy joints less targets, newest first
    kObservation = 61,     // kStateDim
    kMemorySize = 61 + kStateDim,
  };

  void Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const override;
  StepOutcome Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const override;
  void UpdateObservation(const Robot& robot, TaskWorkspace& ws, const std::array<bool, kFeet>& contact) const;
  void SampleCommand(Rng& rng, double* command) const;

  SpotGaitParams params_;
  spot::Parts parts_;
  InfoSlot command_;
  std::array<InfoSlot, kSpotRewardTerms> reward_slots_{};
};

}  // namespace joltgym
