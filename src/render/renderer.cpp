#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
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

// floor() of a float as an int, without the library call it compiles to on baseline x86-64.
inline int FloorOf(float x) {
  const int i = int(x);
  return i - (x < float(i));
}

JPH::Vec3 ToVec(const Vec3f& v) { return JPH::Vec3(v[0], v[1], v[2]); }
JPH::Quat ToQuat(const Quatf& q) { return JPH::Quat(q[1], q[2], q[3], q[0]).Normalized(); }

}  // namespace

const RenderModel& Renderer::ModelFor(const CompiledModel& model) {
  auto& slot = models_[{&model, coarse_}];
  if (!slot) slot = std::make_unique<RenderModel>(model, coarse_ ? kCoarseMesh : kFineMesh);
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
    } else if (c.mode == 2) {  // on the world body: MuJoCo tracks the whole model's centre of mass
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
  const bool floor_seen = scene.has_floor() && above > 0.0f;
  const float height_above = floor_seen ? above : 1.0f;
  const float step_x = 1.0f / focal;  // a pixel to the right moves the ray by right / focal
  const float sx = step_x * v.right.GetX(), sy = step_x * v.right.GetY(), sz = step_x * v.right.GetZ();
  const float ex = v.eye.GetX(), ey = v.eye.GetY();
  // A row at a time. A camera without roll (the orbit camera, the suite's) sees each row at one
  // elevation: a row of sky is one colour, a row of floor one depth, and only the checker varies.
  // Otherwise every pixel's colour and inverse depth, four at once in Jolt's SIMD vectors.
  const bool level = std::abs(v.right.GetZ()) < 1e-6f;
  const size_t padded = (size_t(width) + 3) & ~size_t(3);
  row_.resize(padded);
  row_rgb_.resize(3 * padded);
  float* inv_row = row_.data();
  std::uint32_t* red = row_rgb_.data();
  std::uint32_t* green = red + padded;
  std::uint32_t* blue = green + padded;
  using JPH::UVec4;
  using JPH::Vec4;
  constexpr float kPerMetre = 1.0f / kCheckerSize;
  const Vec4 lane(0.0f, 1.0f, 2.0f, 3.0f), one = Vec4::sReplicate(1.0f);
  // The checker's dark cells (all ones) at the floor points t along rays (dx, dy) from the eye.
  const auto dark_cells = [&](Vec4 t, Vec4 dx, Vec4 dy) {
    const Vec4 fx = (Vec4::sReplicate(ex) + t * dx) * kPerMetre, fy = (Vec4::sReplicate(ey) + t * dy) * kPerMetre;
    // floor(): truncation, less one where that rounded up (a true comparison is all ones: -1).
    const UVec4 ix = fx.ToInt(), iy = fy.ToInt();
    const UVec4 cells = ix + Vec4::sLess(fx, ix.ToFloat()) + iy + Vec4::sLess(fy, iy.ToFloat());
    return UVec4::sEquals(UVec4::sAnd(cells, UVec4::sReplicate(1)), UVec4::sReplicate(1));
  };
  // The checker fades out with distance, where its squares shrink below a pixel: fade ~ exp(-s)
  // as 1 / (1 + s + s^2 / 2) with s = 0.03 t, cheaper than exp.
  const auto contrast = [&](Vec4 t, UVec4 dark) {
    const Vec4 s = 0.03f * t, fade = one / (one + s + 0.5f * s * s);
    return Vec4::sSelect(one, Vec4::sReplicate(0.82f), dark) * fade + 0.91f * (one - fade);
  };
  // The sky: a vertical gradient by the ray's elevation.
  const auto sky = [&](Vec4 dx, Vec4 dy, Vec4 dz) {
    return Vec4::sClamp(Vec4::sReplicate(0.5f) + 0.5f * dz / (dx * dx + dy * dy + dz * dz).Sqrt(), Vec4::sZero(), one);
  };
  constexpr float kSkyTop[3] = {200.0f, 215.0f, 235.0f}, kSkyRange[3] = {90.0f, 70.0f, 30.0f};
  for (int y = 0; y < height; ++y) {
    const float vy = (v.cy - (float(y) + 0.5f)) / focal;
    const JPH::Vec3 start = v.forward + ((0.5f - v.cx) / focal) * v.right + vy * v.up;  // view-axis component 1
    const float dx0 = start.GetX(), dy0 = start.GetY(), dz0 = start.GetZ();
    const size_t row = size_t(y) * size_t(width);
    if (level && !(floor_seen && dz0 < -1e-6f)) {  // a row of sky
      const float middle = 0.5f * float(width - 1);
      const float blend = sky(Vec4::sReplicate(dx0 + middle * sx), Vec4::sReplicate(dy0 + middle * sy),
                              Vec4::sReplicate(dz0)).GetX();
      std::uint8_t colour[3];
      for (int k = 0; k < 3; ++k) colour[k] = std::uint8_t(kSkyTop[k] - kSkyRange[k] * blend);
      for (int x = 0; x < width; ++x) std::memcpy(rgb + 3 * (row + size_t(x)), colour, 3);
      continue;  // depth and flags stay Begin's: far, none
    }
    if (level) {  // a row of floor, at one depth
      const float inv_t = -dz0 / height_above, t = 1.0f / inv_t;
      std::uint8_t shades[2][3];  // light, dark
      for (int dark = 0; dark < 2; ++dark) {
        const float c = contrast(Vec4::sReplicate(t), dark ? UVec4::sReplicate(~0u) : UVec4::sZero()).GetX();
        for (int k = 0; k < 3; ++k) shades[dark][k] = std::uint8_t(std::min(base[k] * c, 255.0f));
      }
      for (int x = 0; x < width; x += 4) {
        const Vec4 column = Vec4::sReplicate(float(x)) + lane;
        dark_cells(Vec4::sReplicate(t), Vec4::sReplicate(dx0) + column * sx, Vec4::sReplicate(dy0) + column * sy)
            .StoreInt4(red + x);
      }
      for (int x = 0; x < width; ++x) std::memcpy(rgb + 3 * (row + size_t(x)), shades[red[x] & 1], 3);
      std::fill(inv_depth + row, inv_depth + row + size_t(width), inv_t);
      std::fill(flags + row, flags + row + size_t(width), Rasterizer::kFloor);
    } else {
      for (int x = 0; x < width; x += 4) {
        const Vec4 column = Vec4::sReplicate(float(x)) + lane;
        const Vec4 dx = Vec4::sReplicate(dx0) + column * sx, dy = Vec4::sReplicate(dy0) + column * sy;
        const Vec4 dz = Vec4::sReplicate(dz0) + column * sz;
        const UVec4 on_floor = floor_seen ? Vec4::sLess(dz, Vec4::sReplicate(-1e-6f)) : UVec4::sZero();
        const Vec4 inv_t = Vec4::sSelect(one, dz * (-1.0f / height_above), on_floor);  // 1 / view depth of the floor point
        const Vec4 t = one / inv_t;
        const Vec4 shade = contrast(t, dark_cells(t, dx, dy)), blend = sky(dx, dy, dz);
        std::uint32_t* channels[3] = {red, green, blue};
        for (int k = 0; k < 3; ++k) {
          const Vec4 value = Vec4::sSelect(Vec4::sReplicate(kSkyTop[k]) - kSkyRange[k] * blend, base[k] * shade, on_floor);
          Vec4::sMin(value, Vec4::sReplicate(255.0f)).ToInt().StoreInt4(channels[k] + x);
        }
        Vec4::sSelect(Vec4::sZero(), inv_t, on_floor).StoreFloat4(reinterpret_cast<JPH::Float4*>(inv_row + x));
      }
      for (int x = 0; x < width; ++x) {
        std::uint8_t* p = rgb + 3 * (row + size_t(x));
        p[0] = std::uint8_t(red[x]), p[1] = std::uint8_t(green[x]), p[2] = std::uint8_t(blue[x]);
        inv_depth[row + size_t(x)] = inv_row[x];
        flags[row + size_t(x)] = inv_row[x] > 0.0f ? Rasterizer::kFloor : 0;
      }
    }
    if (circles.empty()) continue;
    for (int x = 0; x < width; ++x) {  // marks on the floor
      if (!(inv_depth[row + size_t(x)] > 0.0f)) continue;
      const float t = 1.0f / inv_depth[row + size_t(x)];
      const float fx = ex + t * (dx0 + float(x) * sx), fy = ey + t * (dy0 + float(x) * sy);
      for (const FloorCircle& c : circles) {
        const float d = std::hypot(fx - c.x, fy - c.y);
        if (c.filled ? d <= c.radius : std::abs(d - c.radius) <= 0.5f * c.width) {
          std::uint8_t* p = rgb + 3 * (row + size_t(x));
          for (int j = 0; j < 3; ++j) p[j] = std::uint8_t(std::min(c.rgb[j] * 255.0f, 255.0f));
        }
      }
    }
  }
}

