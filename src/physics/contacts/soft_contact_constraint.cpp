#include "physics/contacts/soft_contact_constraint.h"

#include "physics/contacts/convex_pair_collision.h"
#include "physics/contacts/geom_shapes.h"
#include "physics/core/own_constraint_settings.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>

namespace joltgym {

SoftContactConstraint::SoftContactConstraint(JPH::Body& body, JPH::Vec3Arg plane_point, JPH::Vec3Arg plane_normal,
                                             std::vector<SoftContactGeom> geoms)
    : OwnConstraint(JPH::Body::sFixedToWorld, body),
      plane_point_(plane_point),
      plane_normal_(plane_normal.Normalized()),
      geoms_(std::move(geoms)) {
  AllocateSlots();
}

SoftContactConstraint::SoftContactConstraint(JPH::Body& body, const HeightField& field, std::vector<SoftContactGeom> geoms)
    : OwnConstraint(JPH::Body::sFixedToWorld, body),
      plane_point_(JPH::Vec3::sZero()),
      plane_normal_(JPH::Vec3::sAxisZ()),
      height_field_(&field),
      geoms_(std::move(geoms)) {
  for (const SoftContactGeom& g : geoms_) {
    if (g.type == GeomType::Sphere || g.type == GeomType::Box) {
      convex_.push_back({});
      continue;
    }
    if (!g.desc) throw std::invalid_argument("a height field's soft contacts need each geom's description");
    convex_.push_back(MakeConvexGeom(*g.desc, g.desc->name));
  }
  AllocateSlots();
}

void SoftContactConstraint::AllocateSlots() {
  int slots = 0;
  auto features = [this](const SoftContactGeom& g) {
    return height_field_ ? HeightField::kMaxContacts : PlaneContactFeatures(g.type);
  };
  for (const SoftContactGeom& g : geoms_) {
    first_slot_.push_back(slots);
    slots += features(g);
    reach_.push_back(GeomReach(g.type, g.size));
  }
  slots_.resize(size_t(slots));
  parts_.resize(size_t(slots) * kMaxRows);
  for (size_t g = 0; g < geoms_.size(); ++g)
    for (int k = 0; k < features(geoms_[g]); ++k) slots_[size_t(first_slot_[g] + k)].geom = int(g);
}

void SoftContactConstraint::CollideHeightField(size_t g, const JPH::RMat44& body_transform, float h,
                                               BiasAccelerationSource& bias_source, int body,
                                               const BiasAcceleration*& bias) {
  const SoftContactGeom& geom = geoms_[g];
  const JPH::Vec3 centre(body_transform * geom.local.GetTranslation());
  SurfaceContact found[HeightField::kMaxContacts];
  const JPH::Mat44 transform(body_transform * geom.local);
  int n = 0;
  if (geom.type == GeomType::Sphere)
    n = height_field_->CollideSphere(centre, geom.size[0], geom.pair.detect_margin, found);
  else if (geom.type == GeomType::Box)
    n = height_field_->CollideBox(transform, geom.size, geom.pair.detect_margin, found);
  else
    n = height_field_->CollideConvex(*convex_[g].shape, transform * JPH::Mat44::sRotation(convex_[g].to_geom_frame), reach_[g],
                                     geom.pair.detect_margin, found);
  for (int i = 0; i < n; ++i) {
    if (!(found[i].dist < geom.pair.soft.margin)) continue;  // MuJoCo excludes contacts beyond includemargin
    if (!bias) bias = &bias_source.BiasOf(body);
    PlaneContactPoint contact;
    contact.pos = found[i].pos;
    contact.dist = found[i].dist;
    contact.feature = i;
    SetupSlot(slots_[size_t(first_slot_[g] + i)], geom, contact, found[i].normal, h, *bias);
  }
}

void SoftContactConstraint::BeginStep(float h, BiasAccelerationSource& bias_source, int body) {
  const JPH::RMat44 body_transform = mBody2->GetWorldTransform();
  for (Slot& s : slots_) s.num_rows = 0;  // untouched slots end the step inactive
  PlaneContactPoint contacts[kMaxPlaneContacts];
  const BiasAcceleration* bias = nullptr;
  for (size_t g = 0; g < geoms_.size(); ++g) {
    const SoftContactGeom& geom = geoms_[g];
    if (height_field_) {
      CollideHeightField(g, body_transform, h, bias_source, body, bias);
      continue;
    }
    // Out of reach of both margins: CollidePlane would find nothing that counts.
    const JPH::Vec3 centre(body_transform * geom.local.GetTranslation());
    if ((centre - plane_point_).Dot(plane_normal_) - reach_[g] > std::min(geom.pair.detect_margin, geom.pair.soft.margin))
      continue;
    const JPH::Mat44 transform = JPH::Mat44(body_transform * geom.local);
    const int n = CollidePlane(plane_point_, plane_normal_, geom.type, geom.size, transform, geom.pair.detect_margin,
                               contacts);
    for (int i = 0; i < n; ++i) {
      if (!(contacts[i].dist < geom.pair.soft.margin)) continue;  // MuJoCo excludes contacts beyond includemargin
      if (!bias) bias = &bias_source.BiasOf(body);
      SetupSlot(slots_[size_t(first_slot_[g] + contacts[i].feature)], geom, contacts[i], plane_normal_, h, *bias);
    }
  }
  num_active_ = 0;
  for (size_t k = 0; k < slots_.size(); ++k) {
    Slot& s = slots_[k];
    const bool active = s.num_rows > 0;
    num_active_ += active;
    // A fresh contact starts cold: its rows' old impulses are another contact's. (An ended one
    // is cleared as it ends, and nothing touches an inactive slot's rows after that.)
    if (active != s.active) ClearSlot(k);
    s.active = active;
  }
}

void SoftContactConstraint::ClearSlot(size_t s) {
  for (SoftContactRow& r : slots_[s].rows) r.Clear();
  if (!in_articulation_)
    for (int i = 0; i < kMaxRows; ++i) Part(s, i).Deactivate();
}

void SoftContactConstraint::SetupSlot(Slot& slot, const SoftContactGeom& geom, const PlaneContactPoint& contact,
                                      JPH::Vec3Arg normal, float h, const BiasAcceleration& bias) {
  slot.pos = contact.pos;
  slot.r2 = JPH::Vec3(JPH::RVec3(contact.pos) - mBody2->GetCenterOfMassPosition());
  const JPH::Vec3 v = mBody2->GetPointVelocity(JPH::RVec3(contact.pos));
  slot.num_rows = SetUpSoftContactRows(geom.pair, normal, contact.tangent, contact.dist, v, bias.At(slot.r2), h,
                                       slot.rows);
}

void SoftContactConstraint::SolveInArticulation() {
  in_articulation_ = true;
  parts_.clear();
  parts_.shrink_to_fit();
}

void SoftContactConstraint::ResetWarmStart() {
  for (size_t k = 0; k < slots_.size(); ++k) ClearSlot(k);
}

void SoftContactConstraint::SetupVelocityConstraint(float dt) {
  const JPH::Vec3 r1 = JPH::Vec3::sZero();  // body 1 is static: its lever arm never enters
  for (size_t k = 0; k < slots_.size(); ++k) {
    const Slot& s = slots_[k];
    if (!s.active) continue;
    for (int i = 0; i < s.num_rows; ++i) {
      const SoftContactRow& r = s.rows[i];
      Part(k, i).CalculateConstraintPropertiesWithStiffnessAndDamping(dt, *mBody1, r1, *mBody2, s.r2, r.axis, r.bias, 0.0f,
                                                                      kNegligibleStiffness, r.damping);
    }
  }
}

void SoftContactConstraint::WarmStartVelocityConstraint(float ratio) {
  for (size_t k = 0; k < slots_.size(); ++k) {
    const Slot& s = slots_[k];
    if (!s.active) continue;
    for (int i = 0; i < s.num_rows; ++i) Part(k, i).WarmStart(*mBody1, *mBody2, s.rows[i].axis, ratio);
  }
}

bool SoftContactConstraint::SolveVelocityConstraint(float) {
  bool applied = false;
  for (size_t k = 0; k < slots_.size(); ++k) {
    const Slot& s = slots_[k];
    if (!s.active) continue;
    for (int i = 0; i < s.num_rows; ++i)
      applied |= Part(k, i).SolveVelocityConstraint(*mBody1, *mBody2, s.rows[i].axis, 0.0f, FLT_MAX);
  }
  return applied;
}

int SoftContactConstraint::ContactsAt(const JPH::RMat44& body_transform) const {
  if (height_field_) throw std::logic_error("contacts at a set state: height fields are not supported");
  PlaneContactPoint contacts[kMaxPlaneContacts];
  int count = 0;
  for (const SoftContactGeom& geom : geoms_) {
    const JPH::Mat44 transform = JPH::Mat44(body_transform * geom.local);
    const int n = CollidePlane(plane_point_, plane_normal_, geom.type, geom.size, transform, geom.pair.soft.margin, contacts);
    for (int i = 0; i < n; ++i) count += contacts[i].dist < geom.pair.soft.margin;
  }
  return count;
}

void SoftContactConstraint::AppendForces(float dt, int robot, int robot_body, std::vector<ContactForce>& out) const {
  if (dt <= 0.0f) return;
  for (size_t k = 0; k < slots_.size(); ++k) {
    const Slot& s = slots_[k];
    if (!s.active) continue;
    JPH::Vec3 impulse = JPH::Vec3::sZero();
    for (int i = 0; i < s.num_rows; ++i) impulse += TotalImpulse(k, i) * s.rows[i].axis;
    const JPH::Vec3 force = impulse / dt;
    const JPH::uint64 tag = geoms_[size_t(s.geom)].tag;
    const JPH::Vec3 normal = SoftContactNormal(s.rows, s.num_rows);
    out.push_back({mBody2->GetID(), robot, robot_body, tag, JPH::RVec3(s.pos), force, normal});
    out.push_back({JPH::BodyID(), -1, -1, 0, JPH::RVec3(s.pos), -force, -normal});
  }
}

void SoftContactConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  for (const Slot& s : slots_) {
    stream.Write(s.active);
    stream.Write(s.num_rows);
    stream.Write(s.pos);
    stream.Write(s.r2);
    for (const SoftContactRow& r : s.rows) r.SaveState(stream);
  }
  for (const JPH::AxisConstraintPart& part : parts_) part.SaveState(stream);
}

void SoftContactConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  num_active_ = 0;
  for (Slot& s : slots_) {
    stream.Read(s.active);
    num_active_ += s.active;
    stream.Read(s.num_rows);
    stream.Read(s.pos);
    stream.Read(s.r2);
    for (SoftContactRow& r : s.rows) r.RestoreState(stream);
  }
  for (JPH::AxisConstraintPart& part : parts_) part.RestoreState(stream);
}

}  // namespace joltgym
