#include "tasks/g1_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/contact_terms.h"
#include "tasks/go1_model.h"
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
constexpr const char* kFootNames[G1JoystickTask::kFeet] = {"left_foot", "right_foot"};
using playground::kPi;
// The reward terms in EnvPool's order, reported as info["reward_<term>"].
constexpr const char* kRewardNames[G1JoystickTask::kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "base_height", "torques",
    "action_rate", "energy", "dof_acc", "feet_clearance", "feet_air_time", "feet_slip", "feet_height", "feet_phase",
    "stand_still", "alive", "termination", "collision", "contact_force", "joint_deviation_knee",
    "joint_deviation_hip", "dof_pos_limits", "pose"};

float Square(float x) { return x * x; }

}  // namespace

G1JoystickTask::G1JoystickTask(const CompiledModel& model, const G1JoystickParams& params)
    : Task(model, go1::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params) {
  const ModelDesc& desc = model.desc();
  if (model.nq() != 7 + kJoints || model.nv() != 6 + kJoints || model.nu() != kJoints || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(std::string(kTask) + " needs G1's free root and 29 actuated hinges (nq 36, nv 35, nu 29); "
                                "model '" + desc.name + "' has nq " + std::to_string(model.nq()) + ", nv " +
                                std::to_string(model.nv()) + ", nu " + std::to_string(model.nu()));
  home_qpos_ = model.FindKeyframe("knees_bent", kTask).qpos;
  for (int i = 0; i < kJoints; ++i) {
    default_pose_[size_t(i)] = home_qpos_[size_t(7 + i)];
    const JointDesc& joint = desc.joints[size_t(i + 1)];
    const float centre = 0.5f * (joint.range[0] + joint.range[1]), half = 0.5f * (joint.range[1] - joint.range[0]);
    soft_lower_[size_t(i)] = centre - half * params.soft_joint_pos_limit_factor;
    soft_upper_[size_t(i)] = centre + half * params.soft_joint_pos_limit_factor;
  }
  auto joint = [&](const char* name) { return playground::ActuatedJointIndex(desc, name, kTask); };
  hips_ = {joint("left_hip_roll_joint"), joint("left_hip_yaw_joint"), joint("right_hip_roll_joint"),
           joint("right_hip_yaw_joint")};
  knees_ = {joint("left_knee_joint"), joint("right_knee_joint")};
  pelvis_imu_ = model.FindSite("imu_in_pelvis", kTask);
  torso_imu_ = model.FindSite("imu_in_torso", kTask);
  for (int f = 0; f < kFeet; ++f) {
    foot_sites_[size_t(f)] = model.FindSite(kFootNames[f], kTask);
    foot_floor_.emplace_back(model, kFootNames[f], "floor", kTask);
    for (const BodyDesc& body : desc.bodies)
      for (const GeomDesc& g : body.geoms)
        if (g.name == kFootNames[f]) foot_mj_bodies_[size_t(f)] = g.mj_body;
  }
  feet_crossed_.emplace_back(model, "right_foot", "left_foot", kTask);
  feet_crossed_.emplace_back(model, "left_foot", "right_shin", kTask);
  feet_crossed_.emplace_back(model, "right_foot", "left_shin", kTask);
  hands_on_thighs_.emplace_back(model, "left_hand_collision", "left_thigh", kTask);
  hands_on_thighs_.emplace_back(model, "right_hand_collision", "right_thigh", kTask);

  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  observation_.Add("linvel", 3);
  observation_.Add("gyro", 3);
  observation_.Add("gravity", 3);
  observation_.Add("command", 3);
  observation_.Add("joint_pos", kJoints);
  observation_.Add("joint_vel", kJoints);
  observation_.Add("last_act", kJoints);
  observation_.Add("phase", 4);
  observation_.Add("privileged_noisy_state", kStateDim);
  observation_.Add("privileged_gyro", 3);
  observation_.Add("privileged_accelerometer", 3);
  observation_.Add("privileged_gravity", 3);
  observation_.Add("privileged_linvel", 3);
  observation_.Add("privileged_global_angvel", 3);
  observation_.Add("privileged_joint_pos", kJoints);
  observation_.Add("privileged_joint_vel", kJoints);
  observation_.Add("privileged_height", 1);
  observation_.Add("privileged_actuator_force", kJoints);
  observation_.Add("privileged_contact", kFeet);
  observation_.Add("privileged_feet_vel", 3 * kFeet);
  observation_.Add("privileged_feet_air_time", kFeet);
  observation_.AddKey("state", 0, kStateDim);
  observation_.AddKey("privileged_state", kStateDim, kPrivilegedDim);
  command_ = info_.Add("command", true, 3);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

void G1JoystickTask::SampleCommand(Rng& rng, double* command) const {
  const float lo[3] = {params_.lin_vel_x_min, params_.lin_vel_y_min, params_.ang_vel_yaw_min};
  const float hi[3] = {params_.lin_vel_x_max, params_.lin_vel_y_max, params_.ang_vel_yaw_max};
  playground::SampleCommand(rng, lo, hi, 0.1, command);
}

void G1JoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  go1::ScatterOnFloor(rng, ws.qpos.data());
  for (int i = 0; i < kJoints; ++i) ws.qpos[size_t(7 + i)] *= rng.Uniform(0.5f, 1.5f);
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  for (int i = 0; i < 6; ++i) ws.qvel[size_t(i)] = rng.Uniform(-0.5f, 0.5f);

  double* memory = ws.memory.data();
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  const double gait_hz = rng.Uniform(1.25f, 1.5f);
  memory[kPhaseDt] = 2.0 * kPi * double(dt()) * gait_hz;
  memory[kPhase] = 0.0;
  memory[kPhase + 1] = kPi;
  SampleCommand(rng, memory + kCommand);
  memory[kPushInterval] = std::round(rng.Uniform(params_.push_interval_min, params_.push_interval_max) / dt());
  std::copy(memory + kCommand, memory + kCommand + 3, memory + kObservedCommand);
  std::copy(memory + kPhase, memory + kPhase + 2, memory + kObservedPhase);
}

void G1JoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void G1JoystickTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  robot.GetQvel(ws.qvel.data());
  for (int i = 0; i < kJoints; ++i) ws.memory[size_t(kVelocityBefore + i)] = ws.qvel[size_t(6 + i)];
}

