// The Control Suite's manipulator (dm_control/suite/manipulator.py), bring_ball: a planar arm with a
// two-fingered hand (its fingers coupled by a tendon equality) brings a ball to a target; the reward is
// tolerance(ball to target, (0, 1 cm), margin 2 cm). Observations: the arm's eight joints as (sin, cos)
// pairs and their rates, the five touch sensors (log(1 + normal force)), and the hand's, the ball's and the
// target's planar pose (x, z, quaternion w and y), the ball's joint rates between them. Episodes start with
// the arm's joints uniform in their limits (the finger as the thumb), a target anywhere in x in
// [-0.4, 0.4], z in [0.1, 0.4] at any angle (the episode's own, info["target"]: x, z, angle), and the ball
// in the hand (one time in ten), on the target (one in ten) or anywhere with a random sideways speed,
// redrawn until nothing touches.
#include "physics/world/sensors.h"
#include "tasks/suite_task.h"
#include "tasks/suite_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kControlTimestep = 0.01f;
constexpr double kClose = 0.01;       // m: the ball on the target
constexpr double kPInHand = 0.1, kPInTarget = 0.1;
constexpr int kMaxStartAttempts = 1000;
constexpr float kPi = 3.14159265358979f;
const char* const kArmJoints[] = {"arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
                                  "finger", "fingertip", "thumb", "thumbtip"};
const char* const kTouchSites[] = {"palm_touch", "finger_touch", "thumb_touch", "fingertip_touch", "thumbtip_touch"};
const char* const kBallJoints[] = {"ball_x", "ball_z", "ball_y"};

const CompiledJoint& FindJoint(const CompiledModel& model, const std::string& name) {
  for (const CompiledJoint& j : model.joints())
    if (j.name == name) return j;
  throw std::invalid_argument("ManipulatorBringBall needs the model's joint '" + name + "'");
}

class ManipulatorBringBall final : public SuiteTask {
 public:
  ManipulatorBringBall(const CompiledModel& model, const SuiteParams& params)
      : SuiteTask(model, params, kControlTimestep),
        hand_(SuiteBody(model, "hand", kTask)),
        ball_(SuiteBody(model, "ball", kTask)),
        ball_site_(FindSuiteSite(model.desc(), "ball", kTask)),
        grasp_(FindSuiteSite(model.desc(), "grasp", kTask)),
        target_site_(FindSuiteSite(model.desc(), "target_ball", kTask)),
        target_geom_(FindSuiteGeom(model.desc(), "target_ball", kTask)) {
    for (const char* name : kArmJoints) arm_.push_back(FindJoint(model, name));
    for (const char* name : kBallJoints) ball_joints_.push_back(FindJoint(model, name));
    for (const char* name : kTouchSites) touch_.push_back(FindSuiteSite(model.desc(), name, kTask));
    if (target_geom_.world_geom < 0 || model.desc().sites[size_t(target_site_)].body >= 0)
      throw std::invalid_argument(std::string(kTask) + " needs its target fixed in the world (body 'target_ball' without joints)");
    const Vec3f& site = model.desc().sites[size_t(target_site_)].pos;
    target_y_ = site[1];
    AddObservation("arm_pos", 16);
    AddObservation("arm_vel", 8);
    AddObservation("touch", 5);
    AddObservation("hand_pos", 4);
    AddObservation("object_pos", 4);
    AddObservation("object_vel", 3);
    AddObservation("target_pos", 4);
    memory_size_ = 3;  // the target's x, z and angle
    target_info_ = info_.Add("target", /*at_reset=*/true, 3);
  }

