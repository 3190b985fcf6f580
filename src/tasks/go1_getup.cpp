#include "tasks/go1_getup.h"

#include "physics/world/sensors.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Go1Getup", Go1GetupTask, Go1GetupParams);

namespace {

constexpr const char* kRewardNames[Go1GetupTask::kRewardTerms] = {
    "orientation", "torso_height", "posture", "stand_still", "action_rate", "dof_pos_limits", "torques", "dof_acc",
    "dof_vel"};
constexpr float kDesiredHeight = 0.275f;
constexpr float kMaxJointSpeed = 2.0f * 3.14159265358979f;

}  // namespace

Go1GetupTask::Go1GetupTask(const CompiledModel& model, const Go1GetupParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params) {
  const std::string task = "Go1Getup";
  go1::CheckModel(model, params.kp, params.kd, task);
  if (!(params.settle_time >= 0.0f)) throw std::invalid_argument("settle_time must be >= 0");
  home_qpos_ = model.FindKeyframe("home", task).qpos;
  default_pose_ = go1::KeyframePose(model, "home", task);
  for (int i = 0; i < go1::kJoints; ++i) {
    const JointDesc& joint = model.desc().joints[size_t(i + 1)];
    range_lower_[size_t(i)] = joint.range[0];
    range_upper_[size_t(i)] = joint.range[1];
    const float centre = 0.5f * (joint.range[0] + joint.range[1]), half = 0.5f * (joint.range[1] - joint.range[0]);
    soft_lower_[size_t(i)] = centre - half * params.soft_joint_pos_limit_factor;
    soft_upper_[size_t(i)] = centre + half * params.soft_joint_pos_limit_factor;
  }
  imu_ = model.FindSite("imu", task);

  memory_size_ = kMemorySize;
  settle_steps_ = int(params.settle_time / params.sim_dt);  // EnvPool truncates too
  action_bounds_.assign(go1::kJoints, {-1.0f, 1.0f});
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

void Go1GetupTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  if (rng.Unit() < params_.drop_from_height_prob) {  // dropped from 0.5 m in a random orientation and pose
    std::fill(ws.qpos.begin(), ws.qpos.end(), 0.0f);
    ws.qpos[2] = 0.5f;
    float quat[4];
    for (float& c : quat) c = rng.Normal();
    const float norm = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]) + 1e-6f;
    for (int k = 0; k < 4; ++k) ws.qpos[size_t(3 + k)] = quat[k] / norm;
    for (int i = 0; i < go1::kJoints; ++i)
      ws.qpos[size_t(7 + i)] = rng.Uniform(range_lower_[size_t(i)], range_upper_[size_t(i)]);
  } else {
    std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  }
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  for (int i = 0; i < 6; ++i) ws.qvel[size_t(i)] = rng.Uniform(-0.5f, 0.5f);
  // It settles (Task::settle_steps) holding these targets: the pose it starts in.
  for (int i = 0; i < go1::kJoints; ++i) ws.ctrl[size_t(i)] = ws.qpos[size_t(7 + i)];
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
}

void Go1GetupTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  robot.GetQvel(ws.qvel.data());
  for (int i = 0; i < go1::kJoints; ++i) ws.memory[size_t(kVelocityBefore + i)] = ws.qvel[size_t(6 + i)];
}

void Go1GetupTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  robot.GetQpos(ws.qpos.data());
  for (int i = 0; i < go1::kJoints; ++i) ws.ctrl[size_t(i)] = ws.qpos[size_t(7 + i)] + action[i] * params_.action_scale;
  robot.SetControls(ws.ctrl.data());
}

