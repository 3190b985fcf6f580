// The Control Suite's humanoid (dm_control/suite/humanoid.py): stand with the head above 1.4 m and the
// torso upright, with small controls, and for walk and run also move the centre of mass horizontally
// at 1 or 10 m/s (stand: keep it still). Episodes start from random joint angles and a random
// orientation where the model stands, redrawn until nothing touches.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.025f;
constexpr double kStandHeight = 1.4;

class SuiteHumanoid : public SuiteTask {
 public:
  SuiteHumanoid(const CompiledModel& model, const SuiteParams& params, float move_speed)
      : SuiteTask(model, params, kControlTimestep),
        move_speed_(move_speed),
        torso_(SuiteBody(model, "torso", "Humanoid")),
        head_(SuiteBody(model, "head", "Humanoid")),
        extremities_{SuiteBody(model, "left_hand", "Humanoid"), SuiteBody(model, "left_foot", "Humanoid"),
                     SuiteBody(model, "right_hand", "Humanoid"), SuiteBody(model, "right_foot", "Humanoid")},
        subtree_(SubtreeBodies(model.desc(), torso_)) {
    AddObservation("joint_angles", model.nq() - 7);
    AddObservation("head_height", 1);
    AddObservation("extremities", 12);
    AddObservation("torso_vertical", 3);
    AddObservation("com_velocity", 3);
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomJointAnglesTouchingNothing(robot, rng, ws, "the humanoid");
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    obs = std::copy(ws.qpos.begin() + 7, ws.qpos.end(), obs);
    *obs++ = float(robot.MjBodyPosition(head_).GetZ());
    // Each limb's position from the torso in the torso's frame: (xpos - torso xpos) . xmat.
    const JPH::Quat to_torso = robot.MjBodyRotation(torso_).Conjugated();
    const JPH::RVec3 torso = robot.MjBodyPosition(torso_);
    for (int limb : extremities_) {
      const JPH::Vec3 local = to_torso * JPH::Vec3(robot.MjBodyPosition(limb) - torso);
      for (int c = 0; c < 3; ++c) *obs++ = local[JPH::uint(c)];
    }
    for (int c = 0; c < 3; ++c) *obs++ = BodyXmat(robot, torso_, 2, c);  // xmat['torso', ['zx', 'zy', 'zz']]
    const JPH::Vec3 com_velocity = SubtreeLinearVelocity(robot, subtree_);
    for (int c = 0; c < 3; ++c) *obs++ = com_velocity[JPH::uint(c)];
    std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const double standing = Tolerance(robot.MjBodyPosition(head_).GetZ(), {kStandHeight, INFINITY, kStandHeight / 4.0});
    const double upright = Tolerance(BodyXmat(robot, torso_, 2, 2), {0.9, INFINITY, 1.9, Sigmoid::Linear, 0.0});
    const double small_control = (4.0 + MeanSmallControl(robot)) / 5.0;
    const JPH::Vec3 com_velocity = SubtreeLinearVelocity(robot, subtree_);
    double move;
    if (move_speed_ == 0.0f) {
      move = (Tolerance(com_velocity.GetX(), {0.0, 0.0, 2.0}) + Tolerance(com_velocity.GetY(), {0.0, 0.0, 2.0})) / 2.0;
    } else {
      const double speed = std::hypot(double(com_velocity.GetX()), double(com_velocity.GetY()));
      move = (5.0 * Tolerance(speed, {move_speed_, INFINITY, move_speed_, Sigmoid::Linear, 0.0}) + 1.0) / 6.0;
    }
    return float(small_control * standing * upright * move);
  }

 private:
  float move_speed_;  // 0: stand still
  int torso_, head_;
  int extremities_[4];  // left hand, left foot, right hand, right foot: dm_control's order
  std::vector<int> subtree_;
};

template <int kMoveSpeed>
class SuiteHumanoidAt final : public SuiteHumanoid {
 public:
  SuiteHumanoidAt(const CompiledModel& model, const SuiteParams& params) : SuiteHumanoid(model, params, float(kMoveSpeed)) {}
};

}  // namespace

JOLTGYM_REGISTER_TASK("HumanoidStand", SuiteHumanoidAt<0>, SuiteParams);
JOLTGYM_REGISTER_TASK("HumanoidWalk", SuiteHumanoidAt<1>, SuiteParams);
JOLTGYM_REGISTER_TASK("HumanoidRun", SuiteHumanoidAt<10>, SuiteParams);

}  // namespace joltgym
