// Draws a World: every robot's geoms and the scene's static geoms as lit triangle meshes,
// the floor plane as a checkerboard (with rings and marks a task asks for), shadows of the
// robots on the floor, and depth along the view axis. Software only: no GPU, no OpenGL.
// Reading the world changes nothing in it, so rendering never alters a trajectory.
#pragma once

#include "physics/world/world.h"
#include "render/camera.h"
#include "render/rasterizer.h"
#include "render/render_model.h"

#include <cstdint>
#include <map>
#include <utility>
#include <mutex>
#include <memory>
#include <vector>

namespace joltgym {

// A circle drawn on the floor (a sumo ring, a goal).
struct FloorCircle {
  float x = 0.0f, y = 0.0f, radius = 1.0f, width = 0.05f;
  float rgb[3] = {0.9f, 0.3f, 0.2f};
  bool filled = false;
};

// Which camera: an MJCF camera of robot 0's model, or the orbit camera, optionally tracking
// a robot's MuJoCo body (its x and y, and its z unless the orbit's look-at height is kept).
struct CameraSpec {
  int model_camera = -1;
  OrbitCamera orbit;
  bool orbit_given_distance = false;  // else 1.5 x the model's extent (MuJoCo's free camera)
  int track_robot = -1;                // -1: the orbit's look-at stays put
  int track_mj_body = 1;
  bool keep_lookat_z = false;
  // >= 0: the world holds other envs' robots too (a pool's packed world); draw this robot
  // alone, and read robot 0 as this one wherever the spec names a robot.
  int only_robot = -1;
};

class Renderer {
 public:
  // Into rgb (height x width x 3, may be null) and depth (height x width metres, may be null).
  void Render(World& world, const CameraSpec& camera, int width, int height, std::uint8_t* rgb, float* depth,
              const std::vector<FloorCircle>& circles);

  // Pose of a camera spec in this world now (for tests and tools).
  CameraPose Pose(World& world, const CameraSpec& camera);

  static constexpr float kFarDepth = 1000.0f;  // depth of pixels that show the sky
  // Frames at most this high draw round geoms with fewer triangles (kCoarseMesh).
  static constexpr int kCoarseHeight = 96;

 private:
  const RenderModel& ModelFor(const CompiledModel& model);
  void DrawFloor(const RenderModel& scene, const CameraPose& pose, float focal, const std::vector<FloorCircle>& circles);
  // only_robot >= 0: that robot's geoms alone.
  void DrawGeoms(World& world, const RenderModel& scene, const CameraPose& pose, float focal, bool shadows,
                 int only_robot);

  std::mutex mutex_;  // one frame at a time: the buffers below are the renderer's
  // Per model, fine (frames over kCoarseHeight) and coarse meshes.
  std::map<std::pair<const CompiledModel*, bool>, std::unique_ptr<RenderModel>> models_;
  bool coarse_ = false;  // the frame being drawn takes the coarse meshes
  Rasterizer raster_;
  std::vector<std::uint8_t> rgb_scratch_;
  std::vector<JPH::Vec3> world_positions_;
  std::vector<ScreenVertex> screen_;
  std::vector<unsigned char> visible_;
  std::vector<float> row_;  // DrawFloor's per-row scratch: inverse depths, and the colours' channels
  std::vector<std::uint32_t> row_rgb_;
};

}  // namespace joltgym
