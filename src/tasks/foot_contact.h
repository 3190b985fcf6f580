// MuJoCo's contact sensor with data="found" for a sphere geom of a robot and a plane of the
// scene (Playground's "<foot>_floor_found"): whether the two collide, that is whether the
// sphere comes within the larger of their margins of the plane.
#pragma once

#include "physics/world/robot.h"

#include <string>

namespace joltgym {

class FootContact {
 public:
  // The robot's sphere geom `foot` and the scene's plane geom `floor`; std::invalid_argument
  // naming `what` and the geom when the model has no such geom or it is of another type.
  FootContact(const ModelDesc& desc, const std::string& foot, const std::string& floor, const std::string& what);

  bool Touching(const Robot& robot) const;
  // Height of the sphere's centre above the plane (m).
  float CentreHeight(const Robot& robot) const;

 private:
  int body_ = -1;
  JPH::Vec3 local_;  // the sphere's centre in its body's frame
  float radius_ = 0.0f;
  JPH::Vec3 normal_;
  JPH::Vec3 plane_point_;
  float margin_ = 0.0f;
};

}  // namespace joltgym
