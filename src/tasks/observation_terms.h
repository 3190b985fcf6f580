// Observation, reward and reset terms shared by the tasks.
#pragma once

#include "tasks/task.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace joltgym {

// Declares the layout WritePositionsAndVelocities writes, with v5's "skipped_qpos" entry.
inline void AddPositionsAndVelocities(const CompiledModel& model, int skip, ObservationLayout& layout) {
  layout.Note("skipped_qpos", skip);
  layout.Add("qpos", model.nq() - skip);
  layout.Add("qvel", model.nv());
}

// qpos without its first `skip` entries, then qvel: Gymnasium's
// exclude_current_positions_from_observation layout. Returns floats written.
inline int WritePositionsAndVelocities(const Robot& robot, TaskWorkspace& ws, int skip, float* obs) {
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
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
inline void SampleNoisyState(const Robot& robot, Rng& rng, float scale, bool uniform_velocity, TaskWorkspace& ws) {
  const auto& qpos0 = robot.model().qpos0();
  for (size_t i = 0; i < ws.qpos.size(); ++i) ws.qpos[i] = qpos0[i] + rng.Uniform(-scale, scale);
  for (float& v : ws.qvel) v = uniform_velocity ? rng.Uniform(-scale, scale) : scale * rng.Normal();
}

// x_position, y_position and distance_from_origin (qpos[0], qpos[1]): the first info
// keys of the tasks that move in x and y (Ant, Swimmer, Humanoid), also reported at reset.
class XYPositionInfo {
 public:
  explicit XYPositionInfo(InfoLayout& layout)
      : x_(layout.Add("x_position", true)), y_(layout.Add("y_position", true)),
        distance_(layout.Add("distance_from_origin", true)) {}
  void Write(const TaskWorkspace& ws, InfoRow info) const {
    info.Set(x_, ws.qpos[0]);
    info.Set(y_, ws.qpos[1]);
    info.Set(distance_, std::hypot(ws.qpos[0], ws.qpos[1]));
  }

 private:
  InfoSlot x_, y_, distance_;
};

inline float Clip(float v, float limit) { return v < -limit ? -limit : (v > limit ? limit : v); }

}  // namespace joltgym
