#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr float kNear = 0.02f;                 // metres: closer vertices are not drawn
constexpr float kShadowDarkening = 0.55f;
constexpr float kCheckerSize = 1.0f;           // metres per floor square
// Lighting: a key light from above and to one side (it casts the shadows), the camera's
// headlight (as MuJoCo's), and ambient light.
const JPH::Vec3 kKeyLight = JPH::Vec3(0.35f, 0.45f, -1.0f).Normalized();  // direction light travels
constexpr float kAmbient = 0.28f, kKey = 0.55f, kHead = 0.32f;

struct View {
  JPH::Vec3 eye, right, up, forward;
  float focal, cx, cy;
  // Screen position of a world point; false when it is behind the near plane.
  bool Project(JPH::Vec3 p, float r, float g, float b, ScreenVertex& out) const {
    const JPH::Vec3 d = p - eye;
    const float z = d.Dot(forward);
    if (z < kNear) return false;
    const float inv = 1.0f / z;
    out = {cx + focal * d.Dot(right) * inv, cy - focal * d.Dot(up) * inv, inv, r, g, b};
    return true;
  }
};

View ViewOf(const CameraPose& pose, int width, int height) {
  constexpr float kDeg = 3.14159265358979f / 180.0f;
  View v;
  v.eye = pose.position;
  v.right = pose.rotation * JPH::Vec3::sAxisX();
  v.up = pose.rotation * JPH::Vec3::sAxisY();
  v.forward = -(pose.rotation * JPH::Vec3::sAxisZ());
  v.focal = 0.5f * float(height) / std::tan(0.5f * pose.fovy * kDeg);
  v.cx = 0.5f * float(width);
  v.cy = 0.5f * float(height);
  return v;
}

JPH::Vec3 RobotCom(const Robot& robot) {
  JPH::Vec3 weighted = JPH::Vec3::sZero();
  float mass = 0.0f;
  for (int b = 0; b < robot.num_bodies(); ++b) {
    const float m = robot.model().desc().bodies[size_t(b)].mass;
    weighted += m * JPH::Vec3(robot.body(b).GetCenterOfMassPosition());
    mass += m;
  }
  return mass > 0.0f ? weighted / mass : JPH::Vec3::sZero();
}

JPH::Vec3 ToVec(const Vec3f& v) { return JPH::Vec3(v[0], v[1], v[2]); }
JPH::Quat ToQuat(const Quatf& q) { return JPH::Quat(q[1], q[2], q[3], q[0]).Normalized(); }

}  // namespace

const RenderModel& Renderer::ModelFor(const CompiledModel& model) {
  auto& slot = models_[&model];
  if (!slot) slot = std::make_unique<RenderModel>(model);
  return *slot;
}

CameraPose Renderer::Pose(World& world, const CameraSpec& spec) {
  if (spec.only_robot >= world.num_robots()) throw std::invalid_argument("drawn robot out of range");
  const Robot& first = world.robot(std::max(spec.only_robot, 0));
  const ModelDesc& desc = first.model().desc();
  if (spec.model_camera >= 0) {
    if (spec.model_camera >= int(desc.cameras.size())) throw std::invalid_argument("camera id out of range");
    const CameraDesc& c = desc.cameras[size_t(spec.model_camera)];
    if (c.body >= 0 && c.mode == 0) {  // fixed to its body
      const JPH::RMat44 body = first.body(c.body).GetWorldTransform();
      return {JPH::Vec3(body * ToVec(c.pos)), (body.GetQuaternion() * ToQuat(c.quat)).Normalized(), c.fovy};
    }
    JPH::Vec3 offset = JPH::Vec3::sZero();  // track (1) and trackcom (2): move with the body, keep the orientation
    if (c.body >= 0 && c.mode == 1) {
      const BodyDesc& b = desc.bodies[size_t(c.body)];
      offset = JPH::Vec3(first.body(c.body).GetPosition()) - ToVec(b.pos);
    } else if (c.body >= 0 && c.mode == 2) {
      JPH::Vec3 com0 = JPH::Vec3::sZero();
      float mass = 0.0f;
      for (const BodyDesc& b : desc.bodies) {
        const JPH::Quat q = ToQuat(b.quat);
        com0 += b.mass * (ToVec(b.pos) + q * ToVec(b.com));
        mass += b.mass;
      }
      offset = RobotCom(first) - com0 / std::max(mass, 1e-9f);
    }
    return {ToVec(c.world_pos0) + offset, ToQuat(c.world_quat0), c.fovy};
  }
  OrbitCamera orbit = spec.orbit;
  if (!spec.orbit_given_distance) orbit.distance = 1.5f * ModelFor(first.model()).extent() * 2.0f;
  if (spec.track_robot >= 0) {
    const int tracked = spec.only_robot >= 0 ? spec.only_robot + spec.track_robot : spec.track_robot;
    if (tracked >= world.num_robots() || (spec.only_robot >= 0 && spec.track_robot > 0))
      throw std::invalid_argument("tracked robot out of range");
    const Robot& robot = world.robot(tracked);
    const int mj_body = std::clamp(spec.track_mj_body, 0, robot.model().desc().mj_nbody - 1);
    const JPH::Vec3 p = mj_body > 0 ? JPH::Vec3(robot.MjBodyPosition(mj_body) + robot.origin()) : JPH::Vec3::sZero();
    orbit.lookat = JPH::Vec3(p.GetX() + orbit.lookat.GetX(), p.GetY() + orbit.lookat.GetY(),
                             spec.keep_lookat_z ? orbit.lookat.GetZ() : p.GetZ() + orbit.lookat.GetZ());
  }
  return PoseOf(orbit);
}

