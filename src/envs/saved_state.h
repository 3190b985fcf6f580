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
// Whether the env's own state was read exactly to the checksum (a state of this kind that was
// restored in full).
bool ReadToEnd(const StateBuffer& in);

}  // namespace joltgym
