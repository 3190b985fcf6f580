#include "tasks/humanoid_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace joltgym {

HumanoidJoystickTask::HumanoidJoystickTask(const CompiledModel& model, const HumanoidJoystickSetup& setup,
                                           const HumanoidJoystickCommon& common, const std::vector<float>& joint_noise,
                                           const std::vector<const char*>& reward_names)
    : Task(model, playground::FrameSkip(model, common.ctrl_dt, common.sim_dt)), setup_(setup), common_(common),
      joint_noise_(joint_noise) {
  const ModelDesc& desc = model.desc();
  const int n = setup.joints;
  if (reward_names.size() > size_t(kMaxRewardTerms)) throw std::logic_error(setup.task + ": too many reward terms");
  if (!setup.pose_weights.empty() && int(setup.pose_weights.size()) != setup.joints)
    throw std::logic_error(setup.task + ": one pose weight per joint");
  if (model.nq() != 7 + n || model.nv() != 6 + n || model.nu() != n || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(setup.task + " needs " + setup.robot + "'s free root and " + std::to_string(n) +
                                " actuated hinges (nq " + std::to_string(7 + n) + ", nu " + std::to_string(n) +
                                "); model '" + desc.name + "' has nq " + std::to_string(model.nq()) + ", nu " +
                                std::to_string(model.nu()));
  home_qpos_ = model.FindKeyframe(setup.keyframe, setup.task).qpos;
  for (int i = 0; i < n; ++i) {
    default_pose_.push_back(home_qpos_[size_t(7 + i)]);
    const JointDesc& joint = desc.joints[size_t(i + 1)];
    const float centre = 0.5f * (joint.range[0] + joint.range[1]), half = 0.5f * (joint.range[1] - joint.range[0]);
    soft_lower_.push_back(centre - half * common.soft_joint_pos_limit_factor);
    soft_upper_.push_back(centre + half * common.soft_joint_pos_limit_factor);
  }
  imu_ = model.FindSite(setup.imu, setup.task);
  for (int f = 0; f < kFeet; ++f) {
    foot_sites_[size_t(f)] = model.FindSite(setup.foot_sites[size_t(f)], setup.task);
    for (const std::string& geom : setup.foot_geoms[size_t(f)]) foot_floor_[size_t(f)].emplace_back(model, geom, "floor", setup.task);
  }

  memory_size_ = kLastAction + 3 * n;
  action_bounds_.assign(size_t(n), {-1.0f, 1.0f});
  const int state_dim = 12 + 3 * n + 4;
  observation_.Add("linvel", 3);
  observation_.Add("gyro", 3);
  observation_.Add("gravity", 3);
  observation_.Add("command", 3);
  observation_.Add("joint_pos", n);
  observation_.Add("joint_vel", n);
  observation_.Add("last_act", n);
  observation_.Add("phase", 4);
  observation_.Add("privileged_noisy_state", state_dim);
  observation_.Add("privileged_gyro", 3);
  observation_.Add("privileged_accelerometer", 3);
  observation_.Add("privileged_gravity", 3);
  observation_.Add("privileged_linvel", 3);
  observation_.Add("privileged_global_angvel", 3);
  observation_.Add("privileged_joint_pos", n);
  observation_.Add("privileged_joint_vel", n);
  observation_.Add("privileged_height", 1);
  observation_.Add("privileged_actuator_force", n);
  observation_.Add("privileged_contact", kFeet);
  observation_.Add("privileged_feet_vel", 3 * kFeet);
  observation_.Add("privileged_feet_air_time", kFeet);
  observation_.AddKey("state", 0, state_dim);
  observation_.AddKey("privileged_state", state_dim, observation_.size() - state_dim);
  command_ = info_.Add("command", true, 3);
  for (const char* name : reward_names) reward_slots_.push_back(info_.Add(std::string("reward_") + name));
}

void HumanoidJoystickTask::SampleCommand(Rng& rng, double* command) const {
  playground::SampleCommand(rng, common_.command_low.data(), common_.command_high.data(), 0.1, command);
}

void HumanoidJoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  playground::ScatterOnFloor(rng, ws.qpos.data());
  for (int i = 0; i < setup_.joints; ++i) ws.qpos[size_t(7 + i)] *= rng.Uniform(0.5f, 1.5f);
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  for (int i = 0; i < 6; ++i) ws.qvel[size_t(i)] = rng.Uniform(-0.5f, 0.5f);

  double* memory = ws.memory.data();
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  memory[kPhaseDt] = 2.0 * playground::kPi * double(dt()) * rng.Uniform(setup_.gait_hz_min, setup_.gait_hz_max);
  memory[kPhase] = 0.0;
  memory[kPhase + 1] = playground::kPi;
  SampleCommand(rng, memory + kCommand);
  memory[kPushInterval] = std::round(rng.Uniform(common_.push_interval_min, common_.push_interval_max) / dt());
  std::copy(memory + kCommand, memory + kCommand + 3, memory + kObservedCommand);
  std::copy(memory + kPhase, memory + kPhase + 2, memory + kObservedPhase);
}

void HumanoidJoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void HumanoidJoystickTask::BeforePhysics(const Robot& robot, TaskWorkspace& ws) const {
  robot.GetQvel(ws.qvel.data());
  for (int i = 0; i < setup_.joints; ++i) ws.memory[size_t(VelocityBefore() + i)] = ws.qvel[size_t(6 + i)];
}

void HumanoidJoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  const int interval = int(ws.memory[kPushInterval]);
  if (common_.push_enable && interval > 0 && (int(ws.memory[kPushStep]) + 1) % interval == 0)
    playground::PushBase(robot, ws, StreamOf(ws), common_.push_magnitude_min, common_.push_magnitude_max);
  for (int i = 0; i < setup_.joints; ++i)
    ws.ctrl[size_t(i)] = default_pose_[size_t(i)] + action[i] * common_.action_scale;
  robot.SetControls(ws.ctrl.data());
}

bool HumanoidJoystickTask::Touching(const Robot& robot, int foot) const {
  for (const FloorContact& c : foot_floor_[size_t(foot)])
    if (c.Touching(robot)) return true;
  return false;
}

bool HumanoidJoystickTask::Terminated(const Robot& robot, const TaskWorkspace& ws) const {
  bool finite = true;
  for (float x : ws.qpos) finite = finite && std::isfinite(x);
  for (float x : ws.qvel) finite = finite && std::isfinite(x);
  return sensors::FrameZAxis(robot, imu_).GetZ() < 0.0f || !finite;
}

void HumanoidJoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  Rng& rng = StreamOf(ws);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const playground::Imu imu = playground::ReadImu(robot, imu_);
  const double* memory = ws.memory.data();
  const float level = common_.noise_level;
  const int n = setup_.joints;
  float* state = obs;
  int k = 0;
  for (int c = 0; c < 3; ++c) state[k++] = playground::Noisy(rng, imu.linvel[c], level, common_.noise_linvel);
  for (int c = 0; c < 3; ++c) state[k++] = playground::Noisy(rng, imu.gyro[c], level, common_.noise_gyro);
  for (int c = 0; c < 3; ++c) state[k++] = playground::Noisy(rng, imu.gravity[c], level, common_.noise_gravity);
  for (int c = 0; c < 3; ++c) state[k++] = float(memory[kObservedCommand + c]);
  for (int i = 0; i < n; ++i)
    state[k++] = playground::Noisy(rng, ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)], level, joint_noise_[size_t(i)]);
  for (int i = 0; i < n; ++i) state[k++] = playground::Noisy(rng, ws.qvel[size_t(6 + i)], level, common_.noise_joint_vel);
  for (int i = 0; i < n; ++i) state[k++] = float(memory[ObservedAction() + i]);
  state[k++] = float(std::cos(memory[kObservedPhase]));
  state[k++] = float(std::cos(memory[kObservedPhase + 1]));
  state[k++] = float(std::sin(memory[kObservedPhase]));
  state[k++] = float(std::sin(memory[kObservedPhase + 1]));

  float* p = std::copy(state, state + k, obs + k);
  for (const JPH::Vec3& v : {imu.gyro, imu.accelerometer, imu.gravity, imu.linvel, imu.global_angvel})
    for (int c = 0; c < 3; ++c) *p++ = v[c];
  for (int i = 0; i < n; ++i) *p++ = ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)];
  for (int i = 0; i < n; ++i) *p++ = ws.qvel[size_t(6 + i)];
  *p++ = ws.qpos[2];
  for (int i = 0; i < n; ++i) *p++ = robot.actuator_forces()[size_t(i)];
  for (int f = 0; f < kFeet; ++f) *p++ = Touching(robot, f) ? 1.0f : 0.0f;
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    for (int c = 0; c < 3; ++c) *p++ = v[c];
  }
  for (int f = 0; f < kFeet; ++f) *p++ = float(memory[kObservedAirTime + f]);
}

