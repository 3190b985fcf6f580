// Observation, reward and reset terms shared by the tasks.
#pragma once

#include "tasks/task.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace joltgym {

// qpos without its first `skip` entries, then qvel: Gymnasium's
// exclude_current_positions_from_observation layout. Returns floats written.
inline int WritePositionsAndVelocities(const World& world, TaskWorkspace& ws, int skip, float* obs) {
  world.GetQpos(ws.qpos.data());
  world.GetQvel(ws.qvel.data());
  float* out = std::copy(ws.qpos.begin() + skip, ws.qpos.end(), obs);
  out = std::copy(ws.qvel.begin(), ws.qvel.end(), out);
  return int(out - obs);
}

inline float SquaredNorm(const float* v, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += v[i] * v[i];
  return sum;
}

// Gymnasium v5's reset_model: qpos0 + U(-scale, scale), and zero velocity plus
// scale * N(0, 1) (HalfCheetah, InvertedDoublePendulum) or U(-scale, scale) (the rest).
inline void SampleNoisyState(const World& world, Rng& rng, float scale, bool uniform_velocity, TaskWorkspace& ws) {
  const auto& qpos0 = world.model().qpos0();
  for (size_t i = 0; i < ws.qpos.size(); ++i) ws.qpos[i] = qpos0[i] + rng.Uniform(-scale, scale);
  for (float& v : ws.qvel) v = uniform_velocity ? rng.Uniform(-scale, scale) : scale * rng.Normal();
}

// Position in the plane and distance from the origin (qpos[0], qpos[1]): the first
// three info values of the tasks that move in x and y (Ant, Swimmer).
inline const std::vector<std::string>& XYPositionKeys() {
  static const std::vector<std::string> keys = {"x_position", "y_position", "distance_from_origin"};
  return keys;
}
inline void WriteXYPosition(const TaskWorkspace& ws, float* info) {
  info[0] = ws.qpos[0];
  info[1] = ws.qpos[1];
  info[2] = std::hypot(ws.qpos[0], ws.qpos[1]);
}

inline float Clip(float v, float limit) { return v < -limit ? -limit : (v > limit ? limit : v); }

}  // namespace joltgym
