// Pixel observations of a pool's envs: each env's latest frames (a stack of the last `stack`,
// oldest first), drawn on the worker that steps or resets the env, right after it does, so that
// drawing runs beside the physics on the pool's threads with the GIL released. An env that resets
// (or is restored) fills its whole stack with its first frame, as frame-stacking wrappers do.
#pragma once

#include "render/renderer.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace joltgym {

struct FrameSpec {
  int width = 84;
  int height = 84;
  int stack = 1;
  CameraSpec camera;
};

class PoolFrames {
 public:
  // num_workers: the distinct worker indices Draw may be called with; keeps_finals: KeepFinal is
  // called (same-step autoreset). Throws std::invalid_argument for sizes or a stack out of range.
  PoolFrames(const FrameSpec& spec, int num_envs, int num_workers, bool keeps_finals);

  const FrameSpec& spec() const { return spec_; }
  size_t frame_bytes() const { return frame_bytes_; }
  size_t stack_bytes() const { return frame_bytes_ * size_t(spec_.stack); }

  // Draws env's robot (`robot` of `world`, -1: the world holds env's alone) into its newest frame;
  // `fresh`: every frame of its stack becomes this one.
  void Draw(int env, World& world, int robot, bool fresh, int worker);
  // Keeps env's stack as its episode's last (Gymnasium's final observation) before a reset redraws it.
  void KeepFinal(int env);
  // Env's stack, oldest frame first, into out (stack_bytes()).
  void CopyOut(int env, std::uint8_t* out) const;
  void CopyFinalOut(int env, std::uint8_t* out) const;

 private:
  std::uint8_t* Slot(int env, int k) { return frames_.data() + (size_t(env) * size_t(spec_.stack) + size_t(k)) * frame_bytes_; }

  FrameSpec spec_;
  size_t frame_bytes_;
  std::vector<std::uint8_t> frames_;  // [env][slot] frames; head_[env] the newest slot
  std::vector<int> head_;
  std::vector<std::uint8_t> final_;   // [env] stacks, oldest first (keeps_finals)
  std::vector<std::unique_ptr<Renderer>> renderers_;  // one per worker: a renderer draws one frame at a time
  std::vector<FloorCircle> no_marks_;
};

}  // namespace joltgym
