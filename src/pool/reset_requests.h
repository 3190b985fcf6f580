// Resets sent to envs of a pool in its asynchronous mode (SendReset): which envs reset at their
// world's next job instead of stepping, and the seeds that restart their episode streams.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace joltgym {

struct ResetRequests {
  explicit ResetRequests(size_t n)
      : now(std::make_unique<bool[]>(n)), reseed(std::make_unique<bool[]>(n)), seeds(n) {}  // all false

  // Every env of n resets; seeds[i] restarts env i's stream when seeds is given.
  void All(int n, const std::uint64_t* given) {
    for (int i = 0; i < n; ++i) {
      now[i] = true;
      reseed[i] = given != nullptr;
      if (given) seeds[size_t(i)] = given[i];
    }
  }
  // Envs [first, last) of a world about to run: seed_state(i) = the seed of each env reseeded.
  template <typename SeedState>
  void Reseed(int first, int last, SeedState&& seed_state) const {
    for (int i = first; i < last; ++i)
      if (reseed[i]) seed_state(i) = seeds[size_t(i)];
  }
  // After their world ran: envs [first, last) step again at their next job.
  void Done(int first, int last) {
    std::fill(now.get() + first, now.get() + last, false);
    std::fill(reseed.get() + first, reseed.get() + last, false);
  }

  std::unique_ptr<bool[]> now, reseed;
  std::vector<std::uint64_t> seeds;
};

}  // namespace joltgym
