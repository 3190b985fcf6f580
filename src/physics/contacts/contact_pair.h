// The soft constraint of a contact between two geoms, from both geoms' parameters as
// MuJoCo combines them (engine_collision_driver.c, mj_contactParam): the geom of higher
// priority wins; at equal priority condim and friction are the larger of the two, solimp
// (and solref in its standard format) mix by solmix weight, a direct-format solref takes
// the smaller values. The contact engages below the sum of the two margins and aims at
// that distance (MuJoCo 3's sums, not its older maxima; a gap only widens MuJoCo's search
// by contacts it then excludes, unless they are adhesive, which joltgym does not model), and its softness scales with the two bodies' inverse weights at qpos0.
//
// MuJoCo (pyramidal cone, impratio 1) turns a contact of condim 3 into four rows
// J_n +- mu J_t1, J_n +- mu J_t2, each with force >= 0 and the regulariser
// R = (1 - d)/d * 2 mu^2 (1 + mu^2) * invweight; a frictionless contact (condim 1) is the
// single row J_n with R = (1 - d)/d * invweight. Every row shares the contact's distance,
// impedance d and reference acceleration, and `soft` holds them with `invweight` set to
// the row's own diagonal term, so that SoftLimit::Row gives each row as MuJoCo sets it.
#pragma once

#include "model/model_desc.h"
#include "physics/core/soft_limit.h"

namespace joltgym {

struct ContactPair {
  SoftLimit soft;           // margin: where the rows engage and aim (MuJoCo's includemargin)
  float detect_margin = 0;  // the same distance, for the collision test
  float friction = 0;       // sliding friction, both tangent directions
  bool frictional = true;   // condim > 1: the four pyramid rows; else the normal row alone
};

ContactPair MixContactPair(const GeomDesc& a, const GeomDesc& b, float timestep);
// An explicit <pair>'s contact between geoms a and b: the pair's parameters, the geoms' weights.
ContactPair ExplicitContactPair(const ContactPairDesc& desc, const GeomDesc& a, const GeomDesc& b, float timestep);
// The contact from its parameters as MuJoCo's mj_contactParam leaves them; invweight: both sides' sum.
ContactPair ContactPairOf(int condim, float friction, const std::array<float, 2>& solref,
                          const std::array<float, 5>& solimp, float margin, float invweight, float timestep);

}  // namespace joltgym