void Renderer::DrawGeoms(World& world, const RenderModel& scene, const CameraPose& pose, float, bool shadows,
                         int only_robot) {
  const View v = ViewOf(pose, raster_.width(), raster_.height());
  const float floor_h = scene.floor_height();
  const auto draw = [&](const Mesh& mesh, JPH::Vec3Arg rgb, const JPH::Mat44& to_world) {
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
      const JPH::Vec3 c = JPH::Vec3::sMin(rgb * (255.0f * light), JPH::Vec3::sReplicate(255.0f));
      visible_[k] = v.Project(world_positions_[k], c.GetX(), c.GetY(), c.GetZ(), screen_[k]);
    }
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
      const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
      if (visible_[a] && visible_[b] && visible_[c]) raster_.DrawTriangle(screen_[a], screen_[b], screen_[c]);
    }
  };
  // A world geom the drawn robot's episode moved (a target) is drawn where the episode put it.
  const Robot& episode = world.robot(only_robot >= 0 ? only_robot : 0);
  for (const RenderGeom& g : scene.static_geoms()) {
    const WorldGeomMove* move = episode.WorldGeomMoveOf(g.world_geom, g.world_site);
    if (!move) {
      draw(g.mesh, g.rgb, g.local);
      continue;
    }
    JPH::Mat44 moved = g.local * JPH::Mat44::sScale(move->scale);
    moved.SetTranslation(move->pos + JPH::Vec3(episode.origin()));
    draw(g.mesh, g.rgb, moved);
  }
  for (int r = 0; r < world.num_robots(); ++r) {
    if (only_robot >= 0 && r != only_robot) continue;
    const Robot& robot = world.robot(r);
    const RenderModel& model = ModelFor(robot.model());
    for (const RenderGeom& g : model.body_geoms()) {
      const JPH::RMat44 body = robot.body(g.body).GetWorldTransform();
      draw(g.mesh, g.rgb, JPH::Mat44(body) * g.local);
    }
    for (const RenderTendon& t : model.tendons()) {
      // The unit cylinder stretched along z to the sites' distance, its radius scaled to the tendon's
      // (a cylinder's normals keep their directions under this scaling).
      const JPH::Vec3 a(robot.SitePosition(t.site1) + robot.origin()), b(robot.SitePosition(t.site2) + robot.origin());
      const JPH::Vec3 span = b - a;
      const float half = 0.5f * span.Length();
      if (!(half > 0.0f)) continue;
      const JPH::Quat turn = JPH::Quat::sFromTo(JPH::Vec3::sAxisZ(), span / (2.0f * half));
      draw(model.unit_cylinder(), t.rgb,
           JPH::Mat44::sRotationTranslation(turn, 0.5f * (a + b)) * JPH::Mat44::sScale(JPH::Vec3(t.radius, t.radius, half)));
    }
  }
}

void Renderer::Render(World& world, const CameraSpec& camera, int width, int height, std::uint8_t* rgb, float* depth,
                      const std::vector<FloorCircle>& circles) {
  if (width < 1 || height < 1) throw std::invalid_argument("width and height must be >= 1");
  std::lock_guard<std::mutex> lock(mutex_);
  coarse_ = height <= kCoarseHeight;
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
