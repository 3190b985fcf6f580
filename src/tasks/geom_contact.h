// MuJoCo's contact sensor with data="found" between two geoms of one robot (Playground's G1
// "<geom1>_<geom2>_found"): whether the model lets the two touch (an explicit <pair>, or their
// bitmasks on bodies that are not parent and child) and they come within that contact's margin.
// Geoms that no rule lets touch are never found, as MuJoCo never makes their contact.
#pragma once

#include "physics/contacts/convex_pair_collision.h"
#include "physics/world/robot.h"

#include <string>

namespace joltgym {

class GeomContact {
 public:
  // std::invalid_argument naming `what` when the model has no such geoms on moving bodies.
  GeomContact(const CompiledModel& model, const std::string& geom1, const std::string& geom2, const std::string& what);

  bool Touching(const Robot& robot) const;

 private:
  bool possible_ = false;
  float margin_ = 0.0f;
  int body1_ = -1, body2_ = -1;
  const GeomDesc* geom1_ = nullptr;
  const GeomDesc* geom2_ = nullptr;
  JPH::Mat44 local1_, local2_;   // each geom's frame in its body's
  ConvexGeom convex1_, convex2_;  // when the two are not both spheres and capsules
};

}  // namespace joltgym
