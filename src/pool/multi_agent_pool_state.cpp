// MultiAgentPool's saved states (MultiAgentPool::SaveStates): each env's seed stream and its
// MultiAgentEnv's state, in saved_state.h's envelope.
#include "envs/saved_state.h"
#include "pool/multi_agent_pool.h"

namespace joltgym {

void MultiAgentPool::SaveStates(const int* envs, int count, StateBuffer* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckHeld(envs, count, true, "get_state()");
  for (int k = 0; k < count; ++k) {
    const MultiAgentEnv& env = *envs_[size_t(envs[k])];
    WriteSavedState(out[k], state_kind_, EpisodeState{seed_state_[size_t(envs[k])], env.elapsed(), env.episode_over()},
                    [&](StateBuffer& o) { env.SaveState(o); });
  }
}

void MultiAgentPool::RestoreStates(const int* envs, int count, StateBuffer* states) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckHeld(envs, count, false, "set_state()");
  RestoreSavedStates(states, count, state_kind_, envs, [&](int k, const EpisodeState& e) {
    seed_state_[size_t(envs[k])] = e.seed_state;
    return envs_[size_t(envs[k])]->RestoreState(states[k]);
  });
}

}  // namespace joltgym