void G1JoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  double* memory = ws.memory.data();
  // A push every push_interval steps: a kick to the base's horizontal velocity.
  const int interval = int(memory[kPushInterval]);
  if (params_.push_enable && interval > 0 && (int(memory[kPushStep]) + 1) % interval == 0) {
    playground::PushBase(robot, ws, StreamOf(ws), params_.push_magnitude_min, params_.push_magnitude_max);
  }
  for (int i = 0; i < kJoints; ++i) ws.ctrl[size_t(i)] = default_pose_[size_t(i)] + action[i] * params_.action_scale;
  robot.SetControls(ws.ctrl.data());
}

float G1JoystickTask::FootForceZ(const Robot& robot, int foot) const {
  // MuJoCo's force sensor at the foot's site, as the floor's push on the foot in the site's frame (the
  // foot's own weight and inertia, under 1% of the robot's, left out).
  JPH::Vec3 force = JPH::Vec3::sZero();
  for (const ContactForce& c : robot.ReadContactForces())
    if (c.robot == robot.index() && int(c.geom_tag) - 1 == foot_mj_bodies_[size_t(foot)]) force += c.force;
  return (robot.SiteRotation(foot_sites_[size_t(foot)]).Conjugated() * force).GetZ();
}

void G1JoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const go1::Imu imu = go1::ReadImu(robot, pelvis_imu_);
  const double* memory = ws.memory.data();
  const float level = params_.noise_level;
  float* state = obs;
  int n = 0;
  for (int k = 0; k < 3; ++k) state[n++] = go1::Noisy(rng, imu.linvel[k], level, params_.noise_linvel);
  for (int k = 0; k < 3; ++k) state[n++] = go1::Noisy(rng, imu.gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) state[n++] = go1::Noisy(rng, imu.gravity[k], level, params_.noise_gravity);
  for (int k = 0; k < 3; ++k) state[n++] = float(memory[kObservedCommand + k]);
  for (int i = 0; i < kJoints; ++i)
    state[n++] = go1::Noisy(rng, ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)], level, params_.noise_joint_pos);
  for (int i = 0; i < kJoints; ++i) state[n++] = go1::Noisy(rng, ws.qvel[size_t(6 + i)], level, params_.noise_joint_vel);
  for (int i = 0; i < kJoints; ++i) state[n++] = float(memory[kObservedAction + i]);
  state[n++] = float(std::cos(memory[kObservedPhase]));
  state[n++] = float(std::cos(memory[kObservedPhase + 1]));
  state[n++] = float(std::sin(memory[kObservedPhase]));
  state[n++] = float(std::sin(memory[kObservedPhase + 1]));

  float* p = std::copy(state, state + kStateDim, obs + kStateDim);
  for (const JPH::Vec3& v : {imu.gyro, imu.accelerometer, imu.gravity, imu.linvel, imu.global_angvel})
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) *p++ = ws.qvel[size_t(6 + i)];
  *p++ = ws.qpos[2];
  for (int i = 0; i < kJoints; ++i) *p++ = robot.actuator_forces()[size_t(i)];
  for (int f = 0; f < kFeet; ++f) *p++ = foot_floor_[size_t(f)].Touching(robot) ? 1.0f : 0.0f;
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    for (int k = 0; k < 3; ++k) *p++ = v[k];
  }
  for (int f = 0; f < kFeet; ++f) *p++ = float(memory[kObservedAirTime + f]);
}

