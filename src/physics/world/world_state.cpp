// Saving and restoring a world's state mid-episode: the whole world, or one robot that touches
// nothing through Jolt.
#include "physics/world/world.h"

#include <stdexcept>
#include <string>

namespace joltgym {

void World::SaveState(StateBuffer& out) const {
  system_.SaveState(out, JPH::EStateRecorderState(unsigned(JPH::EStateRecorderState::Global) |
                                                  unsigned(JPH::EStateRecorderState::Contacts)));
  out.Write(std::uint64_t(robots_.size()));
  for (const auto& robot : robots_) robot->SaveState(out);
  out.WriteVector(touched_);
  out.Write(last_update_dt_);
}

bool World::RestoreState(StateBuffer& in) {
  contacts_fresh_ = false;
  if (!system_.RestoreState(in) || in.IsFailed()) return false;
  std::uint64_t n = 0;
  in.Read(n);
  if (n != robots_.size()) return false;
  for (auto& robot : robots_)
    if (!robot->RestoreState(in)) return false;
  in.ReadVectorInto(touched_);
  in.Read(last_update_dt_);
  return !in.IsFailed();
}

void World::RequireStandsAlone(int i) const {
  if (i < 0 || i >= num_robots()) throw std::out_of_range("robot " + std::to_string(i) + " out of range");
  if (!RobotStandsAlone(i))
    throw std::logic_error("robot " + std::to_string(i) + " touches bodies through Jolt: only the whole world can be saved");
}

void World::SaveRobotState(int i, StateBuffer& out) const {
  RequireStandsAlone(i);
  out.Write(last_update_dt_);
  robots_[size_t(i)]->SaveState(out);
}

bool World::RestoreRobotState(int i, StateBuffer& in) {
  RequireStandsAlone(i);
  contacts_fresh_ = false;
  float dt = 0.0f;
  in.Read(dt);
  if (in.IsFailed()) return false;
  // A robot saved after an update carries warm starts Jolt scales by the update lengths' ratio;
  // where this world has not been stepped since it was built or restored whole, that ratio
  // would be 0. Every other robot's warm starts are then still zero, so the ratio is theirs too.
  if (dt > 0.0f) RestoreLastUpdateLength(dt);
  return robots_[size_t(i)]->RestoreState(in);
}

void World::RestoreLastUpdateLength(float dt) {
  StateBuffer global;
  system_.SaveState(global, JPH::EStateRecorderState::Global);
  // Jolt's global state: which parts follow, then the previous update's length and gravity.
  JPH::EStateRecorderState parts;
  float previous;
  JPH::Vec3 gravity;
  global.Read(parts);
  global.Read(previous);
  global.Read(gravity);
  StateBuffer replaced;
  replaced.Write(parts);
  replaced.Write(dt);
  replaced.Write(gravity);
  system_.RestoreState(replaced);
  last_update_dt_ = dt;
}

}  // namespace joltgym
