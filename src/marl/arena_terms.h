// What the shared-world tasks (sumo, swarm) do alike with free-rooted robots: place one at
// a spot with a heading, and express vectors in a robot's heading frame.
#pragma once

#include "tasks/task.h"

#include <cmath>

namespace joltgym {

// Moves a sampled free-root state (qpos[0..6]) by (x, y) and turns it by `yaw` about z,
// keeping the sample's own noise.
inline void PlaceFreeRoot(TaskWorkspace& ws, float x, float y, float yaw) {
  auto& q = ws.qpos;
  q[0] += x;
  q[1] += y;
  const JPH::Quat noisy(q[4], q[5], q[6], q[3]);
  const JPH::Quat turned = (JPH::Quat::sRotation(JPH::Vec3::sAxisZ(), yaw) * noisy).Normalized();
  q[3] = turned.GetW(), q[4] = turned.GetX(), q[5] = turned.GetY(), q[6] = turned.GetZ();
}

// The rotation about z that turns world axes into the heading frame (x forward, z up) of a
// body with rotation `rot` whose forward axis is its x axis.
inline JPH::Quat HeadingFrame(JPH::QuatArg rot) {
  const JPH::Vec3 forward = rot * JPH::Vec3::sAxisX();
  return JPH::Quat::sRotation(JPH::Vec3::sAxisZ(), -std::atan2(forward.GetY(), forward.GetX()));
}

}  // namespace joltgym
