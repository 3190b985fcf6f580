// MuJoCo's cfrc_ext from the last physics update's contacts.
#pragma once

#include "physics/world/robot.h"
#include "tasks/com_terms.h"

#include <algorithm>

namespace joltgym {

// Per MuJoCo body (world included, mj_nbody rows of 6): the spatial force that
// contacts exert on it, (torque, force) in world axes, the torque taken about the
// robot's centre of mass (MuJoCo's c-frame: the subtree COM of the tree's root).
// Contacts on welded geoms go to the MuJoCo body that owns the geom.
inline void ExternalContactForces(const Robot& robot, float* out) {
  const ModelDesc& desc = robot.model().desc();
  std::fill(out, out + size_t(desc.mj_nbody) * 6, 0.0f);
  const JPH::RVec3 centre = RobotCentreOfMass(robot);
  for (const ContactForce& c : robot.ReadContactForces()) {
    if (c.robot != robot.index() || c.geom_tag == 0) continue;
    const int mj_body = int(c.geom_tag) - 1;
    if (mj_body <= 0 || mj_body >= desc.mj_nbody) continue;
    const JPH::Vec3 torque = JPH::Vec3(c.point - robot.origin() - centre).Cross(c.force);
    float* row = out + size_t(mj_body) * 6;
    for (int k = 0; k < 3; ++k) {
      row[k] += torque[k];
      row[3 + k] += c.force[k];
    }
  }
}

}  // namespace joltgym
