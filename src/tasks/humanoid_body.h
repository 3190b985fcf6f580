// What Humanoid-v5 and HumanoidStandup-v5 share: the 17-actuator humanoid's observation
// (qpos[2:], qvel, cinert, cvel, qfrc_actuator[6:], cfrc_ext, each switchable), its
// uniform reset noise, and the tendon info. The tasks differ only in reward and termination.
#pragma once

#include "tasks/task.h"

namespace joltgym {

// The observation and reset keyword arguments both humanoid tasks end with (v5's defaults).
struct HumanoidObservationParams {
  float reset_noise_scale = 1e-2f;
  bool exclude_current_positions_from_observation = true;
  bool include_cinert_in_observation = true;
  bool include_cvel_in_observation = true;
  bool include_qfrc_actuator_in_observation = true;
  bool include_cfrc_ext_in_observation = true;
  int frame_skip = 5;

  template <class Visit>
  void VisitFields(Visit&& visit) {
    visit("reset_noise_scale", reset_noise_scale);
    visit("exclude_current_positions_from_observation", exclude_current_positions_from_observation);
    visit("include_cinert_in_observation", include_cinert_in_observation);
    visit("include_cvel_in_observation", include_cvel_in_observation);
    visit("include_qfrc_actuator_in_observation", include_qfrc_actuator_in_observation);
    visit("include_cfrc_ext_in_observation", include_cfrc_ext_in_observation);
    visit("frame_skip", frame_skip);
  }
};

class HumanoidBodyTask : public Task {
 public:
  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override;
  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override;

 protected:
  HumanoidBodyTask(const CompiledModel& model, const HumanoidObservationParams& params);

  // Squared norm of cfrc_ext (every body), the contact/impact cost's base.
  static float ContactForceSquaredNorm(const TaskWorkspace& ws);
  // v5's tendon_length and tendon_velocity (the model's fixed tendons) from ws.qpos and ws.qvel.
  void WriteTendons(const Robot& robot, const TaskWorkspace& ws, InfoRow info) const;

 private:
  HumanoidObservationParams params_;
  InfoSlot tendon_length_, tendon_velocity_;
};

}  // namespace joltgym
