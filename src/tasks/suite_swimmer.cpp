// The Control Suite's swimmer (dm_control/suite/swimmer.py), of 6 or 15 links in a viscous fluid:
// bring the nose to a target drawn each episode (within 0.3 m of the centre one time in five, else
// within 2 m); the reward is 1 with the nose in the 10 cm target, falling off with a long tail over
// 50 cm. The target, which dm_control moves in its model, is the episode's own here (info["target"]
// at reset).
#include "physics/world/sensors.h"
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.03f;
constexpr float kCloseTargetChance = 0.2f;

class SuiteSwimmer : public SuiteTask {
 public:
  SuiteSwimmer(const CompiledModel& model, const SuiteParams& params, int links, const std::string& task)
      : SuiteTask(model, params, kControlTimestep),
        head_(SuiteBody(model, "head", task)),
        nose_(FindSuiteGeom(model.desc(), "nose", task)),
        target_(FindSuiteGeom(model.desc(), "target", task)) {
    if (model.nu() != links - 1)
      throw std::invalid_argument(task + " needs dm_control's swimmer of " + std::to_string(links) + " links (" +
                                  std::to_string(links - 1) + " motors), got " + std::to_string(model.nu()) + " motors");
    sites_.push_back(FindSuiteSite(model.desc(), "head", task));
    for (int i = 0; i < links - 1; ++i) sites_.push_back(FindSuiteSite(model.desc(), "site_" + std::to_string(i), task));
    AddObservation("joints", model.nq() - 3);
    AddObservation("to_target", 2);
    AddObservation("body_velocities", 3 * links);
    memory_size_ = 2;  // the target's x and y
    target_info_ = info_.Add("target", /*at_reset=*/true, 2);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomJointAnglesAtRest(robot.model(), rng, ws);
    const float box = rng.Unit() < kCloseTargetChance ? 0.3f : 2.0f;
    ws.memory[0] = rng.Uniform(-box, box);
    ws.memory[1] = rng.Uniform(-box, box);
  }

  void ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const override {
    ReportTarget(info, target_info_, ws);
  }

  // The target where the episode put it (dm_control moves it in its model).
  int MovedWorldGeoms(const TaskWorkspace& ws, WorldGeomMove* out) const override {
    if (target_.world_geom < 0) return 0;
    out[0] = {target_.world_geom, -1, JPH::Vec3(float(ws.memory[0]), float(ws.memory[1]), target_.pos[2])};
    return 1;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    obs = std::copy(ws.qpos.begin() + 3, ws.qpos.end(), obs);
    const JPH::Vec3 to_target = NoseToTarget(robot, ws);
    *obs++ = to_target.GetX();
    *obs++ = to_target.GetY();
    for (int site : sites_) {  // x and y of the velocimeter, z of the gyro, in the site's frame
      const JPH::Vec3 v = sensors::Velocimeter(robot, site);
      const JPH::Vec3 w = sensors::Gyro(robot, site);
      *obs++ = v.GetX();
      *obs++ = v.GetY();
      *obs++ = w.GetZ();
    }
  }

  float Reward(const Robot& robot, TaskWorkspace& ws) const override {
    const JPH::Vec3 to_target = NoseToTarget(robot, ws);
    const double distance = std::hypot(double(to_target.GetX()), double(to_target.GetY()));
    const double size = target_.size[0];
    return float(Tolerance(distance, {0.0, size, 5.0 * size, Sigmoid::LongTail}));
  }

 private:
  // From the nose to the target, in the head's frame.
  JPH::Vec3 NoseToTarget(const Robot& robot, const TaskWorkspace& ws) const {
    const JPH::Vec3 target(float(ws.memory[0]), float(ws.memory[1]), target_.pos[2]);
    return robot.MjBodyRotation(head_).Conjugated() * (target - JPH::Vec3(GeomPosition(robot, nose_)));
  }

  int head_;
  SuiteGeom nose_, target_;
  std::vector<int> sites_;  // the head's and each segment's, in dm_control's sensor order
  InfoSlot target_info_;
};

template <int kLinks>
class SwimmerOf final : public SuiteSwimmer {
 public:
  SwimmerOf(const CompiledModel& model, const SuiteParams& params)
      : SuiteSwimmer(model, params, kLinks, "SwimmerSwimmer" + std::to_string(kLinks)) {}
};

}  // namespace

JOLTGYM_REGISTER_TASK("SwimmerSwimmer6", SwimmerOf<6>, SuiteParams);
JOLTGYM_REGISTER_TASK("SwimmerSwimmer15", SwimmerOf<15>, SuiteParams);

}  // namespace joltgym
