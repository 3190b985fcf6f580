// MuJoCo's contact sensor with data="found" for a geom of a robot and the scene's floor, a plane
// or a height field (Playground's "<geom>_floor_found"): whether the two collide, that is whether
// the geom comes within the larger of their margins of the floor.
#pragma once

#include "physics/contacts/height_field.h"
#include "physics/world/robot.h"

#include <memory>
#include <string>

namespace joltgym {

class FloorContact {
 public:
  // The robot's geom named `geom` and the scene's plane or height field named `floor`;
  // std::invalid_argument naming `what` and the geom when the model has no such geom, or a
  // height field meets a geom other than a sphere or a box.
  FloorContact(const CompiledModel& model, const std::string& geom, const std::string& floor, const std::string& what);

  bool Touching(const Robot& robot) const;

 private:
  int body_ = -1;
  const GeomDesc* geom_ = nullptr;
  JPH::Mat44 local_;  // the geom's frame in its body's
  JPH::Vec3 normal_;
  JPH::Vec3 plane_point_;
  float margin_ = 0.0f;
  std::shared_ptr<const HeightField> height_field_;  // the floor, when not a plane: the model's own
};

}  // namespace joltgym
