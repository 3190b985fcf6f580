// The bytes of one env's saved state as Python holds them (get_state / set_state): a header
// naming the kind of env it is of, the episode's bookkeeping, the env's own state (EnvGroup::SaveEnv,
// MultiAgentEnv::SaveState), and a checksum over all of it. The same bytes restore into any env of
// the same task and model, whichever kind of env (single, pooled, packed) saved them.
#pragma once

#include "physics/core/state_buffer.h"
#include "physics/model/compiled_model.h"

#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

namespace joltgym {

class Task;

// What an env carries from episode to episode besides its physics: its stream of episode seeds
// (seed_stream.h), the steps of its episode so far, and whether the episode ended.
struct EpisodeState {
  std::uint64_t seed_state = 0;
  std::int32_t elapsed = 0;
  bool done = false;
};

// Names the kind of env a state belongs to: the task's class and its robots' models with their
// sizes. A state restores only into an env of the same kind.
std::string StateKind(const std::type_info& task, const std::vector<const CompiledModel*>& models);
std::string StateKind(const Task& task, const CompiledModel& model);

// Starts a saved state in `out` (cleared first): the header, then the episode.
void BeginSavedState(StateBuffer& out, const std::string& kind, const EpisodeState& episode);
// Ends it: the checksum.
void EndSavedState(StateBuffer& out);
// Checks that `in` holds a whole saved state of `kind` (std::invalid_argument saying what is
// wrong, in terms of `which`, e.g. "state 2"), and leaves it positioned at the env's own state.
EpisodeState OpenSavedState(StateBuffer& in, const std::string& kind, const std::string& which);
// Throws std::invalid_argument unless `restored` and the env's own state was read exactly to the
// checksum: a state with this kind's header but not its contents (another build's), which has
// left `env` (e.g. "env 3") in no defined state.
void RequireRestored(bool restored, const StateBuffer& in, const std::string& which, const std::string& env);

// One env's whole saved state in `out`: the header, save(out) writing the env's own state, the checksum.
template <class Save>
void WriteSavedState(StateBuffer& out, const std::string& kind, const EpisodeState& episode, Save&& save) {
  BeginSavedState(out, kind, episode);
  save(out);
  EndSavedState(out);
}

// One env's restore: opens `in` (OpenSavedState), restore(in) restores the env's own state and
// says whether it read back (RequireRestored); returns the episode saved with it.
template <class Restore>
EpisodeState ReadSavedState(StateBuffer& in, const std::string& kind, Restore&& restore) {
  const EpisodeState episode = OpenSavedState(in, kind, "the state");
  RequireRestored(restore(in), in, "the state", "the env");
  return episode;
}

// A pool's restore: opens every state first (OpenSavedState: nothing restored when one is not of
// `kind`), then restore(k, episode) restores states[k] into its env and says whether it read back.
template <class Restore>
void RestoreSavedStates(StateBuffer* states, int count, const std::string& kind, const int* envs, Restore&& restore) {
  std::vector<EpisodeState> episodes(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k) episodes[size_t(k)] = OpenSavedState(states[k], kind, "state " + std::to_string(k));
  for (int k = 0; k < count; ++k)
    RequireRestored(restore(k, episodes[size_t(k)]), states[k], "state " + std::to_string(k),
                    "env " + std::to_string(envs[k]));
}

}  // namespace joltgym