StepOutcome G1JoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const float h = dt();

  std::array<bool, kFeet> contact{}, first_contact{};
  std::array<float, kFeet> foot_z{};
  for (int f = 0; f < kFeet; ++f) {
    contact[size_t(f)] = foot_floor_[size_t(f)].Touching(robot);
    first_contact[size_t(f)] = memory[kAirTime + f] > 0.0 && (contact[size_t(f)] || memory[kLastContact + f] > 0.5);
    memory[kAirTime + f] += h;
    foot_z[size_t(f)] = float(robot.SitePosition(foot_sites_[size_t(f)]).GetZ());
    memory[kSwingPeak + f] = std::max(memory[kSwingPeak + f], double(foot_z[size_t(f)]));
  }

  bool finite = true;
  for (float x : ws.qpos) finite = finite && std::isfinite(x);
  for (float x : ws.qvel) finite = finite && std::isfinite(x);
  bool crossed = false;
  for (const GeomContact& c : feet_crossed_) crossed = crossed || c.Touching(robot);
  const JPH::Vec3 torso_up = sensors::FrameZAxis(robot, torso_imu_);
  const bool terminated = torso_up.GetZ() < 0.0f || crossed || !finite;

  const JPH::Vec3 command{float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, pelvis_imu_);
  const JPH::Vec3 gyro = sensors::Gyro(robot, pelvis_imu_);
  const JPH::Vec3 pelvis_linvel = sensors::FrameLinVel(robot, pelvis_imu_);
  const JPH::Vec3 pelvis_angvel = sensors::FrameAngVel(robot, pelvis_imu_);
  const JPH::Vec3 torso_linvel = sensors::FrameLinVel(robot, torso_imu_);
  const JPH::Vec3 torso_angvel = sensors::FrameAngVel(robot, torso_imu_);
  const float command_norm = command.Length();

  float torques = 0.0f, energy = 0.0f, dof_acc = 0.0f, action_rate = 0.0f, stand_still = 0.0f, limits = 0.0f, pose = 0.0f;
  const std::vector<float>& force = robot.actuator_forces();
  for (int i = 0; i < kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)], qvel = ws.qvel[size_t(6 + i)];
    torques += std::fabs(force[size_t(i)]);
    energy += std::fabs(qvel) * std::fabs(force[size_t(i)]);
    // The step's mean joint acceleration, where MuJoCo's qacc is the new state's instantaneous one.
    dof_acc += Square((qvel - float(memory[kVelocityBefore + i])) / h);
    action_rate += Square(action[i] - float(memory[kLastAction + i]));
    stand_still += std::fabs(q - default_pose_[size_t(i)]);
    limits += std::max(soft_lower_[size_t(i)] - q, 0.0f) + std::max(q - soft_upper_[size_t(i)], 0.0f);
    pose += Square(q - default_pose_[size_t(i)]);
  }
  float clearance = 0.0f, feet_height = 0.0f, phase_error = 0.0f, air_time = 0.0f, contact_force = 0.0f;
  int contacts = 0;
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    clearance += std::fabs(foot_z[size_t(f)] - params_.max_foot_height) * std::sqrt(std::sqrt(v[0] * v[0] + v[1] * v[1]));
    if (first_contact[size_t(f)]) {
      feet_height += Square(float(memory[kSwingPeak + f]) / params_.max_foot_height - 1.0f);
      air_time += std::min(float(memory[kAirTime + f]) - 0.2f, 0.3f);
    }
    phase_error += Square(foot_z[size_t(f)] - playground::FootPhaseTarget(memory[kPhase + f], params_.max_foot_height));
    contacts += contact[size_t(f)] ? 1 : 0;
    contact_force += std::max(std::fabs(FootForceZ(robot, f)) - params_.max_contact_force, 0.0f);
  }
  const float pelvis_speed = std::sqrt(Square(pelvis_linvel[0]) + Square(pelvis_linvel[1]));
  const bool phase_mask = pelvis_speed > 0.1f || std::fabs(pelvis_angvel[2]) > 0.1f || command_norm > 0.01f;
  bool collision = false;
  for (const GeomContact& c : hands_on_thighs_) collision = collision || c.Touching(robot);
  float hip_deviation = 0.0f, knee_deviation = 0.0f;
  for (int k = 0; k < 4; ++k) {
    const float weight = command[1] > 0.1f ? (k == 1 || k == 3 ? 1.0f : 0.0f) : 1.0f;
    hip_deviation += std::fabs(ws.qpos[size_t(7 + hips_[size_t(k)])] - default_pose_[size_t(hips_[size_t(k)])]) * weight;
  }
  for (int k : knees_) knee_deviation += std::fabs(ws.qpos[size_t(7 + k)] - default_pose_[size_t(k)]);

  const float terms[kRewardTerms] = {
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
          params_.tracking_lin_vel_scale,
      std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      (Square(pelvis_linvel[2]) + Square(torso_linvel[2])) * params_.lin_vel_z_scale,
      (Square(torso_angvel[0]) + Square(torso_angvel[1])) * params_.ang_vel_xy_scale,
      (Square(torso_up[0] - 0.073f) + Square(torso_up[1]) + Square(torso_up[2] - 1.0f)) * params_.orientation_scale,
      Square(ws.qpos[2] - params_.base_height_target) * params_.base_height_scale,
      torques * params_.torques_scale,
      action_rate * params_.action_rate_scale,
      energy * params_.energy_scale,
      dof_acc * params_.dof_acc_scale,
      clearance * params_.feet_clearance_scale,
      air_time * params_.feet_air_time_scale,
      pelvis_speed * float(contacts) * params_.feet_slip_scale,
      feet_height * params_.feet_height_scale,
      std::exp(-phase_error / 0.01f) * (phase_mask ? 1.0f : 0.0f) * params_.feet_phase_scale,
      (command_norm < 0.01f ? stand_still : 0.0f) * params_.stand_still_scale,
      params_.alive_scale,
      (terminated ? 1.0f : 0.0f) * params_.termination_scale,
      (collision ? 1.0f : 0.0f) * params_.collision_scale,
      contact_force * params_.contact_force_scale,
      knee_deviation * params_.joint_deviation_knee_scale,
      hip_deviation * params_.joint_deviation_hip_scale * 4.0f,
      limits * params_.dof_pos_limits_scale,
      pose * params_.pose_scale,
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }

  // The next observation shows this step's command, phase, previous action and air times.
  std::copy(memory + kCommand, memory + kCommand + 3, memory + kObservedCommand);
  std::copy(memory + kPhase, memory + kPhase + 2, memory + kObservedPhase);
  std::copy(memory + kLastAction, memory + kLastAction + kJoints, memory + kObservedAction);
  std::copy(memory + kAirTime, memory + kAirTime + kFeet, memory + kObservedAirTime);
  memory[kStep] += 1.0;
  memory[kPushStep] += 1.0;
  for (int f = 0; f < kFeet; ++f) {
    if (contact[size_t(f)]) memory[kAirTime + f] = memory[kSwingPeak + f] = 0.0;
    memory[kLastContact + f] = contact[size_t(f)] ? 1.0 : 0.0;
    memory[kPhase + f] = playground::AdvancePhase(memory[kPhase + f], memory[kPhaseDt]);
  }
  std::copy(action, action + kJoints, memory + kLastAction);
  if (memory[kStep] > 500.0) SampleCommand(rng, memory + kCommand);
  if (terminated || memory[kStep] > 500.0) memory[kStep] = 0.0;
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));  // after any resampling, as EnvPool's
  return {total * h, terminated};
}

}  // namespace joltgym
