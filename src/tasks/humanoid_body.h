// What Humanoid-v5 and HumanoidStandup-v5 share: the 17-actuator humanoid's observation
// (qpos[2:], qvel, cinert, cvel, qfrc_actuator[6:], cfrc_ext, each switchable), its
// uniform reset noise and its reset. The tasks differ only in reward and termination.
#pragma once

#include "tasks/task.h"

namespace joltgym {

struct HumanoidObservationParams {
  float reset_noise_scale = 1e-2f;
  bool exclude_current_positions_from_observation = true;
  bool include_cinert_in_observation = true;
  bool include_cvel_in_observation = true;
  bool include_qfrc_actuator_in_observation = true;
  bool include_cfrc_ext_in_observation = true;
  int frame_skip = 5;
};

class HumanoidBodyTask : public SizedTask {
 public:
  void SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const World& world, TaskWorkspace& ws, float* obs) const override;

  // Observation length for a model and the switches (Gymnasium's obs_size).
  static int ObservationSize(const CompiledModel& model, const HumanoidObservationParams& params);

 protected:
  HumanoidBodyTask(const CompiledModel& model, const HumanoidObservationParams& params);

  // Squared norm of cfrc_ext (every body), the contact/impact cost's base.
  static float ContactForceSquaredNorm(const TaskWorkspace& ws);

 private:
  HumanoidObservationParams params_;
};

}  // namespace joltgym
