// The Control Suite's quadruped (dm_control/suite/quadruped.py), walk and run: move forward along the
// torso's x at 0.5 or 5 m/s while upright, the reward upright(torso z-axis's z) * move(forward speed
// in the torso's frame). Observations: the hinges' angles and rates and the actuators' activations,
// the torso's velocimeter, its uprightness, the IMU (accelerometer, gyro), and arcsinh of the force
// and torque sensors at the toes. Episodes start at the model's joint angles, at rest, the torso at a
// uniformly random orientation and at the lowest height (1 cm steps up from 0) that touches nothing.
#include "physics/world/sensors.h"
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.02f;
constexpr int kMaxHeightSteps = 10000;  // dm_control's attempts at a height that touches nothing
const char* const kToes[] = {"toe_front_left", "toe_front_right", "toe_back_right", "toe_back_left"};

class SuiteQuadruped : public SuiteTask {
 public:
  SuiteQuadruped(const CompiledModel& model, const SuiteParams& params, double speed, const std::string& task)
      : SuiteTask(model, params, kControlTimestep),
        speed_(speed),
        torso_(SuiteBody(model, "torso", task)),
        torso_site_(FindSuiteSite(model.desc(), "torso", task)) {
    if (model.joints().empty() || model.joints()[0].type != JointType::Free)
      throw std::invalid_argument(task + " needs the model's free root joint first");
    for (const CompiledJoint& j : model.joints())
      if (j.type == JointType::Hinge) hinges_.push_back(j);
    for (size_t a = 0; a < model.desc().actuators.size(); ++a)
      if (model.desc().actuators[a].dynamics != ActuatorDesc::Dynamics::None) stateful_.push_back(int(a));
    for (const char* toe : kToes) toes_.push_back(LeafSite(model.desc(), toe, task));
    AddObservation("egocentric_state", int(2 * hinges_.size() + stateful_.size()));
    AddObservation("torso_velocity", 3);
    AddObservation("torso_upright", 1);
    AddObservation("imu", 6);
    AddObservation("force_torque", 24);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    ws.qpos.assign(robot.model().qpos0().begin(), robot.model().qpos0().end());
    std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
    float q[4];
    double norm = 0.0;
    for (float& c : q) norm += double(c = rng.Normal()) * c;
    for (int k = 0; k < 4; ++k) ws.qpos[size_t(3 + k)] = float(q[k] / std::sqrt(norm));
    ws.qpos[0] = ws.qpos[1] = 0.0f;
    for (int step = 0; step < kMaxHeightSteps; ++step) {
      ws.qpos[2] = 0.01f * float(step);
      if (robot.ContactsAt(ws.qpos.data()) == 0) return;
    }
    throw std::runtime_error("quadruped: no height touching nothing in 10000 centimetre steps");
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    for (const CompiledJoint& j : hinges_) *obs++ = ws.qpos[size_t(j.qposadr)];
    for (const CompiledJoint& j : hinges_) *obs++ = ws.qvel[size_t(j.dofadr)];
    for (int a : stateful_) *obs++ = robot.activations()[size_t(a)];
    const JPH::Vec3 velocity = sensors::Velocimeter(robot, torso_site_);
    for (int k = 0; k < 3; ++k) *obs++ = velocity[k];
    *obs++ = BodyXmat(robot, torso_, 2, 2);
    // An episode starts touching nothing, at rest under zero forces: in free fall, where MuJoCo's forward
    // reads the accelerometer 0 (and the toes' force and torque, zero before an update too).
    const JPH::Vec3 accel = robot.UpdatedSinceStateSet() ? sensors::Accelerometer(robot, torso_site_) : JPH::Vec3::sZero();
    const JPH::Vec3 gyro = sensors::Gyro(robot, torso_site_);
    for (int k = 0; k < 3; ++k) *obs++ = accel[k];  // the model's sensor order: accelerometer, then gyro
    for (int k = 0; k < 3; ++k) *obs++ = gyro[k];
    sensors::ForceTorque ft[4];
    for (int t = 0; t < 4; ++t) ft[t] = sensors::SiteForceTorque(robot, toes_[size_t(t)]);
    for (const auto& f : ft)
      for (int k = 0; k < 3; ++k) *obs++ = std::asinh(f.force[k]);
    for (const auto& f : ft)
      for (int k = 0; k < 3; ++k) *obs++ = std::asinh(f.torque[k]);
  }

  float Reward(const Robot& robot, TaskWorkspace& /*ws*/) const override {
    const double upright = Tolerance(BodyXmat(robot, torso_, 2, 2), {1.0, INFINITY, 2.0, Sigmoid::Linear, 0.0});
    const double forward = sensors::Velocimeter(robot, torso_site_).GetX();
    return float(upright * Tolerance(forward, {speed_, INFINITY, speed_, Sigmoid::Linear, 0.5}));
  }

 private:
  // A site whose MuJoCo body has no child bodies: what sensors::SiteForceTorque reads.
  static int LeafSite(const ModelDesc& desc, const std::string& name, const std::string& task) {
    const int site = FindSuiteSite(desc, name, task);
    const int body = desc.sites[size_t(site)].mj_body;
    for (const BodyFrameDesc& f : desc.mj_body_frames)
      if (f.parent == body)
        throw std::invalid_argument(task + ": the force and torque at site '" + name + "' need its body '" +
                                    desc.mj_body_frames[size_t(body)].name + "' to have no child bodies");
    return site;
  }

  double speed_;
  int torso_, torso_site_;
  std::vector<CompiledJoint> hinges_;  // in model order, as dm_control's egocentric state lists them
  std::vector<int> stateful_;          // actuators with an activation (MuJoCo's act), in model order
  std::vector<int> toes_;              // sites
};

class QuadrupedWalk final : public SuiteQuadruped {
 public:
  QuadrupedWalk(const CompiledModel& model, const SuiteParams& params) : SuiteQuadruped(model, params, 0.5, "QuadrupedWalk") {}
};

class QuadrupedRun final : public SuiteQuadruped {
 public:
  QuadrupedRun(const CompiledModel& model, const SuiteParams& params) : SuiteQuadruped(model, params, 5.0, "QuadrupedRun") {}
};

}  // namespace

JOLTGYM_REGISTER_TASK("QuadrupedWalk", QuadrupedWalk, SuiteParams);
JOLTGYM_REGISTER_TASK("QuadrupedRun", QuadrupedRun, SuiteParams);

}  // namespace joltgym
