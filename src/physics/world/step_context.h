// Per-thread scratch for stepping worlds: Jolt's temp allocator, a single-threaded job system
// and the trees' per-update memory (update_scratch.h). One per thread, never one per world. The allocator
// takes from its block and falls back to malloc once the block is exhausted: Jolt's
// plain TempAllocatorImpl aborts the process instead, as a crowded world can exhaust a
// small block. Size the block for the largest world it steps, so the fallback stays rare.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Core/JobSystemSingleThreaded.h>
#include <Jolt/Core/TempAllocator.h>
#include <Jolt/Physics/PhysicsSettings.h>

#include "physics/core/jolt_runtime.h"
#include "physics/core/update_scratch.h"

namespace joltgym {

struct StepContext {
  explicit StepContext(size_t temp_bytes = 1u << 20)
      : runtime_ready((EnsureJoltRuntime(), true)), temp(JPH::uint(temp_bytes)), jobs(JPH::cMaxPhysicsJobs) {}

  bool runtime_ready;
  JPH::TempAllocatorImplWithMallocFallback temp;
  JPH::JobSystemSingleThreaded jobs;
  UpdateScratch scratch;
};

}  // namespace joltgym
