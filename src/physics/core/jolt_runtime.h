// Process-wide Jolt setup (allocator hooks, factory, type registry) and the
// object/broad-phase layers every joltgym world uses.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Collision/BroadPhase/BroadPhaseLayer.h>
#include <Jolt/Physics/Collision/ObjectLayer.h>

namespace joltgym {

// Idempotent and thread-safe; must run before any Jolt object is created.
void EnsureJoltRuntime();

namespace layers {
constexpr JPH::ObjectLayer kStatic = 0;
constexpr JPH::ObjectLayer kMoving = 1;
// A moving body that no rule lets touch anything through Jolt (its floor contacts and its
// robot's contacts with itself are soft rows of ours): kept out of the broad phase's pair search, which
// would otherwise find its pairs every update only for the group filter to reject them.
constexpr JPH::ObjectLayer kInert = 2;
}  // namespace layers

const JPH::BroadPhaseLayerInterface& BroadPhaseLayers();
const JPH::ObjectVsBroadPhaseLayerFilter& ObjectVsBroadPhaseFilter();
const JPH::ObjectLayerPairFilter& ObjectLayerPairs();

}  // namespace joltgym
