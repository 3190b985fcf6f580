#include "pool/pool_frames.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace joltgym {

PoolFrames::PoolFrames(const FrameSpec& spec, int num_envs, int num_workers, bool keeps_finals)
    : spec_(spec), frame_bytes_(size_t(spec.width) * size_t(spec.height) * 3) {
  if (spec.width < 1 || spec.height < 1 || spec.width > 4096 || spec.height > 4096)
    throw std::invalid_argument("frame width and height must be in [1, 4096], got " + std::to_string(spec.width) +
                                " x " + std::to_string(spec.height));
  if (spec.stack < 1 || spec.stack > 64)
    throw std::invalid_argument("frame stack must be in [1, 64], got " + std::to_string(spec.stack));
  if (num_envs < 1 || num_workers < 1) throw std::invalid_argument("PoolFrames needs envs and workers");
  frames_.assign(size_t(num_envs) * stack_bytes(), 0);
  head_.assign(size_t(num_envs), 0);
  if (keeps_finals) final_.assign(frames_.size(), 0);
  for (int w = 0; w < num_workers; ++w) renderers_.push_back(std::make_unique<Renderer>());
}

void PoolFrames::Draw(int env, World& world, int robot, bool fresh, int worker) {
  const int stack = spec_.stack;
  int& head = head_[size_t(env)];
  head = fresh ? 0 : (head + 1) % stack;
  CameraSpec camera = spec_.camera;
  camera.only_robot = robot;
  std::uint8_t* newest = Slot(env, head);
  renderers_[size_t(worker)]->Render(world, camera, spec_.width, spec_.height, newest, nullptr, no_marks_);
  if (fresh)
    for (int k = 1; k < stack; ++k) std::memcpy(Slot(env, k), newest, frame_bytes_);
}

void PoolFrames::KeepFinal(int env) {
  if (final_.empty()) throw std::logic_error("PoolFrames made without keeps_finals");
  CopyOut(env, final_.data() + size_t(env) * stack_bytes());
}

void PoolFrames::CopyOut(int env, std::uint8_t* out) const {
  const int stack = spec_.stack, head = head_[size_t(env)];
  const std::uint8_t* first = frames_.data() + size_t(env) * stack_bytes();
  for (int k = 0; k < stack; ++k)  // oldest first: the slot after the newest, round to the newest
    std::memcpy(out + size_t(k) * frame_bytes_, first + size_t((head + 1 + k) % stack) * frame_bytes_, frame_bytes_);
}

void PoolFrames::CopyFinalOut(int env, std::uint8_t* out) const {
  if (final_.empty()) throw std::logic_error("PoolFrames made without keeps_finals");
  std::memcpy(out, final_.data() + size_t(env) * stack_bytes(), stack_bytes());
}

}  // namespace joltgym
