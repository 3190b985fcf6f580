// A height field of the scene (MJCF <hfield> on a world geom) as MuJoCo's collision sees it: a
// grid whose every cell is split into two triangles along the same diagonal as MuJoCo's
// prisms, and the contacts of a sphere with those triangles, one per triangle it comes within
// the margin of (MuJoCo finds one per prism), halfway between the two surfaces. A box touches at
// its corners (each at its nearest triangle, as a point) and wherever a sample of the field pokes
// into it (out through the box's nearest face); MuJoCo searches each prism under the box for its
// deepest point instead, which can be a point along an edge of the box where ours is its corner.
#pragma once

#include "model/model_desc.h"

#include <Jolt/Jolt.h>
#include <Jolt/Math/Mat44.h>
#include <Jolt/Math/Quat.h>
#include <Jolt/Math/Vec3.h>
#include <Jolt/Physics/Collision/Shape/ConvexShape.h>

#include <array>
#include <vector>

namespace joltgym {

struct SurfaceContact {
  JPH::Vec3 pos;     // world, halfway between the surfaces
  JPH::Vec3 normal;  // world, from the height field towards the sphere
  float dist = 0.0f; // signed distance between the surfaces (negative: penetrating)
};

class HeightField {
 public:
  static constexpr int kMaxContacts = 4;  // per sphere: the deepest kept

  // The field of `desc` placed as `geom` (a HeightField geom of the scene, world frame).
  HeightField(const HeightFieldDesc& desc, const GeomDesc& geom);

  // The contacts of a sphere (world centre) closer than `margin`, deepest first; returns how many.
  int CollideSphere(JPH::Vec3Arg centre, float radius, float margin, SurfaceContact out[kMaxContacts]) const;
  // The contacts of a box (its world transform, MuJoCo's half-sizes) closer than `margin`, deepest
  // first; returns how many.
  int CollideBox(const JPH::Mat44& transform, const Vec3f& half, float margin, SurfaceContact out[kMaxContacts]) const;
  // The contacts of another convex shape (a capsule, an ellipsoid, a cylinder; its world transform, its surface
  // within `reach` of its origin) closer than `margin`, deepest first: one per triangle it comes near, as
  // MuJoCo's general convex search gives one per prism, found by Jolt's GJK/EPA against the triangle.
  int CollideConvex(const JPH::ConvexShape& shape, const JPH::Mat44& transform, float reach, float margin,
                    SurfaceContact out[kMaxContacts]) const;

 private:
  JPH::Vec3 Vertex(int r, int c) const;  // in the field's frame
  // The upward unit normal of triangle k of cell (r, c)-(r + 1, c + 1) (0: the one at its corner (r + 1, c),
  // 1: at (r, c + 1)); zero for a cell outside the field.
  JPH::Vec3 CellTriangleNormal(int r, int c, int k) const;
  // f(a, b, c) for both triangles of every cell within `reach` of p (field frame, xy).
  template <typename F>
  void ForEachTriangleNear(JPH::Vec3Arg p, float reach, F&& f) const;
  // The deepest kMaxContacts of n found contacts (field frame, pos on the field's surface; from
  // first_sample on, samples under a box) into out, in the world, pos halfway between the surfaces;
  // returns how many.
  int Deepest(SurfaceContact* found, int n, SurfaceContact out[kMaxContacts], int first_sample) const;
  // A box's kMaxContacts deepest into kept, its corners (found before first_sample) ahead of as deep samples.
  static int SamplesAfterCorners(const SurfaceContact* found, int n, int first_sample, SurfaceContact kept[kMaxContacts]);

  int nrow_, ncol_;
  std::array<float, 4> size_;
  float dx_, dy_;
  std::vector<float> z_;  // sample heights (data x size[2]), row-major
  JPH::Vec3 pos_;
  JPH::Quat rot_;
};

}  // namespace joltgym
