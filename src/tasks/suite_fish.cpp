// The Control Suite's fish (dm_control/suite/fish.py), free in a dense fluid. Upright: turn the torso
// upright, reward tolerance(torso zz, (1, 1), margin 1). Swim: bring the mouth into a target drawn
// each episode, reward (7 in_target + (1 + torso zz) / 2) / 8. Episodes start at a uniformly random
// orientation with the tail and fin joints uniform in [-0.2, 0.2], at rest.
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <cmath>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.04f;
constexpr float kJointSpread = 0.2f;  // rad

// A fish's start: a normalised Gaussian quaternion for the root, joints uniform in the spread, at rest.
void RandomFishAtRest(const CompiledModel& model, Rng& rng, TaskWorkspace& ws) {
  ws.qpos.assign(model.qpos0().begin(), model.qpos0().end());
  float norm = 0.0f;
  for (int i = 3; i < 7; ++i) norm += (ws.qpos[size_t(i)] = rng.Normal()) * ws.qpos[size_t(i)];
  for (int i = 3; i < 7; ++i) ws.qpos[size_t(i)] /= std::sqrt(norm);
  for (size_t i = 7; i < ws.qpos.size(); ++i) ws.qpos[i] = rng.Uniform(-kJointSpread, kJointSpread);
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
}

class FishUpright final : public SuiteTask {
 public:
  FishUpright(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, kControlTimestep), torso_(SuiteBody(model, "torso", "FishUpright")) {
    AddObservation("joint_angles", model.nq() - 7);
    AddObservation("upright", 1);
    AddObservation("velocity", model.nv());
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomFishAtRest(robot.model(), rng, ws);
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

class FishSwim final : public SuiteTask {
 public:
  FishSwim(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, kControlTimestep),
        torso_(SuiteBody(model, "torso", "FishSwim")),
        mouth_(FindSuiteGeom(model.desc(), "mouth", "FishSwim")),
        target_(FindSuiteGeom(model.desc(), "target", "FishSwim")) {
    AddObservation("joint_angles", model.nq() - 7);
    AddObservation("upright", 1);
    AddObservation("target", 3);
    AddObservation("velocity", model.nv());
    memory_size_ = 3;  // the target's x, y and z
    target_info_ = info_.Add("target", /*at_reset=*/true, 3);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    RandomFishAtRest(robot.model(), rng, ws);
    ws.memory[0] = rng.Uniform(-kTargetSpread, kTargetSpread);
    ws.memory[1] = rng.Uniform(-kTargetSpread, kTargetSpread);
    ws.memory[2] = rng.Uniform(kTargetLow, kTargetHigh);
  }

  void ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const override {
    if (double* target = info.Values(target_info_)) std::copy(ws.memory.begin(), ws.memory.begin() + 3, target);
  }

  // The target where the episode put it (dm_control moves it in its model).
  int MovedWorldGeoms(const TaskWorkspace& ws, WorldGeomMove* out) const override {
    if (target_.world_geom < 0) return 0;
    out[0] = {target_.world_geom, -1, JPH::Vec3(float(ws.memory[0]), float(ws.memory[1]), float(ws.memory[2]))};
    return 1;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    obs = std::copy(ws.qpos.begin() + 7, ws.qpos.end(), obs);
    *obs++ = BodyXmat(robot, torso_, 2, 2);
    const JPH::Vec3 to_target = MouthToTarget(robot, ws);
    for (int c = 0; c < 3; ++c) *obs++ = to_target[JPH::uint(c)];
    std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
  }

  float Reward(const Robot& robot, TaskWorkspace& ws) const override {
    const double radii = double(mouth_.size[0]) + double(target_.size[0]);
    const double in_target = Tolerance(MouthToTarget(robot, ws).Length(), {0.0, radii, 2.0 * radii});
    const double upright = 0.5 * (BodyXmat(robot, torso_, 2, 2) + 1.0);
    return float((7.0 * in_target + upright) / 8.0);
  }

 private:
  static constexpr float kTargetSpread = 0.4f, kTargetLow = 0.1f, kTargetHigh = 0.3f;

  // From the mouth to the episode's target, in the mouth geom's frame.
  JPH::Vec3 MouthToTarget(const Robot& robot, const TaskWorkspace& ws) const {
    const JPH::Vec3 target(float(ws.memory[0]), float(ws.memory[1]), float(ws.memory[2]));
    return GeomRotation(robot, mouth_).Conjugated() * (target - JPH::Vec3(GeomPosition(robot, mouth_)));
  }

  int torso_;
  SuiteGeom mouth_, target_;
  InfoSlot target_info_;
};

}  // namespace

JOLTGYM_REGISTER_TASK("FishUpright", FishUpright, SuiteParams);
JOLTGYM_REGISTER_TASK("FishSwim", FishSwim, SuiteParams);

}  // namespace joltgym
