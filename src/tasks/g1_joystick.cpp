#include "tasks/g1_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/contact_terms.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("G1JoystickFlatTerrain", G1JoystickTask, G1JoystickParams);
JOLTGYM_REGISTER_TASK("G1JoystickRoughTerrain", G1JoystickTask, G1JoystickParams);  // on a height field

namespace {

constexpr const char* kTask = "G1Joystick";
constexpr const char* kFootNames[HumanoidJoystickTask::kFeet] = {"left_foot", "right_foot"};
constexpr int kRewardTerms = 24;
using playground::kPi;
// The reward terms in EnvPool's order, reported as info["reward_<term>"].
constexpr const char* kRewardNames[kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "base_height", "torques",
    "action_rate", "energy", "dof_acc", "feet_clearance", "feet_air_time", "feet_slip", "feet_height", "feet_phase",
    "stand_still", "alive", "termination", "collision", "contact_force", "joint_deviation_knee",
    "joint_deviation_hip", "dof_pos_limits", "pose"};

float Square(float x) { return x * x; }

HumanoidJoystickSetup Setup() {
  HumanoidJoystickSetup setup;
  setup.task = kTask;
  setup.robot = "G1";
  setup.joints = G1JoystickTask::kJoints;
  setup.keyframe = "knees_bent";
  setup.imu = "imu_in_pelvis";
  setup.foot_sites = {kFootNames[0], kFootNames[1]};
  setup.foot_geoms = {std::vector<std::string>{kFootNames[0]}, std::vector<std::string>{kFootNames[1]}};
  setup.clip_reward = false;
  return setup;
}

}  // namespace

G1JoystickTask::G1JoystickTask(const CompiledModel& model, const G1JoystickParams& params)
    : HumanoidJoystickTask(model, Setup(), HumanoidJoystickCommon::Of(params),
                           std::vector<float>(kJoints, params.noise_joint_pos),
                           std::vector<const char*>(std::begin(kRewardNames), std::end(kRewardNames))),
      params_(params) {
  const ModelDesc& desc = model.desc();
  auto joint = [&](const char* name) { return playground::ActuatedJointIndex(desc, name, kTask); };
  hips_ = {joint("left_hip_roll_joint"), joint("left_hip_yaw_joint"), joint("right_hip_roll_joint"),
           joint("right_hip_yaw_joint")};
  knees_ = {joint("left_knee_joint"), joint("right_knee_joint")};
  torso_imu_ = model.FindSite("imu_in_torso", kTask);
  gravity_ = JPH::Vec3(desc.gravity[0], desc.gravity[1], desc.gravity[2]);
  for (int f = 0; f < kFeet; ++f) {
    foot_bodies_[size_t(f)] = desc.sites[size_t(foot_site(f))].body;
    for (const BodyDesc& body : desc.bodies)
      for (const GeomDesc& g : body.geoms)
        if (g.name == kFootNames[f]) foot_mj_bodies_[size_t(f)] = g.mj_body;
  }
  feet_crossed_.emplace_back(model, "right_foot", "left_foot", kTask);
  feet_crossed_.emplace_back(model, "left_foot", "right_shin", kTask);
  feet_crossed_.emplace_back(model, "right_foot", "left_shin", kTask);
  hands_on_thighs_.emplace_back(model, "left_hand_collision", "left_thigh", kTask);
  hands_on_thighs_.emplace_back(model, "right_hand_collision", "right_thigh", kTask);
}

float G1JoystickTask::FootForceZ(const Robot& robot, int foot) const {
  // MuJoCo's force sensor at the foot's site: the ankle's force on the foot, m (a - g) less the
  // floor's push, in the site's frame (the foot is a leaf: its subtree is itself).
  JPH::Vec3 push = JPH::Vec3::sZero();
  for (const ContactForce& c : robot.ReadContactForces())
    if (c.robot == robot.index() && int(c.geom_tag) - 1 == foot_mj_bodies_[size_t(foot)]) push += c.force;
  const int body = foot_bodies_[size_t(foot)];
  const float mass = 1.0f / robot.body(body).GetMotionProperties()->GetInverseMass();
  const JPH::Vec3 force = mass * (robot.BodyLinearAcceleration(body) - gravity_) - push;
  return (robot.SiteRotation(foot_site(foot)).Conjugated() * force).GetZ();
}

