// One pooled env's episode bookkeeping: its seed stream, steps taken, whether its episode ended.
// WorldPool and BareLoop (the benchmark reference) share it, so that the reference starts and
// ends episodes exactly as the pool does.
#pragma once

#include "pool/seed_stream.h"
#include "tasks/task.h"

#include <cstdint>

namespace joltgym {

struct EpisodeSlot {
  std::uint64_t seed_state = 0;  // reseeding sets it; every episode draws the next seed from it
  int elapsed = 0;
  bool done = false;

  // Starts an episode; returns its seed.
  std::uint64_t Begin() {
    elapsed = 0;
    done = false;
    return NextSeed(seed_state);
  }
  // Counts a step that ended with `outcome`; returns whether it truncates the episode (the step
  // limit, when positive, or physics that diverged without terminating).
  bool Count(const StepOutcome& outcome, int max_episode_steps) {
    ++elapsed;
    const bool truncated =
        (max_episode_steps > 0 && elapsed >= max_episode_steps) || (outcome.diverged && !outcome.terminated);
    done = outcome.terminated || truncated;
    return truncated;
  }
};

}  // namespace joltgym
