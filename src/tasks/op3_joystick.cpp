#include "tasks/op3_joystick.h"

#include "physics/world/sensors.h"
#include "tasks/playground_robot.h"
#include "tasks/playground_terms.h"
#include "tasks/task_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Op3Joystick", Op3JoystickTask, Op3JoystickParams);

namespace {

constexpr const char* kTask = "Op3Joystick";
constexpr const char* kRewardNames[Op3JoystickTask::kRewardTerms] = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation", "torques", "action_rate",
    "zero_cmd", "termination", "feet_slip", "feet_clearance", "energy"};

float Square(float x) { return x * x; }

}  // namespace

Op3JoystickTask::Op3JoystickTask(const CompiledModel& model, const Op3JoystickParams& params)
    : Task(model, playground::FrameSkip(model, params.ctrl_dt, params.sim_dt)), params_(params) {
  const ModelDesc& desc = model.desc();
  if (model.nq() != 7 + kJoints || model.nv() != 6 + kJoints || model.nu() != kJoints || desc.joints.empty() ||
      desc.joints[0].type != JointType::Free)
    throw std::invalid_argument(std::string(kTask) + " needs OP3's free root and 20 actuated hinges (nq 27, nv 26, nu 20); "
                                "model '" + desc.name + "' has nq " + std::to_string(model.nq()) + ", nv " +
                                std::to_string(model.nv()) + ", nu " + std::to_string(model.nu()));
  for (int i = 0; i < kJoints; ++i) {
    const CompiledActuator& a = model.actuators()[size_t(i)];
    if (a.joint != i + 1 || !a.affine || std::fabs(a.gain - params.kp) > 1e-4f * params.kp)
      throw std::invalid_argument("actuator '" + desc.actuators[size_t(i)].name + "' must be a position actuator of joint " +
                                  std::to_string(i + 1) + " with kp " + std::to_string(params.kp) +
                                  " (joltgym.tasks sets kp on the model)");
    ctrl_lower_[size_t(i)] = a.ctrl_lo;
    ctrl_upper_[size_t(i)] = a.ctrl_hi;
  }
  home_qpos_ = model.FindKeyframe("stand_bent_knees", kTask).qpos;
  for (int i = 0; i < kJoints; ++i) default_pose_[size_t(i)] = home_qpos_[size_t(7 + i)];
  imu_ = model.FindSite("imu", kTask);
  foot_sites_ = {model.FindSite("left_foot", kTask), model.FindSite("right_foot", kTask)};
  for (const char* g : {"l_foot1", "l_foot2"}) left_foot_.emplace_back(model, g, "floor", kTask);
  for (const char* g : {"r_foot1", "r_foot2"}) right_foot_.emplace_back(model, g, "floor", kTask);
  for (size_t b = 0; b < desc.bodies.size(); ++b)
    if (desc.bodies[b].name == "body_link") torso_ = int(b);
  if (torso_ < 0) throw std::invalid_argument(std::string(kTask) + " needs a body named 'body_link'");

  memory_size_ = kMemorySize;
  action_bounds_.assign(kJoints, {-1.0f, 1.0f});
  for (int h = 0; h < kHistory; ++h) {
    const std::string frame = "frame" + std::to_string(h) + "_";
    observation_.Add(frame + "gyro", 3);
    observation_.Add(frame + "upvector", 3);
    observation_.Add(frame + "command", 3);
    observation_.Add(frame + "joint_pos", kJoints);
    observation_.Add(frame + "last_act", kJoints);
  }
  command_ = info_.Add("command", true, 3);
  for (int t = 0; t < kRewardTerms; ++t) reward_slots_[size_t(t)] = info_.Add(std::string("reward_") + kRewardNames[t]);
}

void Op3JoystickTask::SampleCommand(Rng& rng, double* command) const {
  const float lo[3] = {params_.lin_vel_x_min, params_.lin_vel_y_min, params_.ang_vel_yaw_min};
  const float hi[3] = {params_.lin_vel_x_max, params_.lin_vel_y_max, params_.ang_vel_yaw_max};
  playground::SampleCommand(rng, lo, hi, 0.1, command);
}

void Op3JoystickTask::SampleInitialState(const Robot& /*robot*/, Rng& rng, TaskWorkspace& ws) const {
  std::copy(home_qpos_.begin(), home_qpos_.end(), ws.qpos.begin());
  std::fill(ws.qvel.begin(), ws.qvel.end(), 0.0f);
  std::fill(ws.memory.begin(), ws.memory.end(), 0.0);
  SampleCommand(rng, ws.memory.data() + kCommand);
  ws.memory[kFramePending] = 1.0;
}

void Op3JoystickTask::ResetInfo(const Robot& /*robot*/, TaskWorkspace& ws, InfoRow info) const {
  std::copy(ws.memory.begin() + kCommand, ws.memory.begin() + kCommand + 3, info.Values(command_));
}

void Op3JoystickTask::Actuate(Robot& robot, const float* action, TaskWorkspace& ws) const {
  for (int i = 0; i < kJoints; ++i)
    ws.ctrl[size_t(i)] = std::clamp(default_pose_[size_t(i)] + action[i] * params_.action_scale, ctrl_lower_[size_t(i)],
                                    ctrl_upper_[size_t(i)]);
  robot.SetControls(ws.ctrl.data());
}

