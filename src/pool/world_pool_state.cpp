// WorldPool's saved states (WorldPool::SaveStates): each env's episode bookkeeping and its
// group's state of it, in saved_state.h's envelope.
#include "pool/world_pool.h"

namespace joltgym {

void WorldPool::SaveStates(const int* envs, int count, StateBuffer* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckHeld(envs, count, true, "get_state()");
  for (int k = 0; k < count; ++k) {
    const int i = envs[k];
    const EpisodeSlot& slot = slots_[size_t(i)];
    WriteSavedState(out[k], state_kind_, EpisodeState{slot.seed_state, slot.elapsed, slot.done}, [&](StateBuffer& o) {
      groups_[size_t(packing_.WorldOf(i))]->SaveEnv(packing_.IndexInWorld(i), o);
    });
  }
}

void WorldPool::RestoreStates(const int* envs, int count, StateBuffer* states) {
  std::lock_guard<std::mutex> lock(mutex_);
  async_->CheckHeld(envs, count, false, "set_state()");
  RestoreSavedStates(states, count, state_kind_, envs, [&](int k, const EpisodeState& e) {
    const int i = envs[k];
    slots_[size_t(i)].seed_state = e.seed_state;
    slots_[size_t(i)].elapsed = e.elapsed;
    slots_[size_t(i)].done = e.done;
    const bool restored = groups_[size_t(packing_.WorldOf(i))]->RestoreEnv(packing_.IndexInWorld(i), states[k]);
    if (restored) DrawEnv(i, /*fresh=*/true, threads_.num_threads());  // a restored env's stack restarts
    return restored;
  });
}

}  // namespace joltgym
