// The Control Suite's reacher (dm_control/suite/reacher.py): bring the fingertip of a two-link planar
// arm onto a target drawn anew each episode, 5 to 20 cm from the shoulder; the reward is 1 while the
// finger touches the target (radius 5 cm easy, 1.5 cm hard), else 0. The target, which dm_control
// moves in its model, is the episode's own here (info["target"] at reset).
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kPi = 3.14159265358979f;

class Reacher : public SuiteTask {
 public:
  Reacher(const CompiledModel& model, const SuiteParams& params, float target_size)
      : SuiteTask(model, params, model.timestep()),
        target_size_(target_size),
        finger_(FindSuiteGeom(model.desc(), "finger", "Reacher")),
        target_(FindSuiteGeom(model.desc(), "target", "Reacher")) {
    if (model.nq() != 2 || model.nv() != 2) throw std::invalid_argument("Reacher needs the shoulder and wrist hinges");
    AddObservation("position", 2);
    AddObservation("to_target", 2);
    AddObservation("velocity", 2);
    memory_size_ = 2;  // the target's x and y
    target_info_ = info_.Add("target", /*at_reset=*/true, 2);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomJointAnglesAtRest(robot.model(), rng, ws);
    const float angle = rng.Uniform(0.0f, 2.0f * kPi);
    const float radius = rng.Uniform(0.05f, 0.20f);
    ws.memory[0] = radius * std::sin(angle);
    ws.memory[1] = radius * std::cos(angle);
  }

  void ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const override {
    ReportTarget(info, target_info_, ws);
  }

  // The target where the episode put it, at the task's size (dm_control sets both in its model).
  int MovedWorldGeoms(const TaskWorkspace& ws, WorldGeomMove* out) const override {
    if (target_.world_geom < 0) return 0;
    out[0] = {target_.world_geom, -1, JPH::Vec3(float(ws.memory[0]), float(ws.memory[1]), target_.pos[2]),
              target_size_ / target_.size[0]};
    return 1;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    const JPH::RVec3 finger = GeomPosition(robot, finger_);
    obs[0] = ws.qpos[0];
    obs[1] = ws.qpos[1];
    obs[2] = float(ws.memory[0] - finger.GetX());
    obs[3] = float(ws.memory[1] - finger.GetY());
    obs[4] = ws.qvel[0];
    obs[5] = ws.qvel[1];
  }

  float Reward(const Robot& robot, TaskWorkspace& ws) const override {
    const JPH::RVec3 finger = GeomPosition(robot, finger_);
    const double distance = std::hypot(ws.memory[0] - finger.GetX(), ws.memory[1] - finger.GetY());
    return float(Tolerance(distance, {0.0, double(target_size_) + finger_.size[0]}));
  }

 private:
  float target_size_;
  SuiteGeom finger_, target_;
  InfoSlot target_info_;
};

template <int kTargetMillimetres>
class ReacherTask final : public Reacher {
 public:
  ReacherTask(const CompiledModel& model, const SuiteParams& params)
      : Reacher(model, params, float(kTargetMillimetres) / 1000.0f) {}
};

using ReacherEasy = ReacherTask<50>;
using ReacherHard = ReacherTask<15>;

}  // namespace

JOLTGYM_REGISTER_TASK("ReacherEasy", ReacherEasy, SuiteParams);
JOLTGYM_REGISTER_TASK("ReacherHard", ReacherHard, SuiteParams);

}  // namespace joltgym