void Renderer::DrawFloor(const RenderModel& scene, const CameraPose& pose, float focal,
                         const std::vector<FloorCircle>& circles) {
  const int width = raster_.width(), height = raster_.height();
  const View v = ViewOf(pose, width, height);
  std::uint8_t* rgb = raster_.rgb();
  float* inv_depth = raster_.inv_depth();
  std::uint8_t* flags = raster_.flags();
  const float h = scene.floor_height();
  const float above = v.eye.GetZ() - h;
  const JPH::Vec3 base = scene.floor_rgb() * 255.0f;
  for (int y = 0; y < height; ++y) {
    const float vy = (v.cy - (float(y) + 0.5f)) / focal;
    for (int x = 0; x < width; ++x) {
      const float ux = ((float(x) + 0.5f) - v.cx) / focal;
      const JPH::Vec3 dir = v.forward + ux * v.right + vy * v.up;  // its view-axis component is 1
      const size_t i = size_t(y) * size_t(width) + size_t(x);
      std::uint8_t* p = rgb + 3 * i;
      if (!scene.has_floor() || above <= 0.0f || dir.GetZ() >= -1e-6f) {  // sky: a vertical gradient
        const float t = std::clamp(0.5f + 0.5f * dir.GetZ() / dir.Length(), 0.0f, 1.0f);
        p[0] = std::uint8_t(200.0f - 90.0f * t), p[1] = std::uint8_t(215.0f - 70.0f * t), p[2] = std::uint8_t(235.0f - 30.0f * t);
        continue;
      }
      const float t = -above / dir.GetZ();  // view depth of the floor point
      const float fx = v.eye.GetX() + t * dir.GetX(), fy = v.eye.GetY() + t * dir.GetY();
      const bool dark = ((int(std::floor(fx / kCheckerSize)) + int(std::floor(fy / kCheckerSize))) & 1) != 0;
      // The checker fades out with distance, where its squares shrink below a pixel: fade ~ exp(-s)
      // as 1 / (1 + s + s^2 / 2) with s = 0.03 t, which costs less than exp in this per-pixel loop.
      const float s = 0.03f * t, fade = 1.0f / (1.0f + s + 0.5f * s * s);
      const float contrast = (dark ? 0.82f : 1.0f) * fade + 0.91f * (1.0f - fade);
      JPH::Vec3 colour = base * contrast;
      for (const FloorCircle& c : circles) {
        const float d = std::hypot(fx - c.x, fy - c.y);
        if (c.filled ? d <= c.radius : std::abs(d - c.radius) <= 0.5f * c.width)
          colour = JPH::Vec3(c.rgb[0], c.rgb[1], c.rgb[2]) * 255.0f;
      }
      p[0] = std::uint8_t(std::min(colour.GetX(), 255.0f));
      p[1] = std::uint8_t(std::min(colour.GetY(), 255.0f));
      p[2] = std::uint8_t(std::min(colour.GetZ(), 255.0f));
      inv_depth[i] = 1.0f / t;
      flags[i] = Rasterizer::kFloor;
    }
  }
}

