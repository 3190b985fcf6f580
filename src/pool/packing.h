// How the pools pack envs into shared Jolt worlds (several robots per world, one update for
// all) and how many threads that many worlds can keep busy: WorldPool's robots per world and
// MultiAgentPool's envs per world follow the same rules.
#pragma once

#include <algorithm>

namespace joltgym {

// Robots per world when the pool chooses: the gain is flat from 8 on (HalfCheetah 0.80x at
// 8, 0.81x at 16, 0.78x at 32; Ant 0.89x at 8, 0.90x at 16), and smaller groups keep
// every thread busy at small num_envs.
constexpr int kAutoRobotsPerWorld = 8;
// What the pool chooses for num_envs envs on num_threads threads whose robots can share worlds:
// kAutoRobotsPerWorld, fewer where there would be fewer worlds than threads.
inline int AutoRobotsPerWorld(int num_envs, int num_threads) {
  return std::clamp(num_envs / std::max(1, num_threads), 1, kAutoRobotsPerWorld);
}
// Worlds for num_envs envs packed per_world to a world (the last may hold fewer).
inline int WorldsFor(int num_envs, int per_world) { return (std::max(1, num_envs) + per_world - 1) / per_world; }
// Worker threads for those worlds: each world is stepped whole by one worker.
inline int ThreadsFor(int num_envs, int per_world, int num_threads) {
  return std::max(1, std::min(num_threads, WorldsFor(num_envs, per_world)));
}

}  // namespace joltgym
