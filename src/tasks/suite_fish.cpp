// The Control Suite's fish (dm_control/suite/fish.py) upright: turn the torso upright in the fluid,
// reward tolerance(torso zz, (1, 1), margin 1). Episodes start at a uniformly random orientation
// with the tail and fin joints uniform in [-0.2, 0.2], at rest.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.04f;
constexpr float kJointSpread = 0.2f;  // rad

class FishUpright final : public SuiteTask {
 public:
  FishUpright(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, kControlTimestep), torso_(SuiteBody(model, "torso", "FishUpright")) {
    AddObservation("joint_angles", model.nq() - 7);
    AddObservation("upright", 1);
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    ws.qpos.assign(robot.model().qpos0().begin(), robot.model().qpos0().end());
    float norm = 0.0f;  // the root's orientation: a normalised Gaussian quaternion
    for (int i = 3; i < 7; ++i) norm += (ws.qpos[size_t(i)] = rng.Normal()) * ws.qpos[size_t(i)];
    for (int i = 3; i < 7; ++i) ws.qpos[size_t(i)] /= std::sqrt(norm);
    for (size_t i = 7; i < ws.qpos.size(); ++i) ws.qpos[i] = rng.Uniform(-kJointSpread, kJointSpread);
    std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    obs = std::copy(ws.qpos.begin() + 7, ws.qpos.end(), obs);
    *obs++ = BodyXmat(robot, torso_, 2, 2);
    std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    return float(Tolerance(BodyXmat(robot, torso_, 2, 2), {1.0, 1.0, 1.0}));
  }

 private:
  int torso_;
};

}  // namespace

JOLTGYM_REGISTER_TASK("FishUpright", FishUpright, SuiteParams);

}  // namespace joltgym
