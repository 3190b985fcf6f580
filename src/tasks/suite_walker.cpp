// The Control Suite's planar walker (dm_control/suite/walker.py): stand with the torso above
// 1.2 m and upright, and for walk and run also move forward at 1 or 8 m/s. Episodes start from
// random joint angles (the root's hinge any angle), dropped where they stand.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.025f;
constexpr float kStandHeight = 1.2f;

class Walker : public SuiteTask {
 public:
  Walker(const CompiledModel& model, const SuiteParams& params, float move_speed)
      : SuiteTask(model, params, kControlTimestep),
        move_speed_(move_speed),
        torso_(SuiteBody(model, "torso", "Walker")),
        subtree_(SubtreeBodies(model.desc(), torso_)),
        bodies_(int(model.desc().mj_body_frames.size()) - 1) {
    AddObservation("orientations", 2 * bodies_);
    AddObservation("height", 1);
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomJointAnglesAtRest(robot.model(), rng, ws);
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    for (int b = 1; b <= bodies_; ++b) {  // xmat[1:, ['xx', 'xz']]
      *obs++ = BodyXmat(robot, b, 0, 0);
      *obs++ = BodyXmat(robot, b, 0, 2);
    }
    *obs++ = float(robot.MjBodyPosition(torso_).GetZ());
    robot.GetQvel(ws.qvel.data());
    std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const double standing =
        Tolerance(robot.MjBodyPosition(torso_).GetZ(), {kStandHeight, INFINITY, kStandHeight / 2.0});
    const double upright = (1.0 + BodyXmat(robot, torso_, 2, 2)) / 2.0;
    const double stand_reward = (3.0 * standing + upright) / 4.0;
    if (move_speed_ == 0.0f) return float(stand_reward);
    const double move_reward = Tolerance(SubtreeLinearVelocity(robot, subtree_).GetX(),
                                         {move_speed_, INFINITY, move_speed_ / 2.0, Sigmoid::Linear, 0.5});
    return float(stand_reward * (5.0 * move_reward + 1.0) / 6.0);
  }

 private:
  float move_speed_;  // 0: stand only
  int torso_;
  std::vector<int> subtree_;
  int bodies_;        // MuJoCo bodies but the world
};

template <int kMoveSpeed>
class WalkerAt final : public Walker {
 public:
  WalkerAt(const CompiledModel& model, const SuiteParams& params) : Walker(model, params, float(kMoveSpeed)) {}
};

}  // namespace

JOLTGYM_REGISTER_TASK("WalkerStand", WalkerAt<0>, SuiteParams);
JOLTGYM_REGISTER_TASK("WalkerWalk", WalkerAt<1>, SuiteParams);
JOLTGYM_REGISTER_TASK("WalkerRun", WalkerAt<8>, SuiteParams);

}  // namespace joltgym