void Go1GetupTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const playground::Imu imu = playground::ReadImu(robot, imu_);
  const float level = params_.noise_level;
  float* state = obs;
  int n = 0;
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.gyro[k], level, params_.noise_gyro);
  for (int k = 0; k < 3; ++k) state[n++] = playground::Noisy(rng, imu.gravity[k], level, params_.noise_gravity);
  for (int i = 0; i < go1::kJoints; ++i)
    state[n++] = playground::Noisy(rng, ws.qpos[size_t(7 + i)], level, params_.noise_joint_pos) - default_pose_[size_t(i)];
  for (int i = 0; i < go1::kJoints; ++i) state[n++] = playground::Noisy(rng, ws.qvel[size_t(6 + i)], level, params_.noise_joint_vel);
  for (int i = 0; i < go1::kJoints; ++i) state[n++] = float(ws.memory[size_t(kObservedAction + i)]);
  go1::WriteTrueSensors(robot, imu, imu_, ws.qpos.data(), ws.qvel.data(), std::copy(state, state + kStateDim, obs + kStateDim));
}

StepOutcome Go1GetupTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const std::vector<float>& force = robot.actuator_forces();
  float energy = 0.0f, posture = 0.0f, still = 0.0f, action_rate = 0.0f, limit = 0.0f, torque_l2 = 0.0f,
        torque_l1 = 0.0f, dof_acc = 0.0f, dof_vel = 0.0f;
  for (int i = 0; i < go1::kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)], qvel = ws.qvel[size_t(6 + i)], torque = force[size_t(i)];
    energy += std::fabs(torque * qvel);
    posture += (q - default_pose_[size_t(i)]) * (q - default_pose_[size_t(i)]);
    still += action[i] * action[i];
    const float last = float(memory[kLastAction + i]), last_last = float(memory[kLastLastAction + i]);
    action_rate += (action[i] - last) * (action[i] - last) + (action[i] - 2.0f * last + last_last) * (action[i] - 2.0f * last + last_last);
    limit += -std::min(q - soft_lower_[size_t(i)], 0.0f) + std::max(q - soft_upper_[size_t(i)], 0.0f);
    torque_l2 += torque * torque;
    torque_l1 += std::fabs(torque);
    // The step's mean joint acceleration, where MuJoCo's qacc is the new state's instantaneous one.
    const float acc = (qvel - float(memory[kVelocityBefore + i])) / dt();
    dof_acc += acc * acc;
    const float over = std::max(std::fabs(qvel) - kMaxJointSpeed, 0.0f);
    dof_vel += over * over;
  }
  const bool terminated = energy > params_.energy_termination_threshold;
  const JPH::Vec3 gravity = playground::ReadImu(robot, imu_).gravity;
  const float orientation_error =
      gravity.GetX() * gravity.GetX() + gravity.GetY() * gravity.GetY() + (-1.0f - gravity.GetZ()) * (-1.0f - gravity.GetZ());
  const bool upright = orientation_error < 0.01f;
  const float height = std::min(float(robot.SitePosition(imu_).GetZ()), kDesiredHeight);
  const bool at_height = kDesiredHeight - height < 0.005f;
  const float terms[kRewardTerms] = {
      std::exp(-2.0f * orientation_error) * params_.orientation_scale,
      (std::exp(height) - 1.0f) * params_.torso_height_scale,
      (upright ? std::exp(-0.5f * posture) : 0.0f) * params_.posture_scale,
      (upright && at_height ? std::exp(-0.5f * still) : 0.0f) * params_.stand_still_scale,
      action_rate * params_.action_rate_scale,
      limit * params_.dof_pos_limits_scale,
      (std::sqrt(torque_l2) + torque_l1) * params_.torques_scale,
      dof_acc * params_.dof_acc_scale,
      dof_vel * params_.dof_vel_scale,
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }
  for (int i = 0; i < go1::kJoints; ++i) {  // the next observation shows the previous action, as EnvPool's
    memory[kObservedAction + i] = memory[kLastAction + i];
    memory[kLastLastAction + i] = memory[kLastAction + i];
    memory[kLastAction + i] = action[i];
  }
  return {std::clamp(total * dt(), 0.0f, 10000.0f), terminated};
}

}  // namespace joltgym