  void SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const override {
    const CompiledModel& model = robot.model();
    ws.qpos.assign(model.qpos0().begin(), model.qpos0().end());
    std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
    for (int attempt = 0; attempt < kMaxStartAttempts; ++attempt) {
      for (const CompiledJoint& j : arm_)
        ws.qpos[size_t(j.qposadr)] = j.limited ? rng.Uniform(j.range_lo, j.range_hi) : rng.Uniform(-kPi, kPi);
      ws.qpos[size_t(arm_[4].qposadr)] = ws.qpos[size_t(arm_[6].qposadr)];  // the finger as the thumb
      const float target_x = rng.Uniform(-0.4f, 0.4f), target_z = rng.Uniform(0.1f, 0.4f);
      const float target_angle = rng.Uniform(-kPi, kPi);
      ws.memory = {target_x, target_z, target_angle};
      const double draw = rng.Unit();
      float x, z, angle;
      if (draw < kPInHand) {  // in the hand's grasp, turned as the hand is
        const JPH::RMat44 grasp = robot.SiteFrameAt(ws.qpos.data(), grasp_);
        const JPH::Vec3 axis = grasp.GetAxisX();
        x = float(grasp.GetTranslation().GetX());
        z = float(grasp.GetTranslation().GetZ());
        angle = kPi - std::atan2(axis.GetZ(), axis.GetX());
      } else if (draw < kPInHand + kPInTarget) {
        x = target_x, z = target_z, angle = target_angle;
      } else {  // anywhere, thrown sideways (the speed stays for later draws, as dm_control's does)
        x = rng.Uniform(-0.5f, 0.5f);
        z = rng.Uniform(0.0f, 0.7f);
        angle = rng.Uniform(0.0f, 2.0f * kPi);
        ws.qvel[size_t(ball_joints_[0].dofadr)] = rng.Uniform(-5.0f, 5.0f);
      }
      ws.qpos[size_t(ball_joints_[0].qposadr)] = x;
      ws.qpos[size_t(ball_joints_[1].qposadr)] = z;
      ws.qpos[size_t(ball_joints_[2].qposadr)] = angle;
      if (robot.ContactsAt(ws.qpos.data()) == 0) return;
    }
    throw std::runtime_error(std::string(kTask) + ": no start touching nothing in 1000 draws");
  }

  void ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const override {
    if (double* target = info.Values(target_info_)) std::copy(ws.memory.begin(), ws.memory.begin() + 3, target);
  }

  // The target where the episode put it (dm_control moves its body in the model).
  int MovedWorldGeoms(const TaskWorkspace& ws, WorldGeomMove* out) const override {
    const JPH::Vec3 at(float(ws.memory[0]), target_y_, float(ws.memory[1]));
    out[0] = {target_geom_.world_geom, -1, at, 1.0f};
    out[1] = {-1, target_site_, at, 1.0f};
    return 2;
  }

  void Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const override {
    robot.GetQpos(ws.qpos.data());
    robot.GetQvel(ws.qvel.data());
    for (const CompiledJoint& j : arm_) {
      *obs++ = std::sin(ws.qpos[size_t(j.qposadr)]);
      *obs++ = std::cos(ws.qpos[size_t(j.qposadr)]);
    }
    for (const CompiledJoint& j : arm_) *obs++ = ws.qvel[size_t(j.dofadr)];
    for (int site : touch_) *obs++ = std::log1p(sensors::Touch(robot, site));
    obs = PlanarPose(robot, hand_, obs);
    obs = PlanarPose(robot, ball_, obs);
    for (const CompiledJoint& j : ball_joints_) *obs++ = ws.qvel[size_t(j.dofadr)];
    const double half = 0.5 * ws.memory[2];
    *obs++ = float(ws.memory[0]);
    *obs++ = float(ws.memory[1]);
    *obs++ = float(std::cos(half));
    *obs = float(std::sin(half));
  }

  float Reward(const Robot& robot, TaskWorkspace& ws) const override {
    const JPH::RVec3 ball = robot.SitePosition(ball_site_);
    const JPH::RVec3 target(ws.memory[0], target_y_, ws.memory[1]);
    return float(Tolerance(double(JPH::Vec3(ball - target).Length()), {0.0, kClose, 2.0 * kClose}));
  }

 private:
  static constexpr const char* kTask = "ManipulatorBringBall";

  // dm_control's body_2d_pose: xpos's x and z, xquat's w and y.
  static float* PlanarPose(const Robot& robot, int mj_body, float* obs) {
    const JPH::RVec3 p = robot.MjBodyPosition(mj_body);
    const JPH::Quat q = robot.MjBodyQuaternion(mj_body);
    *obs++ = float(p.GetX());
    *obs++ = float(p.GetZ());
    *obs++ = q.GetW();
    *obs++ = q.GetY();
    return obs;
  }

  int hand_, ball_;  // MuJoCo bodies
  int ball_site_, grasp_, target_site_;
  SuiteGeom target_geom_;
  float target_y_ = 0.0f;  // the target's height off the plane, as the model places it
  std::vector<CompiledJoint> arm_, ball_joints_;
  std::vector<int> touch_;
  InfoSlot target_info_;
};

}  // namespace

JOLTGYM_REGISTER_TASK("ManipulatorBringBall", ManipulatorBringBall, SuiteParams);

}  // namespace joltgym
