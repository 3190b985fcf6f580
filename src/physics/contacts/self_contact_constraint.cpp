#include "physics/contacts/self_contact_constraint.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <cfloat>

namespace joltgym {

SelfContactConstraint::SelfContactConstraint(JPH::Body& body1, JPH::Body& body2,
                                             const std::vector<SelfContactGeomPair>& pairs, const SelfContactLayout& layout,
                                             bool in_jolt)
    : OwnConstraint(body1, body2), pairs_(pairs), layout_(layout), in_jolt_(in_jolt), live_of_(layout.pair_of.size(), -1) {}

SelfContactConstraint::Slot& SelfContactConstraint::TakeSlot(size_t k) {
  if (live_of_[k] >= 0) return live_[size_t(live_of_[k])];
  if (free_.empty()) {
    free_.push_back(int(live_.size()));
    live_.emplace_back();
    if (in_jolt_) parts_.emplace_back();
  }
  live_of_[k] = free_.back();
  free_.pop_back();
  Slot& slot = live_[size_t(live_of_[k])];
  for (SoftContactRow& r : slot.rows) r.Clear();
  return slot;
}

void SelfContactConstraint::FreeSlot(size_t k) {
  for (SoftContactRow& r : live_[size_t(live_of_[k])].rows) r.Clear();
  free_.push_back(live_of_[k]);
  live_of_[k] = -1;
}

void SelfContactConstraint::FindContacts(float h, BiasAccelerationSource& bias_source, int body1, int body2,
                                         const JPH::RMat44& t1, const JPH::RMat44& t2, bool near) {
  num_active_ = 0;
  PairContactPoint contacts[kMaxConvexPairContacts];
  // Slots are taken as contacts are found, before this update's are known: the live ones are never
  // moved, so a Slot's rows may point into live_ only after FindContacts (JointSpaceContacts::Build).
  for (size_t p = 0; p < pairs_.size(); ++p) {
    const SelfContactGeomPair& g = pairs_[p];
    bool found[kMaxConvexPairContacts] = {};
    bool was_live[kMaxConvexPairContacts] = {};
    for (int k = 0; k < g.max_contacts(); ++k) was_live[k] = live_of_[size_t(layout_.first_slot[p] + k)] >= 0;
    // Most pairs of a body are apart most updates: their centres tell, before the geoms' frames.
    const JPH::Vec3 centre1(t1 * g.local1.GetTranslation()), centre2(t2 * g.local2.GetTranslation());
    if (near && (centre1 - centre2).LengthSq() <= layout_.reach[p] * layout_.reach[p]) {
      const JPH::Mat44 geom1(t1 * g.local1), geom2(t2 * g.local2);
      const int n = g.convex()
                        ? CollideConvexPair(g.convex1, geom1, g.convex2, geom2, g.pair.detect_margin, contacts)
                        : CollidePair(g.type1, g.size1, geom1, g.type2, g.size2, geom2, g.pair.detect_margin, contacts);
      for (int i = 0; i < n; ++i) {
        const PairContactPoint& c = contacts[i];
        if (!(c.dist < g.pair.soft.margin)) continue;  // MuJoCo excludes contacts beyond includemargin
        Slot& slot = TakeSlot(size_t(layout_.first_slot[p] + c.feature));
        slot.pos = c.pos;
        slot.r1 = JPH::Vec3(JPH::RVec3(c.pos) - mBody1->GetCenterOfMassPosition());
        slot.r2 = JPH::Vec3(JPH::RVec3(c.pos) - mBody2->GetCenterOfMassPosition());
        const JPH::Vec3 v = mBody2->GetPointVelocity(JPH::RVec3(c.pos)) - mBody1->GetPointVelocity(JPH::RVec3(c.pos));
        const JPH::Vec3 bias = bias_source.BiasOf(body2).At(slot.r2) - bias_source.BiasOf(body1).At(slot.r1);
        slot.num_rows = SetUpSoftContactRows(g.pair, c.normal, JPH::Vec3::sZero(), c.dist, v, bias, h, slot.rows);
        found[c.feature] = true;
      }
    }
    for (int k = 0; k < g.max_contacts(); ++k) {
      const size_t index = size_t(layout_.first_slot[p] + k);
      if (found[k] && !was_live[k])  // a fresh contact starts cold
        for (SoftContactRow& r : live_[size_t(live_of_[index])].rows) r.Clear();
      if (!found[k] && was_live[k]) FreeSlot(index);  // an ended one is cleared
      num_active_ += found[k];
    }
  }
}

void SelfContactConstraint::AppendForces(float dt, int robot, int body1, int body2, std::vector<ContactForce>& out) const {
  if (dt <= 0.0f) return;
  for (size_t k = 0; k < live_of_.size(); ++k) {
    if (live_of_[k] < 0) continue;
    const Slot& s = live_[size_t(live_of_[k])];
    JPH::Vec3 impulse = JPH::Vec3::sZero();
    for (int i = 0; i < s.num_rows; ++i) impulse += s.rows[i].total * s.rows[i].axis;
    const JPH::Vec3 force = impulse / dt;
    const SelfContactGeomPair& g = pairs_[size_t(layout_.pair_of[k])];
    const JPH::Vec3 normal = SoftContactNormal(s.rows, s.num_rows);
    out.push_back({mBody2->GetID(), robot, body2, g.tag2, JPH::RVec3(s.pos), force, normal});
    out.push_back({mBody1->GetID(), robot, body1, g.tag1, JPH::RVec3(s.pos), -force, -normal});
  }
}

template <typename F>
void SelfContactConstraint::ForEachJoltRow(F&& f) {
  for (size_t k = 0; k < live_of_.size(); ++k) {
    if (live_of_[k] < 0) continue;
    Slot& s = live_[size_t(live_of_[k])];
    auto& parts = parts_[size_t(live_of_[k])];
    for (int i = 0; i < s.num_rows; ++i) f(s, s.rows[i], parts[size_t(i)]);
  }
}

void SelfContactConstraint::SetupVelocityConstraint(float dt) {
  ForEachJoltRow([&](const Slot& s, const SoftContactRow& r, JPH::AxisConstraintPart& part) {
    // Jolt's r1 + u: the point on body 2 seen from body 1's centre of mass (the same point: u = 0).
    part.CalculateConstraintPropertiesWithStiffnessAndDamping(dt, *mBody1, s.r1, *mBody2, s.r2, r.axis, r.bias, 0.0f,
                                                              kNegligibleStiffness, r.damping);
    part.SetTotalLambda(r.total);
  });
}

void SelfContactConstraint::WarmStartVelocityConstraint(float ratio) {
  ForEachJoltRow([&](const Slot&, SoftContactRow& r, JPH::AxisConstraintPart& part) {
    part.WarmStart(*mBody1, *mBody2, r.axis, ratio);
    r.total = part.GetTotalLambda();
  });
}

bool SelfContactConstraint::SolveVelocityConstraint(float) {
  bool applied = false;
  ForEachJoltRow([&](const Slot&, SoftContactRow& r, JPH::AxisConstraintPart& part) {
    applied |= part.SolveVelocityConstraint(*mBody1, *mBody2, r.axis, 0.0f, FLT_MAX);
    r.total = part.GetTotalLambda();
  });
  return applied;
}

void SelfContactConstraint::ResetWarmStart() {
  for (Slot& s : live_)
    for (SoftContactRow& r : s.rows) r.Clear();
}

// Only the active slots: an inactive one's rows are cleared and set up again before it is read.
void SelfContactConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  stream.Write(num_active_);
  for (size_t k = 0; k < live_of_.size(); ++k) {
    if (live_of_[k] < 0) continue;
    const Slot& s = live_[size_t(live_of_[k])];
    stream.Write(k);
    stream.Write(s.num_rows);
    stream.Write(s.pos);
    stream.Write(s.r1);
    stream.Write(s.r2);
    for (const SoftContactRow& r : s.rows) r.SaveState(stream);
  }
}

void SelfContactConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  for (size_t k = 0; k < live_of_.size(); ++k)
    if (live_of_[k] >= 0) FreeSlot(k);
  stream.Read(num_active_);
  for (int i = 0; i < num_active_; ++i) {
    size_t k = 0;
    stream.Read(k);
    if (k >= live_of_.size()) {  // a state of another model: leave no contact rather than write past the end
      num_active_ = i;
      break;
    }
    Slot& s = TakeSlot(k);
    stream.Read(s.num_rows);
    stream.Read(s.pos);
    stream.Read(s.r1);
    stream.Read(s.r2);
    for (SoftContactRow& r : s.rows) r.RestoreState(stream);
  }
}

}  // namespace joltgym