void Renderer::DrawGeoms(World& world, const RenderModel& scene, const CameraPose& pose, float, bool shadows,
                         int only_robot) {
  const View v = ViewOf(pose, raster_.width(), raster_.height());
  const float floor_h = scene.floor_height();
  const auto draw = [&](const RenderGeom& g, const JPH::Mat44& to_world) {
    const Mesh& mesh = g.mesh;
    const size_t n = mesh.positions.size();
    world_positions_.resize(std::max(world_positions_.size(), n));
    screen_.resize(std::max(screen_.size(), n));
    visible_.resize(std::max(visible_.size(), n));
    for (size_t k = 0; k < n; ++k) world_positions_[k] = to_world * JPH::Vec3(mesh.positions[k]);
    if (shadows) {
      for (size_t k = 0; k < n; ++k) {  // each vertex slid along the light onto the floor
        const JPH::Vec3 p = world_positions_[k];
        const float height = std::max(p.GetZ() - floor_h, 0.0f);
        visible_[k] = v.Project(p + kKeyLight * (height / -kKeyLight.GetZ()), 0, 0, 0, screen_[k]);
      }
      for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
        const JPH::Vec3 normal = (world_positions_[b] - world_positions_[a]).Cross(world_positions_[c] - world_positions_[a]);
        if (normal.Dot(kKeyLight) < 0.0f && visible_[a] && visible_[b] && visible_[c])
          raster_.ShadowTriangle(screen_[a], screen_[b], screen_[c]);
      }
      return;
    }
    for (size_t k = 0; k < n; ++k) {
      const JPH::Vec3 normal = to_world.Multiply3x3(JPH::Vec3(mesh.normals[k])).NormalizedOr(JPH::Vec3::sAxisZ());
      const float light = kAmbient + kKey * std::max(0.0f, -normal.Dot(kKeyLight)) +
                          kHead * std::max(0.0f, -normal.Dot(v.forward));
      const JPH::Vec3 c = JPH::Vec3::sMin(g.rgb * (255.0f * light), JPH::Vec3::sReplicate(255.0f));
      visible_[k] = v.Project(world_positions_[k], c.GetX(), c.GetY(), c.GetZ(), screen_[k]);
    }
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
      const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
      if (visible_[a] && visible_[b] && visible_[c]) raster_.DrawTriangle(screen_[a], screen_[b], screen_[c]);
    }
  };
  for (const RenderGeom& g : scene.static_geoms()) draw(g, g.local);
  for (int r = 0; r < world.num_robots(); ++r) {
    if (only_robot >= 0 && r != only_robot) continue;
    const Robot& robot = world.robot(r);
    const RenderModel& model = ModelFor(robot.model());
    for (const RenderGeom& g : model.body_geoms()) {
      const JPH::RMat44 body = robot.body(g.body).GetWorldTransform();
      draw(g, JPH::Mat44(body) * g.local);
    }
  }
}

void Renderer::Render(World& world, const CameraSpec& camera, int width, int height, std::uint8_t* rgb, float* depth,
                      const std::vector<FloorCircle>& circles) {
  if (width < 1 || height < 1) throw std::invalid_argument("width and height must be >= 1");
  std::lock_guard<std::mutex> lock(mutex_);
  const CameraPose pose = Pose(world, camera);
  const RenderModel& scene = ModelFor(world.robot(0).model());
  if (!rgb) {
    rgb_scratch_.resize(size_t(width) * size_t(height) * 3);
    rgb = rgb_scratch_.data();
  }
  raster_.Begin(width, height, rgb);
  const View v = ViewOf(pose, width, height);
  DrawFloor(scene, pose, v.focal, circles);
  if (scene.has_floor()) {
    DrawGeoms(world, scene, pose, v.focal, /*shadows=*/true, camera.only_robot);
    raster_.ApplyShadow(kShadowDarkening);
  }
  DrawGeoms(world, scene, pose, v.focal, /*shadows=*/false, camera.only_robot);
  if (depth) {
    const float* inv = raster_.inv_depth();
    const size_t n = size_t(width) * size_t(height);
    for (size_t i = 0; i < n; ++i) depth[i] = inv[i] > 0.0f ? 1.0f / inv[i] : kFarDepth;
  }
}

}  // namespace joltgym
