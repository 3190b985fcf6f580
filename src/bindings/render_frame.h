// Drawing a world held by one of the binding classes (World, TaskCore, MultiAgentEnv, and
// each env of WorldPool and MultiAgentPool): camera and floor marks from Python, the frame
// into fresh NumPy arrays, the GIL released while the owner's lock is held.
#pragma once

#include "render/renderer.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <string>

namespace joltgym::bindings {

namespace py = pybind11;

// camera: {"camera_id": int} for a model camera, else the orbit camera's "distance",
// "azimuth", "elevation", "lookat" (3), "fovy", and tracking's "track_robot",
// "track_body" (a MuJoCo body id), "keep_lookat_z".
inline CameraSpec CameraSpecFrom(const py::dict& camera) {
  CameraSpec spec;
  for (const auto& [key, value] : camera) {
    const std::string name = py::str(key);
    if (name == "camera_id") spec.model_camera = value.cast<int>();
    else if (name == "distance") spec.orbit.distance = value.cast<float>(), spec.orbit_given_distance = true;
    else if (name == "azimuth") spec.orbit.azimuth = value.cast<float>();
    else if (name == "elevation") spec.orbit.elevation = value.cast<float>();
    else if (name == "fovy") spec.orbit.fovy = value.cast<float>();
    else if (name == "lookat") {
      const auto l = value.cast<std::array<float, 3>>();
      spec.orbit.lookat = JPH::Vec3(l[0], l[1], l[2]);
    } else if (name == "track_robot") spec.track_robot = value.cast<int>();
    else if (name == "track_body") spec.track_mj_body = value.cast<int>();
    else if (name == "keep_lookat_z") spec.keep_lookat_z = value.cast<bool>();
    else throw py::value_error("unknown camera setting '" + name + "'");
  }
  return spec;
}

// circles: dicts with "x", "y", "radius", and optionally "width", "rgb", "filled".
inline std::vector<FloorCircle> CirclesFrom(const py::list& circles) {
  std::vector<FloorCircle> out;
  for (const py::handle& item : circles) {
    const py::dict d = item.cast<py::dict>();
    FloorCircle c;
    c.x = d["x"].cast<float>();
    c.y = d["y"].cast<float>();
    c.radius = d["radius"].cast<float>();
    if (d.contains("width")) c.width = d["width"].cast<float>();
    if (d.contains("filled")) c.filled = d["filled"].cast<bool>();
    if (d.contains("rgb")) {
      const auto rgb = d["rgb"].cast<std::array<float, 3>>();
      std::copy(rgb.begin(), rgb.end(), c.rgb);
    }
    out.push_back(c);
  }
  return out;
}

// with_world(f) runs f(World&) under the owner's lock. Returns (rgb or None, depth or None).
// only_robot >= 0: the world holds other envs' robots too; draw that one alone (CameraSpec::only_robot).
template <class WithWorld>
py::tuple RenderFrame(Renderer& renderer, WithWorld with_world, int width, int height, const py::dict& camera,
                      const py::list& circles, bool want_rgb, bool want_depth, int only_robot = -1) {
  if (width < 1 || height < 1 || width > 16384 || height > 16384)
    throw py::value_error("width and height must be in [1, 16384], got " + std::to_string(width) + " x " +
                          std::to_string(height));
  CameraSpec spec = CameraSpecFrom(camera);
  spec.only_robot = only_robot;
  const std::vector<FloorCircle> marks = CirclesFrom(circles);
  py::object rgb = py::none(), depth = py::none();
  std::uint8_t* rgb_data = nullptr;
  float* depth_data = nullptr;
  if (want_rgb) {
    py::array_t<std::uint8_t> a({height, width, 3});
    rgb_data = a.mutable_data();
    rgb = a;
  }
  if (want_depth) {
    py::array_t<float> a({height, width});
    depth_data = a.mutable_data();
    depth = a;
  }
  {
    py::gil_scoped_release release;
    with_world([&](World& w) { renderer.Render(w, spec, width, height, rgb_data, depth_data, marks); });
  }
  return py::make_tuple(rgb, depth);
}

inline constexpr const char* kRenderDoc = "Draw the world: (rgb HxWx3 uint8 or None, depth HxW metres or None).";

// Adds render(renderer, width, height, camera={}, circles=[], rgb=True, depth=False) to a
// class whose with_world(self, f) runs f(World&) under self's lock.
template <class Self, class Class, class WithWorldOf>
void DefRender(Class& cls, WithWorldOf with_world) {
  cls.def(
      "render",
      [with_world](Self& self, Renderer& renderer, int width, int height, const py::dict& camera,
                   const py::list& circles, bool rgb, bool depth) {
        return RenderFrame(renderer, [&](auto&& f) { with_world(self, f); }, width, height, camera, circles, rgb,
                           depth);
      },
      py::arg("renderer"), py::arg("width"), py::arg("height"), py::arg("camera") = py::dict(),
      py::arg("circles") = py::list(), py::arg("rgb") = true, py::arg("depth") = false, kRenderDoc);
  cls.def(
      "camera_pose",
      [with_world](Self& self, Renderer& renderer, const py::dict& camera) {
        const CameraSpec spec = CameraSpecFrom(camera);
        CameraPose pose;
        with_world(self, [&](World& w) { pose = renderer.Pose(w, spec); });
        const JPH::Mat44 frame = JPH::Mat44::sRotation(pose.rotation);
        std::array<std::array<float, 3>, 3> rotation;
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) rotation[size_t(r)][size_t(c)] = frame(r, c);
        return py::make_tuple(std::array<float, 3>{pose.position.GetX(), pose.position.GetY(), pose.position.GetZ()},
                              rotation, pose.fovy);
      },
      py::arg("renderer"), py::arg("camera") = py::dict(),
      "Where the camera stands now: (position, rotation 3x3 with the camera's axes as columns, as MuJoCo's "
      "cam_xmat, fovy in degrees).");
}

// The same for a pool: render(env, renderer, ...) draws env `env` of `count(self)`;
// robot_of(self, env) names env's robot where its world holds other envs' too (-1: none).
template <class Self, class Class, class Count, class RobotOf = int (*)(Self&, int)>
void DefRenderOfEach(Class& cls, Count count, RobotOf robot_of = [](Self&, int) { return -1; }) {
  cls.def(
      "render",
      [count, robot_of](Self& self, int env, Renderer& renderer, int width, int height, const py::dict& camera,
                        const py::list& circles, bool rgb, bool depth) {
        if (env < 0 || env >= count(self))
          throw py::index_error("env " + std::to_string(env) + " out of range [0, " + std::to_string(count(self)) + ")");
        return RenderFrame(renderer, [&](auto&& f) { self.WithWorld(env, f); }, width, height, camera, circles, rgb,
                           depth, robot_of(self, env));
      },
      py::arg("env"), py::arg("renderer"), py::arg("width"), py::arg("height"), py::arg("camera") = py::dict(),
      py::arg("circles") = py::list(), py::arg("rgb") = true, py::arg("depth") = false, kRenderDoc);
}

}  // namespace joltgym::bindings
