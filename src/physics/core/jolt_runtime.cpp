#include "physics/core/jolt_runtime.h"

#include "physics/core/inert_shape.h"

#include <Jolt/Core/Factory.h>
#include <Jolt/RegisterTypes.h>

#include <mutex>

namespace joltgym {
namespace {

const JPH::BroadPhaseLayer kStaticBP(0);
const JPH::BroadPhaseLayer kMovingBP(1);
const JPH::BroadPhaseLayer kInertBP(2);  // its own tree, so moving bodies' queries never visit it

class ThreeLayerBroadPhase final : public JPH::BroadPhaseLayerInterface {
 public:
  JPH::uint GetNumBroadPhaseLayers() const override { return 3; }
  JPH::BroadPhaseLayer GetBroadPhaseLayer(JPH::ObjectLayer layer) const override {
    return layer == layers::kStatic ? kStaticBP : layer == layers::kInert ? kInertBP : kMovingBP;
  }
};

class MovingCollidesWithAllButInert final : public JPH::ObjectVsBroadPhaseLayerFilter {
 public:
  bool ShouldCollide(JPH::ObjectLayer layer, JPH::BroadPhaseLayer bp) const override {
    if (layer == layers::kInert || bp == kInertBP) return false;
    return layer == layers::kMoving || bp == kMovingBP;
  }
};

class OneSideMovingNeitherInert final : public JPH::ObjectLayerPairFilter {
 public:
  bool ShouldCollide(JPH::ObjectLayer a, JPH::ObjectLayer b) const override {
    if (a == layers::kInert || b == layers::kInert) return false;
    return a == layers::kMoving || b == layers::kMoving;
  }
};

}  // namespace

void EnsureJoltRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
    JPH::RegisterDefaultAllocator();
    JPH::Factory::sInstance = new JPH::Factory();
    JPH::RegisterTypes();
    InertShape::sRegister();
  });
}

const JPH::BroadPhaseLayerInterface& BroadPhaseLayers() {
  static const ThreeLayerBroadPhase instance;
  return instance;
}

const JPH::ObjectVsBroadPhaseLayerFilter& ObjectVsBroadPhaseFilter() {
  static const MovingCollidesWithAllButInert instance;
  return instance;
}

const JPH::ObjectLayerPairFilter& ObjectLayerPairs() {
  static const OneSideMovingNeitherInert instance;
  return instance;
}

}  // namespace joltgym
