#include "tasks/reacher.h"

#include "tasks/observation_terms.h"

#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr int kArmJoints = 2;          // the two arm angles lead qpos and qvel
constexpr float kJointNoise = 0.1f;    // v5's reset_model
constexpr float kVelocityNoise = 0.005f;
constexpr float kGoalRadius = 0.2f;

}  // namespace

ReacherTask::ReacherTask(const CompiledModel& model, const ReacherParams& params)
    : SizedTask(2 * kArmJoints + (model.nq() - kArmJoints) + kArmJoints + 2, model.nu(), params.frame_skip),
      params_(params) {
  if (model.nq() != model.nv() || model.nq() < kArmJoints + 2)
    throw std::invalid_argument("Reacher needs two arm hinges followed by the target's two slides");
  const int nbody = model.desc().mj_nbody;
  if (params.fingertip <= 0 || params.fingertip >= nbody || params.target <= 0 || params.target >= nbody)
    throw std::invalid_argument("Reacher: fingertip and target must be MuJoCo body ids of the model");
}

const std::vector<std::string>& ReacherTask::info_keys() const {
  static const std::vector<std::string> keys = {"reward_dist", "reward_ctrl"};
  return keys;
}

const std::vector<std::string>& ReacherTask::reset_info_keys() const {
  static const std::vector<std::string> keys;
  return keys;
}

void ReacherTask::SampleInitialState(const World& world, Rng& rng, TaskWorkspace& ws) const {
  const auto& qpos0 = world.model().qpos0();
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

JPH::Vec3 ReacherTask::FingertipToTarget(const World& world) const {
  return JPH::Vec3(world.MjBodyCentreOfMass(params_.fingertip) - world.MjBodyCentreOfMass(params_.target));
}

void ReacherTask::Observe(const World& world, TaskWorkspace& ws, float* obs) const {
  world.GetQpos(ws.qpos.data());
  world.GetQvel(ws.qvel.data());
  float* out = obs;
  for (int i = 0; i < kArmJoints; ++i) *out++ = std::cos(ws.qpos[size_t(i)]);
  for (int i = 0; i < kArmJoints; ++i) *out++ = std::sin(ws.qpos[size_t(i)]);
  for (size_t i = kArmJoints; i < ws.qpos.size(); ++i) *out++ = ws.qpos[i];
  for (int i = 0; i < kArmJoints; ++i) *out++ = ws.qvel[size_t(i)];
  const JPH::Vec3 delta = FingertipToTarget(world);
  *out++ = delta.GetX();
  *out++ = delta.GetY();
}

StepOutcome ReacherTask::Step(World& world, const float* action, StepContext& ctx, TaskWorkspace&,
                              float* info) const {
  for (int i = 0; i < params_.frame_skip; ++i) world.Step(action, ctx);
  const float reward_dist = -FingertipToTarget(world).Length() * params_.reward_dist_weight;
  const float reward_ctrl = -SquaredNorm(action, act_dim()) * params_.reward_control_weight;
  info[0] = reward_dist;
  info[1] = reward_ctrl;
  return {reward_dist + reward_ctrl, false};
}

}  // namespace joltgym
