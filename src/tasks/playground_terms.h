// Pieces EnvPool's Playground joystick ports share: the command draw and the observation history of
// the last frames of readings (OP3, Barkour), kept in the episode's memory.
#pragma once

#include "tasks/rng.h"

#include <algorithm>

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

}  // namespace joltgym::playground
