// Contact forces of the last physics update, per contact point.
//
// Jolt's contact listener runs before the solver and never sees impulses
// (upstream issue #2128). The solved impulses do live in the contact cache, which
// Jolt serialises through SaveState(Contacts); this reads them back from that
// stream. The layout is Jolt v5.5.0's (ContactConstraintManager::ManifoldCache::
// SaveState) and is checked by a test that sums a resting body's contacts to its weight.
#pragma once

#include "physics/core/state_buffer.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/PhysicsSystem.h>

#include <vector>

namespace joltgym {

struct ContactForce {
  JPH::BodyID body;     // the body the force acts on
  int robot = -1;       // its robot in the world and its index there (World fills these; -1: the scene)
  int robot_body = -1;
  JPH::uint64 geom_tag; // user data of the touching leaf shape: 1 + the MuJoCo body owning the geom, 0 if none
  JPH::RVec3 point;     // world position of the contact point on that body
  JPH::Vec3 force;      // world-frame force on that body (impulse / dt)
  JPH::Vec3 normal;     // unit contact normal along which the contact pushes that body
};

class ContactForceReader {
 public:
  // Fills `out` (cleared first) with both sides' forces of every contact point of
  // the last update of length dt. Reuses its buffers: no allocation once warm.
  void Read(const JPH::PhysicsSystem& system, float dt, std::vector<ContactForce>& out);

 private:
  StateBuffer buffer_;
};

}  // namespace joltgym
