// MuJoCo's site sensors, computed from a robot's current state: each function returns what
// the sensor of its name reads for that site (velocities and accelerations of the site's
// body; world-frame vectors unless the name says the site's frame).
#pragma once

#include "physics/world/robot.h"
#include "physics/world/site_zone.h"

namespace joltgym::sensors {

// gyro: the body's angular velocity in the site's frame.
inline JPH::Vec3 Gyro(const Robot& robot, int site) {
  return robot.SiteRotation(site).Conjugated() * robot.SiteAngularVelocity(site);
}
// velocimeter: the site point's velocity in the site's frame.
inline JPH::Vec3 Velocimeter(const Robot& robot, int site) {
  return robot.SiteRotation(site).Conjugated() * robot.SiteLinearVelocity(site);
}
// accelerometer: the site point's acceleration less gravity, in the site's frame (at rest it
// reads +g upwards).
inline JPH::Vec3 Accelerometer(const Robot& robot, int site) {
  const Vec3f& g = robot.model().desc().gravity;
  return robot.SiteRotation(site).Conjugated() * (robot.SiteLinearAcceleration(site) - JPH::Vec3(g[0], g[1], g[2]));
}
// framexaxis, framezaxis: the site frame's axes in the world.
inline JPH::Vec3 FrameXAxis(const Robot& robot, int site) { return robot.SiteRotation(site) * JPH::Vec3::sAxisX(); }
inline JPH::Vec3 FrameZAxis(const Robot& robot, int site) { return robot.SiteRotation(site) * JPH::Vec3::sAxisZ(); }
// framelinvel, frameangvel.
inline JPH::Vec3 FrameLinVel(const Robot& robot, int site) { return robot.SiteLinearVelocity(site); }
inline JPH::Vec3 FrameAngVel(const Robot& robot, int site) { return robot.SiteAngularVelocity(site); }

// force and torque: what a leaf body's parent exerts on it through its joint (MuJoCo's cfrc_int of a
// body without children), in the site's frame, the torque about the site: the force and moment that
// give the body its motion over the last update less gravity's and the last update's contacts on its
// geoms. The site's body must have no child bodies (the task checks it). Zero until an update has run
// from the state last set, as Touch.
struct ForceTorque {
  JPH::Vec3 force, torque;
};
inline ForceTorque SiteForceTorque(const Robot& robot, int site) {
  if (!robot.UpdatedSinceStateSet()) return {JPH::Vec3::sZero(), JPH::Vec3::sZero()};
  const ModelDesc& desc = robot.model().desc();
  const SiteDesc& s = desc.sites[size_t(site)];
  const BodyFrameDesc& frame = desc.mj_body_frames[size_t(s.mj_body)];
  JPH::Vec3 a, alpha;
  robot.MjBodyAcceleration(s.mj_body, a, alpha);
  const JPH::Vec3 g(desc.gravity[0], desc.gravity[1], desc.gravity[2]);
  const JPH::Vec3 w = robot.SiteAngularVelocity(site);
  const JPH::Quat principal =
      robot.MjBodyRotation(s.mj_body) * JPH::Quat(frame.iquat[1], frame.iquat[2], frame.iquat[3], frame.iquat[0]);
  const auto inertia_times = [&](JPH::Vec3Arg v) {  // I v, I about the centre of mass in world axes
    const JPH::Vec3 local = principal.Conjugated() * v;
    return principal * JPH::Vec3(frame.inertia[0] * local.GetX(), frame.inertia[1] * local.GetY(), frame.inertia[2] * local.GetZ());
  };
  const JPH::RVec3 p = robot.SitePosition(site) + robot.origin();
  const JPH::Vec3 com(robot.MjBodyCentreOfMass(s.mj_body) + robot.origin() - p);
  JPH::Vec3 force = frame.mass * (a - g);
  JPH::Vec3 torque = inertia_times(alpha) + w.Cross(inertia_times(w)) + com.Cross(force);
  for (const ContactForce& c : robot.ReadContactForces()) {
    if (c.robot != robot.index() || c.geom_tag != JPH::uint64(s.mj_body + 1)) continue;
    force -= c.force;
    torque -= JPH::Vec3(c.point - p).Cross(c.force);
  }
  const JPH::Quat to_site = robot.SiteRotation(site).Conjugated();
  return {to_site * force, to_site * torque};
}

// touch: the normal force of the last physics update's contacts on the site's body whose ray, from
// the contact point outwards from that body along the normal, meets the site's volume; the site
// where the body was when the update began and found those contacts. Zero until an update has run
// from the state last set (a reset's start reads no contact, as dm_control's starts touch nothing).
inline float Touch(const Robot& robot, int site) {
  if (!robot.UpdatedSinceStateSet()) return 0.0f;
  const SiteDesc& s = robot.model().desc().sites[size_t(site)];
  const JPH::Quat local(s.quat[1], s.quat[2], s.quat[3], s.quat[0]);
  JPH::Quat to_site = local.Conjugated();
  JPH::RVec3 centre = JPH::RVec3(s.pos[0], s.pos[1], s.pos[2]);  // a world site's
  if (s.body >= 0) {
    const JPH::Quat body = robot.BodyRotationAtUpdateStart(s.body);
    to_site = (body * local).Conjugated();
    centre = robot.BodyPositionAtUpdateStart(s.body) + body * JPH::Vec3(centre);
  } else {
    centre += robot.origin();
  }
  float total = 0.0f;
  for (const ContactForce& c : robot.ReadContactForces()) {
    if (c.robot != robot.index() || int(c.geom_tag) - 1 != s.mj_body) continue;
    const float normal_force = c.force.Dot(c.normal);
    if (normal_force <= 0.0f) continue;
    if (RayMeetsSiteZone(s.type, s.size, to_site * JPH::Vec3(c.point - centre), to_site * -c.normal)) total += normal_force;
  }
  return total;
}

}  // namespace joltgym::sensors
