#include "physics/jolt_runtime.h"

#include <Jolt/Core/Factory.h>
#include <Jolt/RegisterTypes.h>

#include <mutex>

namespace joltgym {
namespace {

const JPH::BroadPhaseLayer kStaticBP(0);
const JPH::BroadPhaseLayer kMovingBP(1);

class TwoLayerBroadPhase final : public JPH::BroadPhaseLayerInterface {
 public:
  JPH::uint GetNumBroadPhaseLayers() const override { return 2; }
  JPH::BroadPhaseLayer GetBroadPhaseLayer(JPH::ObjectLayer layer) const override {
    return layer == layers::kStatic ? kStaticBP : kMovingBP;
  }
};

class MovingCollidesWithAll final : public JPH::ObjectVsBroadPhaseLayerFilter {
 public:
  bool ShouldCollide(JPH::ObjectLayer layer, JPH::BroadPhaseLayer bp) const override {
    return layer == layers::kMoving || bp == kMovingBP;
  }
};

class StaticNeverMeetsStatic final : public JPH::ObjectLayerPairFilter {
 public:
  bool ShouldCollide(JPH::ObjectLayer a, JPH::ObjectLayer b) const override {
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
  });
}

const JPH::BroadPhaseLayerInterface& BroadPhaseLayers() {
  static const TwoLayerBroadPhase instance;
  return instance;
}

const JPH::ObjectVsBroadPhaseLayerFilter& ObjectVsBroadPhaseFilter() {
  static const MovingCollidesWithAll instance;
  return instance;
}

const JPH::ObjectLayerPairFilter& ObjectLayerPairs() {
  static const StaticNeverMeetsStatic instance;
  return instance;
}

}  // namespace joltgym