StepOutcome HumanoidJoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  const float h = dt();
  const int n = setup_.joints;

  StepState step;
  for (int f = 0; f < kFeet; ++f) {
    step.contact[size_t(f)] = Touching(robot, f);
    step.first_contact[size_t(f)] = memory[kAirTime + f] > 0.0 && (step.contact[size_t(f)] || memory[kLastContact + f] > 0.5);
    memory[kAirTime + f] += h;
    step.foot_z[size_t(f)] = float((robot.SitePosition(foot_sites_[size_t(f)]) - robot.origin()).GetZ());
    memory[kSwingPeak + f] = std::max(memory[kSwingPeak + f], double(step.foot_z[size_t(f)]));
  }
  step.command = JPH::Vec3(float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2]));
  step.terminated = Terminated(robot, ws);
  const std::vector<float>& force = robot.actuator_forces();
  for (int i = 0; i < n; ++i) {
    const float q = ws.qpos[size_t(7 + i)], qvel = ws.qvel[size_t(6 + i)], delta = q - default_pose_[size_t(i)];
    const float torque = std::fabs(force[size_t(i)]);
    step.torques += torque;
    step.energy += std::fabs(qvel) * torque;
    // The step's mean joint acceleration, where MuJoCo's qacc is the new state's instantaneous one.
    const float acceleration = (qvel - float(memory[VelocityBefore() + i])) / h;
    step.dof_acc += acceleration * acceleration;
    const float change = action[i] - float(memory[kLastAction + i]);
    step.action_rate += change * change;
    step.deviation += std::fabs(delta);
    step.limits += std::max(soft_lower_[size_t(i)] - q, 0.0f) + std::max(q - soft_upper_[size_t(i)], 0.0f);
    step.pose += delta * delta * (setup_.pose_weights.empty() ? 1.0f : setup_.pose_weights[size_t(i)]);
  }
  const float max_height = common_.max_foot_height;
  for (int f = 0; f < kFeet; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    const float z = step.foot_z[size_t(f)];
    step.clearance += std::fabs(z - max_height) * std::sqrt(std::sqrt(v[0] * v[0] + v[1] * v[1]));
    if (step.first_contact[size_t(f)]) {
      const float peak = float(memory[kSwingPeak + f]) / max_height - 1.0f;
      step.feet_height += peak * peak;
      step.air_time += std::min(float(memory[kAirTime + f]) - 0.2f, 0.3f);
    }
    const float error = z - playground::FootPhaseTarget(memory[kPhase + f], max_height);
    step.phase_error += error * error;
    step.contacts += step.contact[size_t(f)] ? 1 : 0;
  }

  std::array<float, kMaxRewardTerms> terms{};
  Terms(robot, ws, step, terms.data());
  float total = 0.0f;
  for (size_t t = 0; t < reward_slots_.size(); ++t) {
    total += terms[t];
    info.Set(reward_slots_[t], terms[t]);
  }

  // The next observation shows this step's command, phase, previous action and air times.
  std::copy(memory + kCommand, memory + kCommand + 3, memory + kObservedCommand);
  std::copy(memory + kPhase, memory + kPhase + 2, memory + kObservedPhase);
  std::copy(memory + kLastAction, memory + kLastAction + n, memory + ObservedAction());
  std::copy(memory + kAirTime, memory + kAirTime + kFeet, memory + kObservedAirTime);
  memory[kStep] += 1.0;
  memory[kPushStep] += 1.0;
  const bool resting = setup_.phase_rests_without_command && step.command.Length() <= 0.01f;
  for (int f = 0; f < kFeet; ++f) {
    if (step.contact[size_t(f)]) memory[kAirTime + f] = memory[kSwingPeak + f] = 0.0;
    memory[kLastContact + f] = step.contact[size_t(f)] ? 1.0 : 0.0;
    memory[kPhase + f] = resting ? playground::kPi : playground::AdvancePhase(memory[kPhase + f], memory[kPhaseDt]);
  }
  std::copy(action, action + n, memory + kLastAction);
  if (memory[kStep] > 500.0) SampleCommand(rng, memory + kCommand);
  if (step.terminated || memory[kStep] > 500.0) memory[kStep] = 0.0;
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  return {setup_.clip_reward ? std::clamp(total * h, 0.0f, 10000.0f) : total * h, step.terminated};
}

}  // namespace joltgym
