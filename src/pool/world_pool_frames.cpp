// WorldPool's pixel observations (WorldPool::EnableFrames): each env drawn by the worker that
// stepped or reset it, into PoolFrames.
#include "pool/world_pool.h"

#include <numeric>

namespace joltgym {

void WorldPool::DrawEnv(int i, bool fresh, int worker) {
  if (frames_) frames_->Draw(i, groups_[size_t(packing_.WorldOf(i))]->world(), RobotOfEnv(i), fresh, worker);
}

void WorldPool::EnableFrames(const FrameSpec& spec) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (const int flying = async_->in_flight())
    throw std::invalid_argument("pixel observations cannot start while " + std::to_string(flying) +
                                " env(s) are in flight: recv() them first");
  // Workers: the pool's threads, and Recv's caller (num_threads), which also restores states.
  frames_ = std::make_unique<PoolFrames>(spec, num_envs_, threads_.num_threads() + 1, mode_ == AutoresetMode::SameStep);
  threads_.ForEach(
      int(groups_.size()),
      [](void* self, int g, int worker) {
        WorldPool& pool = *static_cast<WorldPool*>(self);
        const int first = pool.packing_.FirstOf(g);
        for (int i = first; i < first + pool.packing_.SizeOf(g); ++i) pool.DrawEnv(i, /*fresh=*/true, worker);
      },
      this);
}

const FrameSpec& WorldPool::frame_spec() const {
  if (!frames_) throw std::invalid_argument("this pool has no pixel observations");
  return frames_->spec();
}

void WorldPool::CopyFrames(const int* envs, int count, bool finals, std::uint8_t* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!frames_) throw std::invalid_argument("this pool has no pixel observations");
  if (finals && mode_ != AutoresetMode::SameStep)
    throw std::invalid_argument("final frames are kept only with same-step autoreset");
  std::vector<int> all;
  if (!envs) {
    all.resize(size_t(num_envs_));
    std::iota(all.begin(), all.end(), 0);
    envs = all.data(), count = num_envs_;
  }
  async_->CheckHeld(envs, count, true, "frames");
  const size_t row = frames_->stack_bytes();
  for (int k = 0; k < count; ++k)
    finals ? frames_->CopyFinalOut(envs[k], out + size_t(k) * row) : frames_->CopyOut(envs[k], out + size_t(k) * row);
}

}  // namespace joltgym
