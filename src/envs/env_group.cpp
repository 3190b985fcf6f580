#include "envs/env_group.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace joltgym {
namespace {

World MakeWorld(const ModelPtr& model, int num_envs) {
  if (num_envs < 1) throw std::invalid_argument("an env group needs at least one env, got " + std::to_string(num_envs));
  if (num_envs > 1 && !CanShareWorld(model))
    throw std::invalid_argument("robots of model '" + (model ? model->desc().name : std::string("null")) +
                                "' touch bodies through Jolt (hard floor contacts or self-collisions not of sphere and capsule geoms in one articulated tree): "
                                "they cannot share a world as independent envs");
  return World(std::vector<RobotPlacement>(size_t(num_envs), RobotPlacement{model}),
               CollisionRule(num_envs, RobotContact::kNone));
}

}  // namespace

EnvGroup::EnvGroup(ModelPtr model, std::shared_ptr<const Task> task, int num_envs)
    : task_(std::move(task)), world_(MakeWorld(model, num_envs)) {
  if (!task_) throw std::invalid_argument("an env group needs a task");
  const CompiledModel& m = *model;
  envs_.resize(size_t(num_envs));
  for (Env& e : envs_) {
    e.ws.rng = &e.rng;  // envs_ is sized once: the pointer stays valid
    e.ws.memory.assign(size_t(task_->memory_size()), 0.0);
    e.ws.ctrl.assign(size_t(m.nu()), 0.0f);
    e.ws.qpos.assign(size_t(m.nq()), 0.0f);
    e.ws.qvel.assign(size_t(m.nv()), 0.0f);
    e.ws.contact_forces.assign(size_t(m.desc().mj_nbody) * 6, 0.0f);
  }
  if (task_->settle_steps() > 0) {
    settle_world_ = std::make_unique<World>(model);
    settle_ctx_ = std::make_unique<StepContext>();
    int most = 0;
    for (int p = 0; p < kRobotParameters; ++p) most = std::max(most, world_.robot(0).ParameterSize(RobotParameter(p)));
    parameter_scratch_.resize(size_t(most));
  }
}

void EnvGroup::Settle(const Robot& robot, TaskWorkspace& ws) {
  settle_world_->RestoreInitialState();
  Robot& settling = settle_world_->robot(0);
  for (int p = 0; p < kRobotParameters; ++p) {  // the env's own physics (randomised or set)
    robot.GetParameter(RobotParameter(p), parameter_scratch_.data());
    settling.SetParameter(RobotParameter(p), parameter_scratch_.data());
  }
  settling.SetState(ws.qpos.data(), ws.qvel.data());
  settling.SetControls(ws.ctrl.data());
  for (int i = 0; i < task_->settle_steps(); ++i) settle_world_->Step(*settle_ctx_);
  settling.GetQpos(ws.qpos.data());
  settling.GetQvel(ws.qvel.data());
}

void EnvGroup::Reset(int k, std::uint64_t seed, float* obs, double* info) {
  Env& e = envs_[size_t(k)];
  e.rng.Seed(seed);
  if (size() == 1) {
    world_.RestoreInitialState();
  } else {
    world_.RestoreRobotInitialState(k);
  }
  Robot& robot = world_.robot(k);
  e.ws.repeated_reward = 0.0;
  if (randomization_) randomization_->Apply(robot, seed);
  task_->SampleInitialState(robot, e.rng, e.ws);
  if (settle_world_) Settle(robot, e.ws);
  robot.SetState(e.ws.qpos.data(), e.ws.qvel.data());
  task_->Observe(robot, e.ws, obs);
  std::fill(info, info + task_->info_layout().size(), 0.0);
  task_->ResetInfo(robot, e.ws, InfoRow(info));
  DrawMovedGeoms(k);
}

void EnvGroup::DrawMovedGeoms(int k) {
  WorldGeomMove moves[kMaxWorldGeomMoves];
  const int count = task_->MovedWorldGeoms(envs_[size_t(k)].ws, moves);
  world_.robot(k).SetWorldGeomMoves(moves, count);
}

void EnvGroup::Prepare(int k, const float* action) { task_->Prepare(world_.robot(k), action, envs_[size_t(k)].ws); }

void EnvGroup::StepPhysics(StepContext& ctx) {
  const int repeats = task_->action_repeat();
  if (repeats == 1) {
    for (int i = 0; i < task_->frame_skip(); ++i) world_.Step(ctx);
    return;
  }
  // Each control step but the last is scored here; Finish scores the last. A robot about to be
  // reset is scored too and the reset clears its sum.
  const int per_control_step = task_->frame_skip() / repeats;
  for (int r = 0; r < repeats; ++r) {
    for (int i = 0; i < per_control_step; ++i) world_.Step(ctx);
    if (r + 1 == repeats) break;
    for (int k = 0; k < size(); ++k) {
      TaskWorkspace& ws = envs_[size_t(k)].ws;
      ws.repeated_reward += task_->ControlStepReward(world_.robot(k), ws);
    }
  }
}

StepOutcome EnvGroup::Finish(int k, const float* action, float* obs, double* info) {
  Env& e = envs_[size_t(k)];
  Robot& robot = world_.robot(k);
  StepOutcome outcome = task_->Finish(robot, action, e.ws, info);
  task_->Observe(robot, e.ws, obs);
  outcome.diverged = robot.Diverged();
  return outcome;
}

}  // namespace joltgym
