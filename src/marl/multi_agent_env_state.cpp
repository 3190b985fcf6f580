// MultiAgentEnv's saved states (MultiAgentEnv::SaveState). The knobs are not in them: they are
// settings the training code owns (an annealed weight), which a restored env keeps.
#include "envs/saved_state.h"
#include "marl/multi_agent_env.h"
#include "tasks/workspace_state.h"

namespace joltgym {

std::string MultiAgentEnv::StateKind() const {
  std::vector<const CompiledModel*> models;
  for (const RobotPlacement& r : task_->robots()) models.push_back(r.model.get());
  return joltgym::StateKind(typeid(*task_), models);
}

void MultiAgentEnv::SaveState(StateBuffer& out) const {
  World& world = view_.world();
  if (task_->CanPack()) {
    for (int i = 0; i < view_.num_robots(); ++i) world.SaveRobotState(view_.first_robot() + i, out);
  } else {
    world.SaveState(out);
  }
  rng_.SaveTo(out);
  out.Write(std::uint64_t(ws_.robots.size()));
  for (const TaskWorkspace& robot : ws_.robots) SaveWorkspace(robot, out);
  out.WriteVector(ws_.controls);
  out.WriteVector(ws_.robot_info);
  out.WriteVector(ws_.values);
  out.WriteVector(live_);
  out.Write(elapsed_);
}

bool MultiAgentEnv::RestoreState(StateBuffer& in) {
  World& world = view_.world();
  if (task_->CanPack()) {
    for (int i = 0; i < view_.num_robots(); ++i)
      if (!world.RestoreRobotState(view_.first_robot() + i, in)) return false;
  } else if (!world.RestoreState(in)) {
    return false;
  }
  rng_.RestoreFrom(in);
  std::uint64_t robots = 0;
  in.Read(robots);
  if (robots != ws_.robots.size()) return false;
  for (TaskWorkspace& robot : ws_.robots) RestoreWorkspace(robot, in);
  in.ReadVectorInto(ws_.controls);
  in.ReadVectorInto(ws_.robot_info);
  in.ReadVectorInto(ws_.values);
  in.ReadVectorInto(live_);
  in.Read(elapsed_);
  return !in.IsFailed();
}

}  // namespace joltgym
