#include "envs/env_instance.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {

EnvInstance::EnvInstance(ModelPtr model, std::shared_ptr<const Task> task)
    : task_(std::move(task)), world_(std::move(model)) {
  if (!task_) throw std::invalid_argument("EnvInstance needs a task");
  const CompiledModel& m = world_.robot(0).model();
  ws_.qpos.assign(size_t(m.nq()), 0.0f);
  ws_.qvel.assign(size_t(m.nv()), 0.0f);
  ws_.contact_forces.assign(size_t(m.desc().mj_nbody) * 6, 0.0f);
}

void EnvInstance::Reset(std::uint64_t seed, float* obs, double* info) {
  rng_.Seed(seed);
  world_.RestoreInitialState();
  Robot& robot = world_.robot(0);
  task_->SampleInitialState(robot, rng_, ws_);
  robot.SetState(ws_.qpos.data(), ws_.qvel.data());
  task_->Observe(robot, ws_, obs);
  std::fill(info, info + task_->info_layout().size(), 0.0);
  task_->ResetInfo(robot, ws_, InfoRow(info));
}

StepOutcome EnvInstance::Step(const float* action, StepContext& ctx, float* obs, double* info) {
  StepOutcome outcome = task_->Step(world_, action, ctx, ws_, info);
  task_->Observe(world_.robot(0), ws_, obs);
  return outcome;
}

}  // namespace joltgym
