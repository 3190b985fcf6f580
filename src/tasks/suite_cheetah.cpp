// The Control Suite's cheetah (dm_control/suite/cheetah.py): run forward as fast as it can, the
// reward reaching 1 at 10 m/s. Episodes start from random joint angles within the limits after
// 200 physics steps of falling still, uncontrolled.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

namespace joltgym {
namespace {

constexpr float kRunSpeed = 10.0f;
constexpr int kSettleSteps = 200;

class CheetahRun final : public SuiteTask {
 public:
  CheetahRun(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, model.timestep()),
        subtree_(SubtreeBodies(model.desc(), SuiteBody(model, "torso", "CheetahRun"))) {
    AddObservation("position", model.nq() - 1);
    AddObservation("velocity", model.nv());
    settle_steps_ = kSettleSteps;
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    const CompiledModel& model = robot.model();
    ws.qpos.assign(model.qpos0().begin(), model.qpos0().end());
    for (const CompiledJoint& joint : model.joints())
      if (joint.limited) ws.qpos[size_t(joint.qposadr)] = rng.Uniform(joint.range_lo, joint.range_hi);
    std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
    std::fill(ws.ctrl.begin(), ws.ctrl.end(), 0.0f);
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    obs = std::copy(ws.qpos.begin() + 1, ws.qpos.end(), obs);
    std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const float speed = SubtreeLinearVelocity(robot, subtree_).GetX();
    return float(Tolerance(speed, {kRunSpeed, INFINITY, kRunSpeed, Sigmoid::Linear, 0.0}));
  }

 private:
  std::vector<int> subtree_;  // the torso's
};

}  // namespace

JOLTGYM_REGISTER_TASK("CheetahRun", CheetahRun, SuiteParams);

}  // namespace joltgym
