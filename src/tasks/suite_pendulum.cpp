// The Control Suite's pendulum (dm_control/suite/pendulum.py): swing a torque-limited pole up
// from any angle and hold it; the reward is 1 within 8 degrees of upright, else 0.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kPi = 3.14159265358979f;
const double kCosineBound = std::cos(8.0 * 3.14159265358979323846 / 180.0);

class PendulumSwingup final : public SuiteTask {
 public:
  PendulumSwingup(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, model.timestep()), pole_(SuiteBody(model, "pole", "PendulumSwingup")) {
    if (model.nq() != 1 || model.nv() != 1) throw std::invalid_argument("PendulumSwingup needs one hinge");
    AddObservation("orientation", 2);
    AddObservation("velocity", 1);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    ws.qpos.assign(robot.model().qpos0().begin(), robot.model().qpos0().end());
    ws.qpos[0] = rng.Uniform(-kPi, kPi);
    ws.qvel[0] = 0.0f;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    obs[0] = BodyXmat(robot, pole_, 2, 2);
    obs[1] = BodyXmat(robot, pole_, 0, 2);
    robot.GetQvel(ws.qvel.data());
    obs[2] = ws.qvel[0];
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    return float(Tolerance(BodyXmat(robot, pole_, 2, 2), {kCosineBound, 1.0}));
  }

 private:
  int pole_;
};

}  // namespace

JOLTGYM_REGISTER_TASK("PendulumSwingup", PendulumSwingup, SuiteParams);

}  // namespace joltgym
