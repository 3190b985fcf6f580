#include "tasks/foot_contact.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {

FootContact::FootContact(const ModelDesc& desc, const std::string& foot, const std::string& floor, const std::string& what) {
  const GeomDesc* sphere = nullptr;
  for (size_t b = 0; b < desc.bodies.size() && !sphere; ++b)
    for (const GeomDesc& g : desc.bodies[b].geoms)
      if (g.name == foot) sphere = &g, body_ = int(b);
  if (!sphere || sphere->type != GeomType::Sphere)
    throw std::invalid_argument(what + " needs a sphere geom named '" + foot + "' on a moving body of model '" +
                                desc.name + "'");
  const GeomDesc* plane = nullptr;
  for (const GeomDesc& g : desc.world_geoms)
    if (g.name == floor) plane = &g;
  if (!plane || (plane->type != GeomType::Plane && plane->type != GeomType::HeightField))
    throw std::invalid_argument(what + " needs a plane or height field geom named '" + floor + "' in the scene of model '" +
                                desc.name + "'");
  if (plane->type == GeomType::HeightField)
    height_field_ = std::make_shared<const HeightField>(desc.height_fields.at(size_t(plane->height_field)), *plane);
  local_ = JPH::Vec3(sphere->pos[0], sphere->pos[1], sphere->pos[2]);
  radius_ = sphere->size[0];
  const JPH::Quat q(plane->quat[1], plane->quat[2], plane->quat[3], plane->quat[0]);
  normal_ = (q * JPH::Vec3::sAxisZ()).Normalized();
  plane_point_ = JPH::Vec3(plane->pos[0], plane->pos[1], plane->pos[2]);
  margin_ = std::max(sphere->margin, plane->margin);
}

JPH::Vec3 FootContact::Centre(const Robot& robot) const {
  return JPH::Vec3(robot.body(body_).GetWorldTransform() * local_ - robot.origin());
}

bool FootContact::Touching(const Robot& robot) const {
  if (height_field_) {
    SurfaceContact contacts[HeightField::kMaxContacts];
    return height_field_->CollideSphere(Centre(robot), radius_, margin_, contacts) > 0;
  }
  return normal_.Dot(Centre(robot) - plane_point_) - radius_ < margin_;
}

}  // namespace joltgym
