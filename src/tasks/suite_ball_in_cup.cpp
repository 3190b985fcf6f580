// The Control Suite's ball in cup (dm_control/suite/ball_in_cup.py), catch: a cup on two sprung slides
// and a ball tied to it by a 30 cm string; 1 while the ball lies within the cup's target box (its x and
// z within the box's half-size less the ball's radius), else 0. Episodes start with the cup at rest at
// its origin and the ball at rest anywhere in x in [-0.2, 0.2], z in [0.2, 0.5] above its origin, redrawn
// until nothing touches.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.02f;
constexpr int kMaxStartAttempts = 1000;

class BallInCupCatch final : public SuiteTask {
 public:
  BallInCupCatch(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, kControlTimestep),
        ball_(SuiteBody(model, "ball", "BallInCupCatch")),
        target_(FindSuiteSite(model.desc(), "target", "BallInCupCatch")),
        ball_x_(FindQposAddress(model, "ball_x")),
        ball_z_(FindQposAddress(model, "ball_z")) {
    const Vec3f& box = model.desc().sites[size_t(target_)].size;
    const float radius = FindSuiteGeom(model.desc(), "ball", "BallInCupCatch").size[0];
    half_x_ = box[0] - radius;
    half_z_ = box[2] - radius;
    AddObservation("position", model.nq());
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    for (int attempt = 0; attempt < kMaxStartAttempts; ++attempt) {
      ws.qpos.assign(robot.model().qpos0().begin(), robot.model().qpos0().end());
      ws.qpos[size_t(ball_x_)] = rng.Uniform(-0.2f, 0.2f);
      ws.qpos[size_t(ball_z_)] = rng.Uniform(0.2f, 0.5f);
      if (robot.ContactsAt(ws.qpos.data()) == 0) {
        std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
        return;
      }
    }
    throw std::runtime_error("BallInCupCatch: no start without contacts in 1000 draws of the ball's position");
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    ObservePositionThenVelocity(robot, ws, obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const JPH::RVec3 to_target = robot.SitePosition(target_) - robot.MjBodyPosition(ball_);
    return std::abs(to_target.GetX()) < half_x_ && std::abs(to_target.GetZ()) < half_z_ ? 1.0f : 0.0f;
  }

 private:
  static int FindQposAddress(const CompiledModel& model, const std::string& joint) {
    for (const CompiledJoint& j : model.joints())
      if (j.name == joint) return j.qposadr;
    throw std::invalid_argument("BallInCupCatch needs the model's joint '" + joint + "'");
  }

  int ball_;    // MuJoCo body
  int target_;  // site
  int ball_x_, ball_z_;
  float half_x_, half_z_;  // how far the ball's centre may stand from the target's
};

}  // namespace

JOLTGYM_REGISTER_TASK("BallInCupCatch", BallInCupCatch, SuiteParams);

}  // namespace joltgym
