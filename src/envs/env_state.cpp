// EnvGroup's saved states (EnvGroup::SaveEnv): the robot, or its whole world where the robot
// touches through Jolt (it then has a world of its own), then the env's random stream and
// the task's workspace.
#include "envs/env_group.h"
#include "tasks/workspace_state.h"

namespace joltgym {

void EnvGroup::SaveEnv(int k, StateBuffer& out) const {
  const Env& e = envs_[size_t(k)];
  if (world_.RobotStandsAlone(k)) {
    world_.SaveRobotState(k, out);
  } else {
    world_.SaveState(out);
  }
  e.rng.SaveTo(out);
  SaveWorkspace(e.ws, out);
}

bool EnvGroup::RestoreEnv(int k, StateBuffer& in) {
  Env& e = envs_[size_t(k)];
  const bool restored = world_.RobotStandsAlone(k) ? world_.RestoreRobotState(k, in) : world_.RestoreState(in);
  if (!restored) return false;
  e.rng.RestoreFrom(in);
  RestoreWorkspace(e.ws, in);
  if (in.IsFailed()) return false;
  DrawMovedGeoms(k);
  return true;
}

}  // namespace joltgym
