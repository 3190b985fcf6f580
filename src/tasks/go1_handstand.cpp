#include "tasks/go1_handstand.h"

#include "physics/world/sensors.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Go1Handstand", Go1HandstandTask, Go1HandstandParams);
JOLTGYM_REGISTER_TASK("Go1Footstand", Go1FootstandTask, Go1HandstandParams);

namespace {

constexpr const char* kFeet[4] = {"FR", "FL", "RR", "RL"};
// Both tasks end on these (EnvPool keeps the handstand's front-leg geoms for the footstand too).
constexpr const char* kFrontLegGeoms[12] = {"fl_calf1", "fl_calf2", "fr_calf1", "fr_calf2", "fl_thigh1", "fl_thigh2",
                                            "fl_thigh3", "fr_thigh1", "fr_thigh2", "fr_thigh3", "fl_hip", "fr_hip"};
constexpr const char* kRewardNames[Go1HandstandTask::kRewardTerms] = {
    "height", "orientation", "contact", "action_rate", "termination", "dof_pos_limits", "torques", "pose",
    "stay_still", "energy", "dof_acc"};

std::vector<float> KeyframeQpos(const CompiledModel& model, const char* name, const std::string& task) {
  const KeyframeDesc& key = model.FindKeyframe(name, task);
  return key.qpos;
}

}  // namespace

Go1HandstandTask::Go1HandstandTask(const CompiledModel& model, const Go1HandstandParams& params, bool footstand)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params) {
  const std::string task = footstand ? "Go1Footstand" : "Go1Handstand";
  go1::CheckModel(model, params.kp, params.kd, task);
  if (params.dof_acc_scale != 0.0f)
    throw std::invalid_argument("dof_acc_scale must be 0: joltgym does not keep the joints' accelerations");
  home_qpos_ = KeyframeQpos(model, "home", task);
  crouch_qpos_ = KeyframeQpos(model, "pre_recovery", task);
  default_pose_ = go1::KeyframePose(model, "home", task);
  for (int i = 0; i < go1::kJoints; ++i) {
    const JointDesc& joint = model.desc().joints[size_t(i + 1)];
    const float centre = 0.5f * (joint.range[0] + joint.range[1]), half = 0.5f * (joint.range[1] - joint.range[0]);
    soft_lower_[size_t(i)] = centre - half * params.soft_joint_pos_limit_factor;
    soft_upper_[size_t(i)] = centre + half * params.soft_joint_pos_limit_factor;
  }
  for (int k = 0; k < 6; ++k) posed_joints_[size_t(k)] = footstand ? k : 6 + k;
  desired_forward_ = footstand ? JPH::Vec3::sAxisZ() : -JPH::Vec3::sAxisZ();
  desired_height_ = footstand ? 0.53f : 0.55f;
  imu_ = model.FindSite("imu", task);
  for (const char* foot : kFeet) feet_.emplace_back(model, foot, "floor", task);
  for (const char* geom : kFrontLegGeoms) front_leg_geoms_.emplace_back(model, geom, "floor", task);

  memory_size_ = kMemorySize;
  action_bounds_.assign(go1::kJoints, {-1.0f, 1.0f});
  observation_.Add("linvel", 3);
  observation_.Add("gyro", 3);
  observation_.Add("gravity", 3);
  observation_.Add("joint_pos", go1::kJoints);
  observation_.Add("joint_vel", go1::kJoints);
  observation_.Add("last_act", go1::kJoints);
  observation_.Add("privileged_noisy_state", kStateDim);
  observation_.Add("privileged_gyro", 3);
  observation_.Add("privileged_accelerometer", 3);
  observation_.Add("privileged_linvel", 3);
  observation_.Add("privileged_global_angvel", 3);
  observation_.Add("privileged_joint_pos", go1::kJoints);
  observation_.Add("privileged_joint_vel", go1::kJoints);
  observation_.Add("privileged_actuator_force", go1::kJoints);
  observation_.Add("privileged_height", 1);
  observation_.AddKey("state", 0, kStateDim);
  observation_.AddKey("privileged_state", kStateDim, kPrivilegedDim);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

void Go1HandstandTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  const bool crouch = rng.Unit() < params_.init_from_crouch;
  const std::vector<float>& source = crouch ? crouch_qpos_ : home_qpos_;
  std::copy(source.begin(), source.end(), ws.qpos.begin());
  playground::ScatterOnFloor(rng, ws.qpos.data());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  if (!crouch)
    for (int i = 0; i < 6; ++i) ws.qvel[size_t(i)] = rng.Uniform(-0.5f, 0.5f);
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  for (int i = 0; i < go1::kJoints; ++i) ws.memory[size_t(kTargets + i)] = ws.qpos[size_t(7 + i)];
}

