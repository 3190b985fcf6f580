// The Control Suite's planar hopper (dm_control/suite/hopper.py): stand with the torso's centre of
// mass 0.6-2 m above the foot's, and for hop also move forward at 2 m/s. Observations end with the
// foot's two touch sensors, log(1 + normal force). Episodes start from random joint angles (the
// root's hinge any angle), not settled.
#include "physics/world/sensors.h"
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.02f;
constexpr double kStandHeight = 0.6;
constexpr double kHopSpeed = 2.0;

class SuiteHopper : public SuiteTask {
 public:
  SuiteHopper(const CompiledModel& model, const SuiteParams& params, bool hopping)
      : SuiteTask(model, params, kControlTimestep),
        hopping_(hopping),
        torso_(SuiteBody(model, "torso", "Hopper")),
        foot_(SuiteBody(model, "foot", "Hopper")),
        subtree_(SubtreeBodies(model.desc(), torso_)),
        toe_(FindSuiteSite(model.desc(), "touch_toe", "Hopper")),
        heel_(FindSuiteSite(model.desc(), "touch_heel", "Hopper")) {
    AddObservation("position", model.nq() - 1);
    AddObservation("velocity", model.nv());
    AddObservation("touch", 2);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomJointAnglesAtRest(robot.model(), rng, ws);
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    obs = std::copy(ws.qpos.begin() + 1, ws.qpos.end(), obs);
    obs = std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
    *obs++ = std::log1p(sensors::Touch(robot, toe_));
    *obs = std::log1p(sensors::Touch(robot, heel_));
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const double height = robot.MjBodyCentreOfMass(torso_).GetZ() - robot.MjBodyCentreOfMass(foot_).GetZ();
    const double standing = Tolerance(height, {kStandHeight, 2.0});
    if (hopping_) {
      const double speed = SubtreeLinearVelocity(robot, subtree_).GetX();
      return float(standing * Tolerance(speed, {kHopSpeed, INFINITY, kHopSpeed / 2.0, Sigmoid::Linear, 0.5}));
    }
    return float(standing * (MeanSmallControl(robot) + 4.0) / 5.0);
  }

 private:
  bool hopping_;
  int torso_, foot_;
  std::vector<int> subtree_;  // the torso's
  int toe_, heel_;            // touch sites
};

class HopperStand final : public SuiteHopper {
 public:
  HopperStand(const CompiledModel& model, const SuiteParams& params) : SuiteHopper(model, params, false) {}
};

class HopperHop final : public SuiteHopper {
 public:
  HopperHop(const CompiledModel& model, const SuiteParams& params) : SuiteHopper(model, params, true) {}
};

}  // namespace

JOLTGYM_REGISTER_TASK("HopperStand", HopperStand, SuiteParams);
JOLTGYM_REGISTER_TASK("HopperHop", HopperHop, SuiteParams);

}  // namespace joltgym
