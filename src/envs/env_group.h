// Environments of one task whose robots share one Jolt world and never touch: each env
// is a robot of the world with its own random stream and scratch. One world update then
// advances all of them, so Jolt's fixed cost per update is paid once per group and each
// robot costs less than alone in a world. Each env's results do not depend on the others:
// every robot's bodies and constraints form islands of their own, so Jolt solves them
// exactly as alone.
//
// A group of one env is a plain one-robot world; a group of several needs robots that
// touch nothing through Jolt (CanShareWorld), so that each can be reset alone.
#pragma once

#include "envs/randomization.h"
#include "physics/world/step_context.h"
#include "physics/world/world.h"
#include "tasks/task.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace joltgym {

class EnvGroup {
 public:
  EnvGroup(ModelPtr model, std::shared_ptr<const Task> task, int num_envs);

  int size() const { return int(envs_.size()); }
  const Task& task() const { return *task_; }
  World& world() { return world_; }
  Robot& robot(int k) { return world_.robot(k); }

  // Env k only: restores its robot's initial state, draws the task's reset noise from
  // `seed`, writes the first observation and an info row holding the reset keys (the rest zero).
  void Reset(int k, std::uint64_t seed, float* obs, double* info);
  // A step of the group: Prepare the envs that step (their actions must be finite and of
  // act_dim length), StepPhysics once, then Finish each of them. A robot that was not
  // prepared keeps its previous controls through StepPhysics: reset it afterwards.
  void Prepare(int k, const float* action);
  void StepPhysics(StepContext& ctx);
  // The outcome says whether env k's physics diverged (Robot::Diverged).
  StepOutcome Finish(int k, const float* action, float* obs, double* info);
  // The task's observation of env k's current state.
  void Observe(int k, float* obs) { task_->Observe(world_.robot(k), envs_[size_t(k)].ws, obs); }
  TaskWorkspace& workspace(int k) { return envs_[size_t(k)].ws; }
  // Env k's state mid-episode (env_state.cpp): its robot (its world, for a robot that touches
  // through Jolt and so has a world of its own), random stream and task workspace. Restored into
  // env j of any group of the same model and task, stepping env j on is bit-identical to
  // stepping env k on from where it was saved. RestoreEnv returns false for a state of another
  // model or task (the env then in no defined state: reset it).
  void SaveEnv(int k, StateBuffer& out) const;
  bool RestoreEnv(int k, StateBuffer& in);
  // Physical parameters drawn for each env at its resets from now on; null: none drawn.
  void SetRandomization(std::shared_ptr<const Randomization> randomization) { randomization_ = std::move(randomization); }

 private:
  // Hands robot k the world geoms its task draws elsewhere this episode (Task::MovedWorldGeoms).
  void DrawMovedGeoms(int k);
  struct Env {
    Rng rng;
    TaskWorkspace ws;
  };

  // Lets the robot of env k settle (Task::settle_steps) from the state in ws, which it then holds.
  void Settle(const Robot& robot, TaskWorkspace& ws);

  std::shared_ptr<const Task> task_;
  std::shared_ptr<const Randomization> randomization_;
  World world_;
  std::vector<Env> envs_;
  // Where a reset's settling runs: a one-robot world of the model, so that it neither steps the
  // group's other envs nor depends on how envs are packed. Only for tasks that settle.
  std::unique_ptr<World> settle_world_;
  std::unique_ptr<StepContext> settle_ctx_;
  std::vector<float> parameter_scratch_;
};

}  // namespace joltgym
