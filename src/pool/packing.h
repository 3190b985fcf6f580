// How the pools pack envs into shared Jolt worlds (several robots per world, one update for
// all) and how many threads that many worlds can keep busy: WorldPool's robots per world and
// MultiAgentPool's envs per world follow the same rules.
#pragma once

#include <algorithm>

namespace joltgym {

// Bodies per world when the pool chooses how many robots share one: a bigger world shares Jolt's
// fixed cost per update among more robots, until its own size costs more. A fixed count of bodies
// rather than of robots lands on or next to each task's best, for light robots and heavy alike
// (benchmarks/robots_per_world.py).
constexpr int kAutoBodiesPerWorld = 96;
constexpr int kMaxAutoRobotsPerWorld = 64;  // the largest measured

// Worlds for num_envs envs at most per_world to a world.
inline int WorldsFor(int num_envs, int per_world) { return (std::max(1, num_envs) + per_world - 1) / per_world; }

// Which envs share which world: num_envs consecutive envs in `worlds` worlds, as even as they
// can be (sizes differ by one at most), since the world left last in a step holds its thread
// while the others wait: a packing with a small world left over steps slower than an even one
// of larger worlds.
class Packing {
 public:
  Packing(int num_envs, int worlds)
      : worlds_(std::clamp(worlds, 1, std::max(1, num_envs))),
        small_(std::max(1, num_envs) / worlds_),
        big_worlds_(std::max(1, num_envs) % worlds_) {}
  // At most per_world envs to a world, in as few worlds as that takes.
  static Packing AtMost(int num_envs, int per_world) {
    return Packing(num_envs, WorldsFor(num_envs, std::max(1, per_world)));
  }

  int worlds() const { return worlds_; }
  int largest() const { return small_ + (big_worlds_ > 0 ? 1 : 0); }
  int SizeOf(int world) const { return small_ + (world < big_worlds_ ? 1 : 0); }
  int FirstOf(int world) const { return world * small_ + std::min(world, big_worlds_); }
  int WorldOf(int env) const {
    const int in_big = big_worlds_ * (small_ + 1);
    return env < in_big ? env / (small_ + 1) : big_worlds_ + (env - in_big) / small_;
  }
  int IndexInWorld(int env) const { return env - FirstOf(WorldOf(env)); }

 private:
  int worlds_;
  int small_;       // envs in the smaller worlds
  int big_worlds_;  // worlds 0 .. big_worlds_ - 1 hold one env more
};

// The pool's own packing of num_envs robots of bodies_per_robot bodies, on num_threads threads,
// whose robots can share worlds: kAutoBodiesPerWorld's worth to a world, fewer where there would
// be fewer worlds than threads, in as many worlds as that takes rounded up to a multiple of the
// threads, so that every thread gets as many worlds of as many robots.
inline Packing AutoPacking(int num_envs, int num_threads, int bodies_per_robot) {
  const int threads = std::max(1, num_threads), envs = std::max(1, num_envs);
  const int by_size = std::clamp(kAutoBodiesPerWorld / std::max(1, bodies_per_robot), 1, kMaxAutoRobotsPerWorld);
  const int most = std::clamp(envs / threads, 1, by_size);
  return Packing(envs, (WorldsFor(envs, most) + threads - 1) / threads * threads);
}

// How num_envs envs share worlds: at most `requested` (>= 0) to a world when positive, else
// AutoPacking for envs of bodies_per_env bodies that can share worlds and a world per env for
// those that cannot. The pools check `requested` against what their envs allow first.
inline Packing PackingFor(int num_envs, int num_threads, int requested, bool can_share, int bodies_per_env) {
  if (requested > 0) return Packing::AtMost(num_envs, requested);
  if (!can_share) return Packing(num_envs, num_envs);
  return AutoPacking(num_envs, num_threads, bodies_per_env);
}

// Worker threads for a packing's worlds: each world is stepped whole by one worker.
inline int ThreadsFor(const Packing& packing, int num_threads) {
  return std::max(1, std::min(num_threads, packing.worlds()));
}

}  // namespace joltgym
