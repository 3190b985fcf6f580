// The Control Suite's acrobot (dm_control/suite/acrobot.py): swing the two-link arm, driven at the
// elbow only, until its tip reaches the target above the shoulder; the reward is tolerance(tip to
// target, (0, target radius)) with a margin of 1 (swingup) or none (swingup_sparse).
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"
#include "tasks/tolerance.h"

#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kPi = 3.14159265358979f;

class Acrobot : public SuiteTask {
 public:
  Acrobot(const CompiledModel& model, const SuiteParams& params, bool sparse)
      : SuiteTask(model, params, model.timestep()),
        sparse_(sparse),
        upper_arm_(SuiteBody(model, "upper_arm", "Acrobot")),
        lower_arm_(SuiteBody(model, "lower_arm", "Acrobot")),
        target_(FindSuiteSite(model.desc(), "target", "Acrobot")),
        tip_(FindSuiteSite(model.desc(), "tip", "Acrobot")) {
    if (model.nq() != 2 || model.nv() != 2) throw std::invalid_argument("Acrobot needs the shoulder and elbow hinges");
    AddObservation("orientations", 4);
    AddObservation("velocity", 2);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    ws.qpos.assign(robot.model().qpos0().begin(), robot.model().qpos0().end());
    ws.qpos[0] = rng.Uniform(-kPi, kPi);
    ws.qpos[1] = rng.Uniform(-kPi, kPi);
    ws.qvel[0] = ws.qvel[1] = 0.0f;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    obs[0] = BodyXmat(robot, upper_arm_, 0, 2);  // horizontal: xz of both arms, then vertical: zz
    obs[1] = BodyXmat(robot, lower_arm_, 0, 2);
    obs[2] = BodyXmat(robot, upper_arm_, 2, 2);
    obs[3] = BodyXmat(robot, lower_arm_, 2, 2);
    robot.GetQvel(ws.qvel.data());
    obs[4] = ws.qvel[0];
    obs[5] = ws.qvel[1];
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const double radius = robot.model().desc().sites[size_t(target_)].size[0];
    const double distance = JPH::Vec3(robot.SitePosition(target_) - robot.SitePosition(tip_)).Length();
    return float(Tolerance(distance, {0.0, radius, sparse_ ? 0.0 : 1.0}));
  }

 private:
  bool sparse_;
  int upper_arm_, lower_arm_, target_, tip_;
};

template <bool kSparse>
class AcrobotTask final : public Acrobot {
 public:
  AcrobotTask(const CompiledModel& model, const SuiteParams& params) : Acrobot(model, params, kSparse) {}
};

using AcrobotSwingup = AcrobotTask<false>;
using AcrobotSwingupSparse = AcrobotTask<true>;

}  // namespace

JOLTGYM_REGISTER_TASK("AcrobotSwingup", AcrobotSwingup, SuiteParams);
JOLTGYM_REGISTER_TASK("AcrobotSwingupSparse", AcrobotSwingupSparse, SuiteParams);

}  // namespace joltgym
