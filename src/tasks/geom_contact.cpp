#include "tasks/geom_contact.h"

#include "physics/contacts/geom_shapes.h"
#include "physics/contacts/pair_collision.h"

#include <stdexcept>

namespace joltgym {
namespace {

// The geom of that name on a moving body: (body, index in its geoms), or (-1, -1).
std::pair<int, int> FindGeom(const ModelDesc& desc, const std::string& name) {
  for (int b = 0; b < int(desc.bodies.size()); ++b)
    for (int g = 0; g < int(desc.bodies[size_t(b)].geoms.size()); ++g)
      if (desc.bodies[size_t(b)].geoms[size_t(g)].name == name) return {b, g};
  return {-1, -1};
}

}  // namespace

GeomContact::GeomContact(const CompiledModel& model, const std::string& geom1, const std::string& geom2,
                         const std::string& what) {
  const ModelDesc& desc = model.desc();
  const auto [b1, g1] = FindGeom(desc, geom1);
  const auto [b2, g2] = FindGeom(desc, geom2);
  if (b1 < 0 || b2 < 0)
    throw std::invalid_argument(what + " needs geoms named '" + geom1 + "' and '" + geom2 + "' on moving bodies of model '" +
                                desc.name + "'");
  body1_ = b1, body2_ = b2;
  geom1_ = &desc.bodies[size_t(b1)].geoms[size_t(g1)];
  geom2_ = &desc.bodies[size_t(b2)].geoms[size_t(g2)];
  for (const ContactPairDesc& pair : desc.contact_pairs) {
    const bool same = pair.geom1.body == b1 && pair.geom1.geom == g1 && pair.geom2.body == b2 && pair.geom2.geom == g2;
    const bool swapped = pair.geom1.body == b2 && pair.geom1.geom == g2 && pair.geom2.body == b1 && pair.geom2.geom == g1;
    if (same || swapped) possible_ = true, margin_ = pair.margin;
  }
  const bool related = b1 == b2 || desc.bodies[size_t(b1)].parent == b2 || desc.bodies[size_t(b2)].parent == b1;
  const bool meet = (geom1_->contype & geom2_->conaffinity) != 0 || (geom2_->contype & geom1_->conaffinity) != 0;
  if (!possible_ && meet && !related) possible_ = true, margin_ = geom1_->margin + geom2_->margin;
  local1_ = JPH::Mat44::sRotationTranslation(ToQuat(geom1_->quat), ToVec3(geom1_->pos));
  local2_ = JPH::Mat44::sRotationTranslation(ToQuat(geom2_->quat), ToVec3(geom2_->pos));
  if (possible_ && !PairCollisionSupported(geom1_->type, geom2_->type)) {
    convex1_ = MakeConvexGeom(*geom1_, desc.bodies[size_t(b1)].name);
    convex2_ = MakeConvexGeom(*geom2_, desc.bodies[size_t(b2)].name);
  }
}

bool GeomContact::Touching(const Robot& robot) const {
  if (!possible_) return false;
  const JPH::Mat44 frame1(robot.body(body1_).GetWorldTransform() * local1_);
  const JPH::Mat44 frame2(robot.body(body2_).GetWorldTransform() * local2_);
  PairContactPoint contacts[kMaxConvexPairContacts];
  const int n = convex1_.shape ? CollideConvexPair(convex1_, frame1, convex2_, frame2, margin_, contacts)
                               : CollidePair(geom1_->type, geom1_->size, frame1, geom2_->type, geom2_->size, frame2, margin_,
                                             contacts);
  for (int i = 0; i < n; ++i)
    if (contacts[i].dist < margin_) return true;
  return false;
}

}  // namespace joltgym
