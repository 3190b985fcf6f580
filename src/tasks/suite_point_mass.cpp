// The Control Suite's point mass (dm_control/suite/point_mass.py), easy: drive a mass on a plane, its
// two slides pulled by two actuators through fixed tendons, into the target at the centre; the reward
// is nearness to the target times a small-control factor.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

namespace joltgym {
namespace {

class PointMassEasy final : public SuiteTask {
 public:
  PointMassEasy(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, model.timestep()),
        target_(FindSuiteGeom(model.desc(), "target", "PointMassEasy")),
        mass_(FindSuiteGeom(model.desc(), "pointmass", "PointMassEasy")) {
    AddObservation("position", model.nq());
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomJointAnglesAtRest(robot.model(), rng, ws);
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    ObservePositionThenVelocity(robot, ws, obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const double size = target_.size[0];
    const double distance = JPH::Vec3(GeomPosition(robot, target_) - GeomPosition(robot, mass_)).Length();
    const double near_target = Tolerance(distance, {0.0, size, size});
    double control = 0.0;
    for (float u : robot.controls()) control += Tolerance(u, {0.0, 0.0, 1.0, Sigmoid::Quadratic, 0.0});
    control /= double(robot.controls().size());
    return float(near_target * (control + 4.0) / 5.0);
  }

 private:
  SuiteGeom target_, mass_;
};

}  // namespace

JOLTGYM_REGISTER_TASK("PointMassEasy", PointMassEasy, SuiteParams);

}  // namespace joltgym
