// A task workspace's part of a saved env state (saved_state.h): what it carries from step to
// step of an episode, and its scratch, which costs little and leaves nothing to reason about.
#pragma once

#include "physics/core/state_buffer.h"
#include "tasks/task.h"

namespace joltgym {

inline void SaveWorkspace(const TaskWorkspace& ws, StateBuffer& out) {
  out.WriteVector(ws.qpos);
  out.WriteVector(ws.qvel);
  out.WriteVector(ws.contact_forces);
  out.WriteVector(ws.ctrl);
  out.Write(ws.tracked_before);
  out.WriteVector(ws.memory);
}

// Into a workspace sized for the same task: one of another size marks the read failed.
inline void RestoreWorkspace(TaskWorkspace& ws, StateBuffer& in) {
  in.ReadVectorInto(ws.qpos);
  in.ReadVectorInto(ws.qvel);
  in.ReadVectorInto(ws.contact_forces);
  in.ReadVectorInto(ws.ctrl);
  in.Read(ws.tracked_before);
  in.ReadVectorInto(ws.memory);
}

}  // namespace joltgym
