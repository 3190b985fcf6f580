#include "tasks/floor_contact.h"

#include "physics/contacts/plane_collision.h"

#include <algorithm>
#include <stdexcept>

namespace joltgym {

FloorContact::FloorContact(const CompiledModel& model, const std::string& geom, const std::string& floor,
                           const std::string& what) {
  const ModelDesc& desc = model.desc();
  for (size_t b = 0; b < desc.bodies.size() && !geom_; ++b)
    for (const GeomDesc& g : desc.bodies[b].geoms)
      if (g.name == geom) geom_ = &g, body_ = int(b);
  if (!geom_ || PlaneContactFeatures(geom_->type) == 0)
    throw std::invalid_argument(what + " needs a geom named '" + geom + "' on a moving body of model '" + desc.name + "'");
  const GeomDesc* plane = nullptr;
  for (const GeomDesc& g : desc.world_geoms)
    if (g.name == floor) plane = &g;
  if (!plane || (plane->type != GeomType::Plane && plane->type != GeomType::HeightField))
    throw std::invalid_argument(what + " needs a plane or height field geom named '" + floor + "' in the scene of model '" +
                                desc.name + "'");
  if (plane->type == GeomType::HeightField) {
    if (geom_->type != GeomType::Sphere && geom_->type != GeomType::Box)
      throw std::invalid_argument(what + ": geom '" + geom + "' on a height field: only spheres and boxes touch height fields");
    for (const CompiledStaticGeom& s : model.static_geoms())
      if (s.geom.name == floor) height_field_ = s.height_field;
  }
  const JPH::Quat q(geom_->quat[1], geom_->quat[2], geom_->quat[3], geom_->quat[0]);
  local_ = JPH::Mat44::sRotationTranslation(q.Normalized(), JPH::Vec3(geom_->pos[0], geom_->pos[1], geom_->pos[2]));
  const JPH::Quat pq(plane->quat[1], plane->quat[2], plane->quat[3], plane->quat[0]);
  normal_ = (pq * JPH::Vec3::sAxisZ()).Normalized();
  plane_point_ = JPH::Vec3(plane->pos[0], plane->pos[1], plane->pos[2]);
  margin_ = std::max(geom_->margin, plane->margin);
}

bool FloorContact::Touching(const Robot& robot) const {
  // The geom's frame relative to the robot's origin, the frame the floor is described in.
  const JPH::RMat44 body = robot.body(body_).GetWorldTransform();
  JPH::Mat44 frame = JPH::Mat44(body * local_);
  frame.SetTranslation(JPH::Vec3(body * local_.GetTranslation() - robot.origin()));
  if (height_field_) {
    SurfaceContact contacts[HeightField::kMaxContacts];
    return (geom_->type == GeomType::Sphere
                ? height_field_->CollideSphere(frame.GetTranslation(), geom_->size[0], margin_, contacts)
                : height_field_->CollideBox(frame, geom_->size, margin_, contacts)) > 0;
  }
  PlaneContactPoint contacts[kMaxPlaneContacts];
  const int n = CollidePlane(plane_point_, normal_, geom_->type, geom_->size, frame, margin_, contacts);
  for (int i = 0; i < n; ++i)
    if (contacts[i].dist < margin_) return true;
  return false;
}

}  // namespace joltgym
