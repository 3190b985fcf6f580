// Memory for what one physics update computes and then throws away: a tree's joint-space matrix,
// its factor, its rows and its contact points (joint_space_system.h, joint_space_contacts.h).
// One per stepping thread (StepContext), as Jolt's temp allocator is, instead of one copy in
// every env: a thread steps one world at a time, so it needs room for one world's trees only.
//
// A bump allocator over blocks that never move: World::Step rewinds it before each update, and
// what an update took holds until the next rewind (so a robot's AfterUpdate still reads it).
// The blocks are kept, so once the largest update has been seen a step allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace joltgym {

class UpdateScratch {
 public:
  UpdateScratch() = default;
  UpdateScratch(const UpdateScratch&) = delete;
  UpdateScratch& operator=(const UpdateScratch&) = delete;

  // Everything taken since the last rewind may be overwritten from now on.
  void Rewind() {
    block_ = 0;
    used_ = 0;
  }

  // Room for `count` T's (plain data: nothing is ever destroyed), valid until the next Rewind.
  // Not cleared: what the last update left there, which the taker writes before it reads
  // (clearing every tree's rows and matrix each update costs a few percent of a light step).
  template <class T>
  T* Take(size_t count) {
    static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>,
                  "the scratch holds plain data only");
    static_assert(alignof(T) <= kAlign, "the scratch's blocks are aligned to kAlign");
    if (count == 0) return nullptr;
    return static_cast<T*>(TakeBytes(count * sizeof(T), alignof(T)));
  }

 private:
  static constexpr size_t kAlign = 64;
  static constexpr size_t kMinBlock = size_t(64) << 10;

  struct FreeAligned {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(kAlign)); }
  };
  struct Block {
    std::unique_ptr<std::byte[], FreeAligned> data;
    size_t size = 0;
  };

  void* TakeBytes(size_t bytes, size_t align) {
    for (;; ++block_, used_ = 0) {
      if (block_ == blocks_.size()) {
        const size_t size = std::max(kMinBlock, bytes);
        blocks_.push_back({std::unique_ptr<std::byte[], FreeAligned>(new (std::align_val_t(kAlign)) std::byte[size]), size});
      }
      const size_t start = (used_ + align - 1) / align * align;
      if (start + bytes <= blocks_[block_].size) {
        used_ = start + bytes;
        return blocks_[block_].data.get() + start;
      }
    }
  }

  std::vector<Block> blocks_;
  size_t block_ = 0;  // the block being taken from
  size_t used_ = 0;   // bytes of it taken
};

}  // namespace joltgym
