#include "tasks/reacher.h"

#include "model/body_ref.h"
#include "tasks/observation_terms.h"
#include "tasks/task_registry.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {

JOLTGYM_REGISTER_TASK("Reacher", ReacherTask, ReacherParams);

namespace {

constexpr int kArmJoints = 2;          // the two arm angles lead qpos and qvel
constexpr float kJointNoise = 0.1f;    // v5's reset_model
constexpr float kVelocityNoise = 0.005f;
constexpr float kGoalRadius = 0.2f;

}  // namespace

ReacherTask::ReacherTask(const CompiledModel& model, const ReacherParams& params)
    : Task(model, params.frame_skip),
      params_(params),
      fingertip_(FindMovingMjBody(model.desc(), BodyRef{-1, "fingertip"}, "Reacher's fingertip")),
      target_(FindMovingMjBody(model.desc(), BodyRef{-1, "target"}, "Reacher's target")) {
  if (model.nq() != model.nv() || model.nq() < kArmJoints + 2)
    throw std::invalid_argument("Reacher needs two arm hinges followed by the target's two slides");
  observation_.Add("cos_qpos", kArmJoints);
  observation_.Add("sin_qpos", kArmJoints);
  observation_.Add("target_qpos", model.nq() - kArmJoints);
  observation_.Add("qvel", kArmJoints);
  observation_.Add("fingertip_minus_target", 2);
  reward_dist_ = info_.Add("reward_dist");
  reward_ctrl_ = info_.Add("reward_ctrl");
}

void ReacherTask::SampleInitialState(const Robot& robot, Rng& rng, TaskWorkspace& ws) const {
  const auto& qpos0 = robot.model().qpos0();
  for (size_t i = 0; i < ws.qpos.size(); ++i) ws.qpos[i] = qpos0[i] + rng.Uniform(-kJointNoise, kJointNoise);
  float gx, gy;
  do {  // a goal uniform in the disc of radius 0.2, by rejection as v5
    gx = rng.Uniform(-kGoalRadius, kGoalRadius);
    gy = rng.Uniform(-kGoalRadius, kGoalRadius);
  } while (std::hypot(gx, gy) >= kGoalRadius);
  const size_t n = ws.qpos.size();
  ws.qpos[n - 2] = gx;
  ws.qpos[n - 1] = gy;
  for (float& v : ws.qvel) v = rng.Uniform(-kVelocityNoise, kVelocityNoise);
  ws.qvel[n - 2] = ws.qvel[n - 1] = 0.0f;  // the target stands still
}

JPH::Vec3 ReacherTask::FingertipToTarget(const Robot& robot) const {
  return JPH::Vec3(robot.MjBodyCentreOfMass(fingertip_) - robot.MjBodyCentreOfMass(target_));
}

void ReacherTask::Observe(const Robot& robot, TaskWorkspace& ws, float* obs) const {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  float* out = obs;
  for (int i = 0; i < kArmJoints; ++i) *out++ = std::cos(ws.qpos[size_t(i)]);
  for (int i = 0; i < kArmJoints; ++i) *out++ = std::sin(ws.qpos[size_t(i)]);
  for (size_t i = kArmJoints; i < ws.qpos.size(); ++i) *out++ = ws.qpos[i];
  for (int i = 0; i < kArmJoints; ++i) *out++ = ws.qvel[size_t(i)];
  const JPH::Vec3 delta = FingertipToTarget(robot);
  *out++ = delta.GetX();
  *out++ = delta.GetY();
}

StepOutcome ReacherTask::Score(Robot& robot, const float* action, TaskWorkspace&, InfoRow info) const {
  const float reward_dist = -FingertipToTarget(robot).Length() * params_.reward_dist_weight;
  const float reward_ctrl = -SquaredNorm(action, act_dim()) * params_.reward_control_weight;
  info.Set(reward_dist_, reward_dist);
  info.Set(reward_ctrl_, reward_ctrl);
  return {reward_dist + reward_ctrl, false};
}

}  // namespace joltgym