bool G1JoystickTask::Terminated(const Robot& robot, const TaskWorkspace& ws) const {
  bool finite = true;
  for (float x : ws.qpos) finite = finite && std::isfinite(x);
  for (float x : ws.qvel) finite = finite && std::isfinite(x);
  bool crossed = false;
  for (const GeomContact& c : feet_crossed_) crossed = crossed || c.Touching(robot);
  return sensors::FrameZAxis(robot, torso_imu_).GetZ() < 0.0f || crossed || !finite;
}

void G1JoystickTask::Terms(const Robot& robot, const TaskWorkspace& ws, const StepState& step,
                           float* terms) const {
  const JPH::Vec3& command = step.command;
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu());
  const JPH::Vec3 gyro = sensors::Gyro(robot, imu());
  const JPH::Vec3 pelvis_linvel = sensors::FrameLinVel(robot, imu());
  const JPH::Vec3 pelvis_angvel = sensors::FrameAngVel(robot, imu());
  const JPH::Vec3 torso_linvel = sensors::FrameLinVel(robot, torso_imu_);
  const JPH::Vec3 torso_angvel = sensors::FrameAngVel(robot, torso_imu_);
  const JPH::Vec3 torso_up = sensors::FrameZAxis(robot, torso_imu_);
  const float command_norm = command.Length();
  float contact_force = 0.0f;
  for (int f = 0; f < kFeet; ++f) contact_force += std::max(std::fabs(FootForceZ(robot, f)) - params_.max_contact_force, 0.0f);
  const float pelvis_speed = std::sqrt(Square(pelvis_linvel[0]) + Square(pelvis_linvel[1]));
  const bool phase_mask = pelvis_speed > 0.1f || std::fabs(pelvis_angvel[2]) > 0.1f || command_norm > 0.01f;
  bool collision = false;
  for (const GeomContact& c : hands_on_thighs_) collision = collision || c.Touching(robot);
  float hip_deviation = 0.0f, knee_deviation = 0.0f;
  for (int k = 0; k < 4; ++k) {
    const float weight = command[1] > 0.1f ? (k == 1 || k == 3 ? 1.0f : 0.0f) : 1.0f;
    hip_deviation += std::fabs(ws.qpos[size_t(7 + hips_[size_t(k)])] - default_pose(hips_[size_t(k)])) * weight;
  }
  for (int k : knees_) knee_deviation += std::fabs(ws.qpos[size_t(7 + k)] - default_pose(k));

  const float values[kRewardTerms] = {
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
          params_.tracking_lin_vel_scale,
      std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      (Square(pelvis_linvel[2]) + Square(torso_linvel[2])) * params_.lin_vel_z_scale,
      (Square(torso_angvel[0]) + Square(torso_angvel[1])) * params_.ang_vel_xy_scale,
      (Square(torso_up[0] - 0.073f) + Square(torso_up[1]) + Square(torso_up[2] - 1.0f)) * params_.orientation_scale,
      Square(ws.qpos[2] - params_.base_height_target) * params_.base_height_scale,
      step.torques * params_.torques_scale,
      step.action_rate * params_.action_rate_scale,
      step.energy * params_.energy_scale,
      step.dof_acc * params_.dof_acc_scale,
      step.clearance * params_.feet_clearance_scale,
      step.air_time * params_.feet_air_time_scale,
      pelvis_speed * float(step.contacts) * params_.feet_slip_scale,
      step.feet_height * params_.feet_height_scale,
      std::exp(-step.phase_error / 0.01f) * (phase_mask ? 1.0f : 0.0f) * params_.feet_phase_scale,
      (command_norm < 0.01f ? step.deviation : 0.0f) * params_.stand_still_scale,
      params_.alive_scale,
      (step.terminated ? 1.0f : 0.0f) * params_.termination_scale,
      (collision ? 1.0f : 0.0f) * params_.collision_scale,
      contact_force * params_.contact_force_scale,
      knee_deviation * params_.joint_deviation_knee_scale,
      hip_deviation * params_.joint_deviation_hip_scale * 4.0f,
      step.limits * params_.dof_pos_limits_scale,
      step.pose * params_.pose_scale,
  };
  std::copy(values, values + kRewardTerms, terms);
}

}  // namespace joltgym
