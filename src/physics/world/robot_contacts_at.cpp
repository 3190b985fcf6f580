// What a robot would touch, and where its sites would be, at a given qpos, found without moving it.
#include "physics/contacts/convex_pair_collision.h"
#include "physics/contacts/pair_collision.h"
#include "physics/world/robot.h"

namespace joltgym {

const std::vector<Robot::KinematicFrame>& Robot::FramesAt(const float* qpos) const {
  contact_check_qvel_.assign(size_t(model_->nv()), 0.0f);
  contact_check_frames_.resize(bodies_.size());
  ForwardKinematics(qpos, contact_check_qvel_.data(), contact_check_frames_);
  return contact_check_frames_;
}

int Robot::ContactsAt(const float* qpos) const {
  FramesAt(qpos);
  const auto transform = [this](int body) {
    const KinematicFrame& f = contact_check_frames_[size_t(body)];
    return JPH::RMat44::sRotationTranslation(f.rot, f.pos);
  };
  int count = 0;
  for (size_t i = 0; i < soft_contacts_.size(); ++i) count += soft_contacts_[i]->ContactsAt(transform(soft_contact_body_[i]));
  PairContactPoint contacts[kMaxConvexPairContacts];
  for (const CompiledSelfContact& self : model_->self_contacts()) {
    const JPH::RMat44 t1 = transform(self.body1), t2 = transform(self.body2);
    for (const SelfContactGeomPair& g : self.pairs) {
      const JPH::Mat44 geom1(t1 * g.local1), geom2(t2 * g.local2);
      const float margin = g.pair.soft.margin;
      const int n = g.convex() ? CollideConvexPair(g.convex1, geom1, g.convex2, geom2, margin, contacts)
                               : CollidePair(g.type1, g.size1, geom1, g.type2, g.size2, geom2, margin, contacts);
      for (int k = 0; k < n; ++k) count += contacts[k].dist < margin;
    }
  }
  return count;
}

JPH::RMat44 Robot::SiteFrameAt(const float* qpos, int site) const {
  const std::vector<KinematicFrame>& frames = FramesAt(qpos);
  const SiteDesc& s = model_->desc().sites[size_t(site)];
  const JPH::RMat44 local = JPH::RMat44::sRotationTranslation(JPH::Quat(s.quat[1], s.quat[2], s.quat[3], s.quat[0]),
                                                              JPH::RVec3(s.pos[0], s.pos[1], s.pos[2]));
  if (s.body < 0) return local;
  const KinematicFrame& f = frames[size_t(s.body)];
  return JPH::RMat44::sRotationTranslation(f.rot, f.pos - origin_) * local;
}

}  // namespace joltgym
