#include "tasks/spot_model.h"

#include "tasks/playground_robot.h"

#include <stdexcept>

namespace joltgym::spot {

namespace {

constexpr const char* kFootNames[kFeet] = {"FL", "FR", "HL", "HR"};

}  // namespace

Parts::Parts(const CompiledModel& model, const SpotParams& params, const std::string& task) {
  playground::CheckQuadruped(model, params.kp, params.kd, task, "Spot");
  if (params.history_len != kHistory)
    throw std::invalid_argument(task + ": history_len must be 3 (EnvPool's fixed history), got " +
                                std::to_string(params.history_len));
  if (params.pert_enable)
    throw std::invalid_argument(task + ": pert_enable=True is not supported (EnvPool's Spot never pushes)");
  home_qpos = model.FindKeyframe("home", task).qpos;
  for (int i = 0; i < kJoints; ++i) {
    default_pose[size_t(i)] = home_qpos[size_t(7 + i)];
    lower[size_t(i)] = model.desc().actuators[size_t(i)].ctrlrange[0];
    upper[size_t(i)] = model.desc().actuators[size_t(i)].ctrlrange[1];
  }
  imu = model.FindSite("imu", task);
  for (int f = 0; f < kFeet; ++f) {
    foot_sites[size_t(f)] = model.FindSite(kFootNames[f], task);
    feet.emplace_back(model, kFootNames[f], "floor", task);
  }
}

}  // namespace joltgym::spot
