// MuJoCo's contact sensor with data="found" for a sphere geom of a robot and a plane or height
// field of the scene (Playground's "<foot>_floor_found"): whether the two collide, that is
// whether the sphere comes within the larger of their margins of the floor.
#pragma once

#include "physics/contacts/height_field.h"
#include "physics/world/robot.h"

#include <memory>
#include <string>

namespace joltgym {

class FootContact {
 public:
  // The robot's sphere geom `foot` and the scene's plane geom `floor`; std::invalid_argument
  // naming `what` and the geom when the model has no such geom or it is of another type.
  FootContact(const ModelDesc& desc, const std::string& foot, const std::string& floor, const std::string& what);

  bool Touching(const Robot& robot) const;

 private:
  JPH::Vec3 Centre(const Robot& robot) const;  // the sphere's, in the robot's frame

  int body_ = -1;
  JPH::Vec3 local_;  // the sphere's centre in its body's frame
  float radius_ = 0.0f;
  JPH::Vec3 normal_;
  JPH::Vec3 plane_point_;
  float margin_ = 0.0f;
  std::shared_ptr<const HeightField> height_field_;  // the floor, when not a plane
};

}  // namespace joltgym
