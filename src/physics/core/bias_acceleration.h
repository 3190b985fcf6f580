// The acceleration a robot's points would have with every joint acceleration zero: the
// velocity-product part of their motion (MuJoCo's J-dot qvel), which MuJoCo's constraint
// rows leave out. MuJoCo's soft contact solves J qacc + R f = aref, with J qacc the
// contact point's acceleration minus that part; a Jolt row on the body sees the point's
// own acceleration (less only the body's own spin, omega x (omega x r)). A foot that the
// leg swings round fast has much of such acceleration away from the floor, and a Jolt row
// without the term holds it down with a fraction of MuJoCo's force. SoftContactConstraint
// adds the term to its targets.
#pragma once

#include <Jolt/Jolt.h>
#include <Jolt/Math/Vec3.h>

namespace joltgym {

// A spatial motion vector (angular part, and linear part at a common reference point).
struct Motion {
  JPH::Vec3 angular = JPH::Vec3::sZero();
  JPH::Vec3 linear = JPH::Vec3::sZero();

  Motion operator+(const Motion& o) const { return {angular + o.angular, linear + o.linear}; }
  Motion operator-(const Motion& o) const { return {angular - o.angular, linear - o.linear}; }
  Motion operator*(float s) const { return {angular * s, linear * s}; }
};

// Featherstone's motion cross product a x b (MuJoCo's mju_crossMotion).
inline Motion CrossMotion(const Motion& a, const Motion& b) {
  return {a.angular.Cross(b.angular), a.angular.Cross(b.linear) + a.linear.Cross(b.angular)};
}

// Unit motion of a hinge about `axis` through `anchor`, and of a slide along `axis`, with
// `anchor` relative to the reference point.
inline Motion HingeMotion(JPH::Vec3Arg axis, JPH::Vec3Arg anchor) { return {axis, anchor.Cross(axis)}; }
inline Motion SlideMotion(JPH::Vec3Arg axis) { return {JPH::Vec3::sZero(), axis}; }

// What a constraint row on a body needs of its bias acceleration: for a point at r from
// the body's centre of mass, the bias acceleration MuJoCo's row leaves out, less the
// body's own omega x (omega x r), is at_com + angular x r.
struct BiasAcceleration {
  JPH::Vec3 angular = JPH::Vec3::sZero();
  JPH::Vec3 at_com = JPH::Vec3::sZero();

  JPH::Vec3 At(JPH::Vec3Arg r) const { return at_com + angular.Cross(r); }
};

}  // namespace joltgym
