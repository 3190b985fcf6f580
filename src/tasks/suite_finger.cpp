// The Control Suite's finger (dm_control/suite/finger.py): a two-link planar finger and a free spinner
// on a hinge. spin: 1 while the spinner turns faster than 15 rad/s (the suite lowers its hinge's damping
// to 0.03 for it, TaskSpec.edit_model); turn_easy and turn_hard: 1 while the spinner's tip is within a
// target (radius 7 or 3 cm) drawn on the tip's circle each episode. Episodes start from random joint
// angles redrawn until nothing touches. Observations end with the fingertip's two touch sensors.
#include "physics/world/sensors.h"
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.02f;
constexpr float kPi = 3.14159265358979f;
constexpr float kSpinVelocity = 15.0f;
constexpr float kSpinHingeDamping = 0.03f;

class SuiteFinger : public SuiteTask {
 public:
  // target_radius 0: spin
  SuiteFinger(const CompiledModel& model, const SuiteParams& params, float target_radius, const std::string& task)
      : SuiteTask(model, params, kControlTimestep),
        target_radius_(target_radius),
        spinner_(SuiteBody(model, "spinner", task)),
        tip_(FindSuiteSite(model.desc(), "tip", task)),
        touch_top_(FindSuiteSite(model.desc(), "touchtop", task)),
        touch_bottom_(FindSuiteSite(model.desc(), "touchbottom", task)),
        target_site_(FindSuiteSite(model.desc(), "target", task)) {
    if (model.nq() != 3 || model.nv() != 3) throw std::invalid_argument(task + " needs the finger's two hinges and the spinner's");
    target_site_body_ = model.desc().sites[size_t(target_site_)].body;
    target_site_y_ = model.desc().sites[size_t(target_site_)].pos[1];
    target_site_size_ = model.desc().sites[size_t(target_site_)].size[0];
    const SuiteGeom cap = FindSuiteGeom(model.desc(), "cap1", task);
    tip_radius_ = cap.size[0] + cap.size[1] + cap.size[2];
    if (target_radius == 0.0f) {
      float damping = -1.0f;
      for (const CompiledJoint& joint : model.joints())
        if (joint.name == "hinge") damping = joint.damping;
      if (std::abs(damping - kSpinHingeDamping) > 1e-6f)
        throw std::invalid_argument(task + " needs the spinner's hinge damping 0.03 (dm_control's spin sets it), got " +
                                    std::to_string(damping));
    }
    AddObservation("position", 4);
    AddObservation("velocity", 3);
    AddObservation("touch", 2);
    if (target_radius > 0.0f) {
      AddObservation("target_position", 2);
      AddObservation("dist_to_target", 1);
      memory_size_ = 2;  // the target's x and z
      target_info_ = info_.Add("target", /*at_reset=*/true, 2);
    }
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    if (target_radius_ > 0.0f) {
      const float angle = rng.Uniform(-kPi, kPi);
      const JPH::RVec3 hinge = robot.MjBodyPosition(spinner_);
      ws.memory[0] = hinge.GetX() + tip_radius_ * std::sin(angle);
      ws.memory[1] = hinge.GetZ() + tip_radius_ * std::cos(angle);
    }
    RandomJointAnglesTouchingNothing(robot, rng, ws, "the finger");
  }

  void ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const override {
    if (target_radius_ == 0.0f) return;
    ReportTarget(info, target_info_, ws);
  }

  // turn's target site where the episode put it (dm_control moves it in its model); spin draws it where it is.
  int MovedWorldGeoms(const TaskWorkspace& ws, WorldGeomMove* out) const override {
    if (target_radius_ == 0.0f || target_site_body_ >= 0) return 0;
    out[0] = {-1, target_site_, JPH::Vec3(float(ws.memory[0]), target_site_y_, float(ws.memory[1])),
              target_radius_ / target_site_size_};
    return 1;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    const JPH::RVec3 spinner = robot.MjBodyPosition(spinner_);
    const JPH::RVec3 tip = robot.SitePosition(tip_) - spinner;
    *obs++ = ws.qpos[0];
    *obs++ = ws.qpos[1];
    *obs++ = float(tip.GetX());
    *obs++ = float(tip.GetZ());
    obs = std::copy(ws.qvel.begin(), ws.qvel.end(), obs);
    *obs++ = std::log1p(sensors::Touch(robot, touch_top_));
    *obs++ = std::log1p(sensors::Touch(robot, touch_bottom_));
    if (target_radius_ == 0.0f) return;
    const float target_x = float(ws.memory[0] - spinner.GetX()), target_z = float(ws.memory[1] - spinner.GetZ());
    *obs++ = target_x;
    *obs++ = target_z;
    *obs = std::hypot(target_x - float(tip.GetX()), target_z - float(tip.GetZ())) - target_radius_;
  }

  float Reward(const Robot& robot, TaskWorkspace& ws) const override {
    if (target_radius_ == 0.0f) {
      robot.GetQvel(ws.qvel.data());
      return ws.qvel[2] <= -kSpinVelocity ? 1.0f : 0.0f;
    }
    const JPH::RVec3 tip = robot.SitePosition(tip_);
    const double distance = std::hypot(ws.memory[0] - tip.GetX(), ws.memory[1] - tip.GetZ());
    return distance <= double(target_radius_) ? 1.0f : 0.0f;
  }

 private:
  float target_radius_;
  int spinner_;
  int tip_, touch_top_, touch_bottom_, target_site_;  // sites
  int target_site_body_;
  float target_site_y_, target_site_size_;
  float tip_radius_;                    // from the hinge to the spinner's tip: cap1's size summed, as dm_control
  InfoSlot target_info_;
};

class FingerSpin final : public SuiteFinger {
 public:
  FingerSpin(const CompiledModel& model, const SuiteParams& params) : SuiteFinger(model, params, 0.0f, "FingerSpin") {}
};

template <int kTargetMillimetres>
class FingerTurn final : public SuiteFinger {
 public:
  FingerTurn(const CompiledModel& model, const SuiteParams& params)
      : SuiteFinger(model, params, float(kTargetMillimetres) / 1000.0f,
                    kTargetMillimetres == 70 ? "FingerTurnEasy" : "FingerTurnHard") {}
};

}  // namespace

JOLTGYM_REGISTER_TASK("FingerSpin", FingerSpin, SuiteParams);
JOLTGYM_REGISTER_TASK("FingerTurnEasy", FingerTurn<70>, SuiteParams);
JOLTGYM_REGISTER_TASK("FingerTurnHard", FingerTurn<30>, SuiteParams);

}  // namespace joltgym
