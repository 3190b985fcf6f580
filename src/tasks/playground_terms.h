// Pieces EnvPool's Playground joystick ports share: the command draw, the observation history of
// the last frames of readings (OP3, Barkour), kept in the episode's memory, the humanoids' swing-foot
// height target and their pushes.
#pragma once

#include "physics/world/robot.h"
#include "tasks/rng.h"
#include "tasks/task.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym::playground {

// Forward, sideways and turning velocity uniform in [lo, hi) each; zero with probability zero_chance.
inline void SampleCommand(Rng& rng, const float lo[3], const float hi[3], double zero_chance, double* command) {
  for (int k = 0; k < 3; ++k) command[k] = rng.Uniform(lo[k], hi[k]);
  if (zero_chance > 0.0 && rng.Unit() < zero_chance) command[0] = command[1] = command[2] = 0.0;
}

// The last `frames` frames of `frame_size` readings, newest first, from memory[start] on.
struct FrameHistory {
  int start, frame_size, frames;

  int size() const { return frame_size * frames; }
  // Shifts every frame one back, dropping the oldest; returns the front frame for the new readings.
  double* Push(double* memory) const {
    std::copy_backward(memory + start, memory + start + size() - frame_size, memory + start + size());
    return memory + start;
  }
  void CopyTo(const double* memory, float* obs) const {
    for (int i = 0; i < size(); ++i) obs[i] = float(memory[start + i]);
  }
};

// EnvPool's observation noise on a frame: each reading clipped to +-100 and given U(-1, 1) x noise
// (none when noise < 0; clip_always: clipped even then).
inline void ClipAndNoise(Rng& rng, double* frame, int n, float noise, bool clip_always) {
  if (noise < 0.0f && !clip_always) return;
  for (int i = 0; i < n; ++i) {
    frame[i] = std::clamp(frame[i], -100.0, 100.0);
    if (noise >= 0.0f) frame[i] += double(noise) * (rng.Unit() * 2.0 - 1.0);
  }
}

constexpr double kPi = 3.14159265358979323846;

// The index among the actuated joints (qpos address less the free root's 7) of the joint `name`;
// std::invalid_argument naming `task` when the model has none.
inline int ActuatedJointIndex(const ModelDesc& desc, const std::string& name, const std::string& task) {
  for (const JointDesc& j : desc.joints)
    if (j.name == name) return j.qposadr - 7;
  throw std::invalid_argument(task + " needs a joint named '" + name + "' in model '" + desc.name + "'");
}

// The swing-foot height target at a gait phase in [-pi, pi): up along a cubic Bezier to max_height
// over the first half period, down over the second.
inline float FootPhaseTarget(double phase, float max_height) {
  const double x = (phase + kPi) / (2.0 * kPi);
  auto bezier = [](double t) { return t * t * t + 3.0 * t * t * (1.0 - t); };
  return float(x <= 0.5 ? max_height * bezier(2.0 * x) : max_height - max_height * bezier(2.0 * x - 1.0));
}

// A gait phase advanced by `step`, wrapped into [-pi, pi) as Playground wraps it.
inline double AdvancePhase(double phase, double step) { return std::fmod(phase + step + kPi, 2.0 * kPi) - kPi; }

// A push: the base's horizontal velocity changed by U(min, max) m/s in a U(0, 2 pi) direction.
inline void PushBase(Robot& robot, TaskWorkspace& ws, Rng& rng, float min, float max) {
  const double theta = rng.Uniform(0.0f, float(2.0 * kPi));
  const double magnitude = rng.Uniform(min, max);
  robot.GetQpos(ws.qpos.data());
  robot.GetQvel(ws.qvel.data());
  ws.qvel[0] += float(std::cos(theta) * magnitude);
  ws.qvel[1] += float(std::sin(theta) * magnitude);
  robot.SetState(ws.qpos.data(), ws.qvel.data());
}

}  // namespace joltgym::playground
