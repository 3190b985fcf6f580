// Two geoms of one articulated tree that may touch, as the soft self-contacts take them: their
// shapes, frames in their bodies and contact parameters. A model's are compiled once
// (CompiledSelfContact::pairs) and read by every robot of it.
#pragma once

#include "model/model_desc.h"
#include "physics/contacts/contact_pair.h"
#include "physics/contacts/convex_pair_collision.h"
#include "physics/contacts/pair_collision.h"

#include <Jolt/Jolt.h>
#include <Jolt/Math/Mat44.h>

#include <vector>

namespace joltgym {

// A geom of each body that may touch the other's, and their contact's parameters.
struct SelfContactGeomPair {
  GeomType type1 = GeomType::Sphere, type2 = GeomType::Sphere;
  Vec3f size1{0, 0, 0}, size2{0, 0, 0};
  JPH::Mat44 local1 = JPH::Mat44::sIdentity(), local2 = JPH::Mat44::sIdentity();  // geom frames in their body frames
  ContactPair pair;
  JPH::uint64 tag1 = 0, tag2 = 0;  // ContactForce::geom_tag of each side
  // Both shapes when CollidePair does not handle the types (convex_pair_collision.h).
  ConvexGeom convex1, convex2;
  bool convex() const { return convex1.shape != nullptr; }
  int max_contacts() const { return convex() ? kMaxConvexPairContacts : kMaxPairContacts; }
};

// What a body pair's SelfContactConstraint reads of its geom pairs besides the pairs: the same for
// every robot of a model, so compiled with them (CompiledSelfContact::layout).
struct SelfContactLayout {
  std::vector<float> reach;      // per pair: beyond this between the geoms' centres, no contact
  std::vector<int> first_slot;   // per pair: its first possible contact; then one past the last pair's
  std::vector<int> pair_of;      // per possible contact: its pair
  // All pairs at once: beyond reach_all between these points of the two bodies (body frames), none touch.
  JPH::Vec3 centre1 = JPH::Vec3::sZero(), centre2 = JPH::Vec3::sZero();
  float reach_all = 0.0f;
};
SelfContactLayout LayOutSelfContacts(const std::vector<SelfContactGeomPair>& pairs);

}  // namespace joltgym
