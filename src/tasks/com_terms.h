// MuJoCo's com-based quantities (cinert, cvel) per MuJoCo body, from Jolt state.
// MuJoCo expresses them in world axes about the c-frame origin: the subtree centre of
// mass of the body's tree root. joltgym models are one tree, so that is the robot's
// centre of mass.
#pragma once

#include "physics/world/robot.h"

namespace joltgym {

// Centre of mass of all simulated bodies (MuJoCo's subtree_com of the root), relative to
// the robot's origin; the other terms take `centre` in that frame too.
JPH::RVec3 RobotCentreOfMass(const Robot& robot);

// cinert of MuJoCo bodies 1..nbody-1, 10 floats each: the body's inertia about
// `centre` in world axes (xx, yy, zz, xy, xz, yz), then mass * (com - centre), then mass.
void ComInertia(const Robot& robot, JPH::RVec3Arg centre, float* out);

// cvel of MuJoCo bodies 1..nbody-1, 6 floats each: angular velocity, then the linear
// velocity of the body's motion extended to the point `centre`.
void ComVelocity(const Robot& robot, JPH::RVec3Arg centre, float* out);

}  // namespace joltgym