void Op3JoystickTask::PushFrame(const Robot& robot, TaskWorkspace& ws) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  robot.GetQpos(ws.qpos.data());
  double* frame = history_.Push(memory);
  const JPH::Vec3 gyro = sensors::Gyro(robot, imu_), up = sensors::FrameZAxis(robot, imu_);
  int n = 0;
  for (int k = 0; k < 3; ++k) frame[n++] = gyro[k];
  for (int k = 0; k < 3; ++k) frame[n++] = up[k];
  for (int k = 0; k < 3; ++k) frame[n++] = memory[kCommand + k];
  for (int i = 0; i < kJoints; ++i) frame[n++] = ws.qpos[size_t(7 + i)] - default_pose_[size_t(i)];
  for (int i = 0; i < kJoints; ++i) frame[n++] = memory[kLastAction + i];
  playground::ClipAndNoise(rng, frame, kFrame, params_.obs_noise, /*clip_always=*/false);
}

void Op3JoystickTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  if (ws.memory[kFramePending] > 0.5) {  // the reset's first frame
    ws.memory[kFramePending] = 0.0;
    PushFrame(robot, ws);
  }
  history_.CopyTo(ws.memory.data(), obs);
}

StepOutcome Op3JoystickTask::Score(Robot& robot, const float* action, TaskWorkspace& ws, InfoRow info) const {
  Rng& rng = StreamOf(ws);
  double* memory = ws.memory.data();
  PushFrame(robot, ws);  // the observation of the state the step reached, before its bookkeeping
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());

  bool out_of_range = false;
  for (int i = 0; i < kJoints; ++i) {
    const float q = ws.qpos[size_t(7 + i)];
    out_of_range = out_of_range || q < ctrl_lower_[size_t(i)] || q > ctrl_upper_[size_t(i)];
  }
  const JPH::Vec3 up = sensors::FrameZAxis(robot, imu_);
  const bool fallen = up.GetZ() < 0.85f || float((robot.body(torso_).GetPosition() - robot.origin()).GetZ()) < 0.21f;
  const bool terminated = out_of_range || (params_.early_termination && fallen);

  const JPH::Vec3 command{float(memory[kCommand]), float(memory[kCommand + 1]), float(memory[kCommand + 2])};
  const JPH::Vec3 linvel = sensors::Velocimeter(robot, imu_), gyro = sensors::Gyro(robot, imu_);
  const JPH::Vec3 global_linvel = sensors::FrameLinVel(robot, imu_), global_angvel = sensors::FrameAngVel(robot, imu_);
  const std::vector<float>& force = robot.actuator_forces();
  float torque_sq = 0.0f, torque_abs = 0.0f, action_rate = 0.0f, zero_cmd = 0.0f, energy = 0.0f;
  for (int i = 0; i < kJoints; ++i) {
    torque_sq += Square(force[size_t(i)]);
    torque_abs += std::fabs(force[size_t(i)]);
    const float last = float(memory[kLastAction + i]), last_last = float(memory[kLastLastAction + i]);
    action_rate += Square(action[i] - last) + Square(action[i] - 2.0f * last + last_last);
    zero_cmd += Square(action[i]);
    energy += std::fabs(ws.qvel[size_t(6 + i)]) * std::fabs(force[size_t(i)]);
  }
  const bool contact[2] = {left_foot_[0].Touching(robot) || left_foot_[1].Touching(robot),
                           right_foot_[0].Touching(robot) || right_foot_[1].Touching(robot)};
  float slip = 0.0f, clearance = 0.0f;
  for (int f = 0; f < 2; ++f) {
    const JPH::Vec3 v = sensors::FrameLinVel(robot, foot_sites_[size_t(f)]);
    const float speed_sq = v[0] * v[0] + v[1] * v[1];
    if (contact[f]) slip += speed_sq;
    const float z = float(robot.SitePosition(foot_sites_[size_t(f)]).GetZ());
    clearance += Square(z - params_.max_foot_height) * std::sqrt(std::sqrt(speed_sq));
  }
  const float terms[kRewardTerms] = {
      std::exp(-(Square(command[0] - linvel[0]) + Square(command[1] - linvel[1])) / params_.tracking_sigma) *
          params_.tracking_lin_vel_scale,
      std::exp(-Square(command[2] - gyro[2]) / params_.tracking_sigma) * params_.tracking_ang_vel_scale,
      Square(global_linvel[2]) * params_.lin_vel_z_scale,
      (Square(global_angvel[0]) + Square(global_angvel[1])) * params_.ang_vel_xy_scale,
      (Square(up[0]) + Square(up[1])) * params_.orientation_scale,
      (std::sqrt(torque_sq) + torque_abs) * params_.torques_scale,
      action_rate * params_.action_rate_scale,
      (command.Length() < 0.1f ? zero_cmd : 0.0f) * params_.zero_cmd_scale,
      (terminated && memory[kStep] < 500.0 ? 1.0f : 0.0f) * params_.termination_scale,
      slip * params_.feet_slip_scale,
      clearance * params_.feet_clearance_scale,
      energy * params_.energy_scale,
  };
  float total = 0.0f;
  for (int t = 0; t < kRewardTerms; ++t) {
    total += terms[t];
    info.Set(reward_slots_[size_t(t)], terms[t]);
  }
  std::copy(memory + kLastAction, memory + kLastAction + kJoints, memory + kLastLastAction);
  std::copy(action, action + kJoints, memory + kLastAction);
  memory[kStep] += 1.0;
  if (memory[kStep] > 500.0) SampleCommand(rng, memory + kCommand);
  if (terminated || memory[kStep] > 500.0) memory[kStep] = 0.0;
  std::copy(memory + kCommand, memory + kCommand + 3, info.Values(command_));
  return {std::clamp(total * dt(), 0.0f, 10000.0f), terminated};
}

}  // namespace joltgym
