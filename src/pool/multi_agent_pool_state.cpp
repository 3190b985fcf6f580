// MultiAgentPool's saved states (MultiAgentPool::SaveStates): each env's seed stream and its
// MultiAgentEnv's state, in saved_state.h's envelope.
#include "envs/saved_state.h"
#include "pool/multi_agent_pool.h"

#include <stdexcept>

namespace joltgym {

void MultiAgentPool::SaveStates(const int* envs, int count, StateBuffer* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckHeld(envs, count, true, "get_state()");
  for (int k = 0; k < count; ++k) {
    const MultiAgentEnv& env = *envs_[size_t(envs[k])];
    BeginSavedState(out[k], state_kind_, EpisodeState{seed_state_[size_t(envs[k])], env.elapsed(), env.episode_over()});
    env.SaveState(out[k]);
    EndSavedState(out[k]);
  }
}

void MultiAgentPool::RestoreStates(const int* envs, int count, StateBuffer* states) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckHeld(envs, count, false, "set_state()");
  std::vector<EpisodeState> episodes(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k)
    episodes[size_t(k)] = OpenSavedState(states[k], state_kind_, "state " + std::to_string(k));
  for (int k = 0; k < count; ++k) {
    const int w = envs[k];
    seed_state_[size_t(w)] = episodes[size_t(k)].seed_state;
    if (!envs_[size_t(w)]->RestoreState(states[k]) || !ReadToEnd(states[k]))
      throw std::invalid_argument("state " + std::to_string(k) + " has the header of this task's states but not their " +
                                  "contents (saved by another build of joltgym?): env " + std::to_string(w) +
                                  " is left in no defined state; reset it");
  }
}

}  // namespace joltgym
