// MuJoCo's soft constraint model for a joint limit (engine_core_constraint.c), as one Jolt
// velocity row.
//
// MuJoCo solves (A + R) f = aref - a0 for the limit's force f >= 0, with the impedance
// d(r) in (0, 1) from solimp, the reference acceleration aref = -B v - K d (r - margin) from
// solref and the regulariser R = (1 - d) / d * invweight (invweight: the joint's inverse
// inertia at qpos0, MuJoCo's dof_invweight0). With lambda = h f for a step h, and the row's
// rate v and distance to the limit r taken at the step's start, that is the row
//     J v+ + R lambda = v - h (B v + K d (r - margin)),   lambda >= 0,
// which Jolt's soft constraint parts solve with softness R and a bias (J v + softness lambda
// + bias = 0). The joint enters the limit by about the weight it carries over K: MuJoCo's
// soft limits give, and policies learn on that.
#pragma once

#include <array>

namespace joltgym {

struct SoftLimit {
  float stiffness = 0.0f;  // K
  float damping = 0.0f;    // B
  float dmin = 0.9f, dmax = 0.95f, width = 0.001f, midpoint = 0.5f, power = 2.0f;
  float margin = 0.0f;     // the row engages below this distance, as MuJoCo's
  float invweight = 0.0f;

  // From MuJoCo's parameters, with its clamps and defaults: a time constant below two model
  // timesteps is raised to two (MuJoCo's refsafe); negative solref values give K and B directly.
  static SoftLimit FromMuJoCo(const std::array<float, 2>& solref, const std::array<float, 5>& solimp, float margin,
                              float invweight, float timestep);

  // d(r): dmin at the limit rising to dmax at `width` into it (MuJoCo's getimpedance).
  float Impedance(float distance) const;

  // The row for one step h: Jolt's softness and the rate it aims at (J v+ + softness lambda
  // = target), from the distance to the limit and the rate away from it (positive rates
  // leave the limit), both at the step's start.
  void Row(float distance, float rate, float h, float& softness, float& target) const;
};

}  // namespace joltgym