void Go1HandstandTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  for (int i = 0; i < go1::kJoints; ++i) {
    ws.memory[size_t(kTargets + i)] += double(action[i] * params_.action_scale);
    ws.ctrl[size_t(i)] = float(ws.memory[size_t(kTargets + i)]);
  }
  robot.SetControls(ws.ctrl.data());
}

void Go1HandstandTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const playground::Imu imu = playground::ReadImu(robot, imu_);
  const float level = params_.noise_level;
  float* state = obs;
  int n = 0;
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.linvel[k], level, params_.noise_linvel);
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.gravity[k], level, params_.noise_gravity);
  for (int i = 0; i < go1::kJoints; ++i)
    state[n++] = playground::Noisy(rng, ws.qpos[size_t(7 + i)], level, params_.noise_joint_pos) - default_pose_[size_t(i)];
  for (int i = 0; i < go1::kJoints; ++i) state[n++] = playground::Noisy(rng, ws.qvel[size_t(6 + i)], level, params_.noise_joint_vel);
  for (int i = 0; i < go1::kJoints; ++i) state[n++] = float(ws.memory[size_t(kObservedAction + i)]);
  go1::WriteTrueSensors(robot, imu, imu_, ws.qpos.data(), ws.qvel.data(), std::copy(state, state + kStateDim, obs + kStateDim));
}

StepOutcome Go1HandstandTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const std::vector<float>& force = robot.actuator_forces();
  float energy = 0.0f, torques = 0.0f, action_rate = 0.0f, limit = 0.0f, pose = 0.0f;
  for (int i = 0; i < go1::kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)];
    energy += std::fabs(force[size_t(i)] * ws.qvel[size_t(6 + i)]);
    torques += force[size_t(i)] * force[size_t(i)];
    const float da = action[i] - float(memory[kLastAction + i]);
    action_rate += da * da;
    limit += -std::min(q - soft_lower_[size_t(i)], 0.0f) + std::max(q - soft_upper_[size_t(i)], 0.0f);
  }
  for (int j : posed_joints_) {
    const float error = ws.qpos[size_t(7 + j)] - default_pose_[size_t(j)];
    pose += error * error;
  }
  bool leg_down = false;
  for (const FloorContact& c : front_leg_geoms_) leg_down = leg_down || c.Touching(robot);
  const bool terminated = sensors::FrameZAxis(robot, imu_).GetZ() < -0.25f || leg_down ||
                          energy > params_.energy_termination_threshold;
  bool foot_down = false;
  for (const FloorContact& c : feet_) foot_down = foot_down || c.Touching(robot);

  const float height = float(robot.SitePosition(imu_).GetZ());
  const float cos_dist = sensors::FrameXAxis(robot, imu_).Dot(desired_forward_);
  const float normalized = 0.5f * cos_dist + 0.5f;
  const float stay_still = ws.qvel[0] * ws.qvel[0] + ws.qvel[1] * ws.qvel[1] + ws.qvel[5] * ws.qvel[5];
  const float terms[kRewardTerms] = {
      std::exp(-(desired_height_ - std::min(height, desired_height_))) * params_.height_scale,
      normalized * normalized * params_.orientation_scale,
      (foot_down ? 1.0f : 0.0f) * params_.contact_scale,
      action_rate * params_.action_rate_scale,
      (terminated ? 1.0f : 0.0f) * params_.termination_scale,
      limit * params_.dof_pos_limits_scale,
      torques * params_.torques_scale,
      pose * params_.pose_scale,
      stay_still * params_.stay_still_scale,
      energy * params_.energy_scale,
      0.0f,  // dof_acc: its scale is 0
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }
  for (int i = 0; i < go1::kJoints; ++i) {  // the next observation shows the previous action, as EnvPool's
    memory[kObservedAction + i] = memory[kLastAction + i];
    memory[kLastAction + i] = action[i];
  }
  return {std::clamp(total * dt(), 0.0f, 10000.0f), terminated};
}

}  // namespace joltgym
