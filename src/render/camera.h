// Where a frame is seen from: MuJoCo's conventions. A camera looks along its frame's -z with
// y up. The free camera orbits a look-at point: azimuth (degrees, about world z) and
// elevation (degrees, negative looks down) give the viewing direction, the camera stands
// `distance` back from the point. Gymnasium's default_camera_config sets these fields.
#pragma once

#include <Jolt/Jolt.h>

#include <cmath>

namespace joltgym {

struct CameraPose {
  JPH::Vec3 position;
  JPH::Quat rotation;  // camera frame -> world
  float fovy = 45.0f;  // degrees
};

struct OrbitCamera {
  JPH::Vec3 lookat = JPH::Vec3::sZero();
  float distance = 4.0f;
  float azimuth = 90.0f;
  float elevation = -45.0f;
  float fovy = 45.0f;
};

inline CameraPose PoseOf(const OrbitCamera& c) {
  constexpr float kDeg = 3.14159265358979f / 180.0f;
  const float az = c.azimuth * kDeg, el = c.elevation * kDeg;
  const JPH::Vec3 forward(std::cos(el) * std::cos(az), std::cos(el) * std::sin(az), std::sin(el));
  const JPH::Vec3 right = forward.Cross(JPH::Vec3::sAxisZ()).NormalizedOr(JPH::Vec3::sAxisX());
  const JPH::Vec3 up = right.Cross(forward);
  // Columns: the camera's x (right), y (up), z (backwards) in world axes.
  const JPH::Mat44 frame(JPH::Vec4(right, 0), JPH::Vec4(up, 0), JPH::Vec4(-forward, 0), JPH::Vec4(0, 0, 0, 1));
  return {c.lookat - c.distance * forward, frame.GetQuaternion().Normalized(), c.fovy};
}

}  // namespace joltgym
