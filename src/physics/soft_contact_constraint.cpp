#include "physics/soft_contact_constraint.h"

#include "physics/own_constraint_settings.h"

#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/StateRecorder.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace joltgym {
namespace {

// MuJoCo's contact frame (mju_makeFrame): the first tangent is the hint made orthogonal
// to the normal, or world y (world z for normals near y) without one.
JPH::Vec3 FirstTangent(JPH::Vec3Arg normal, JPH::Vec3Arg hint) {
  JPH::Vec3 t = hint;
  if (t.LengthSq() < 0.25f) t = std::abs(normal.GetY()) < 0.5f ? JPH::Vec3::sAxisY() : JPH::Vec3::sAxisZ();
  t -= normal.Dot(t) * normal;
  const float len = t.Length();
  return len > 1.0e-6f ? t / len : normal.GetNormalizedPerpendicular();
}

// The farthest a geom's surface reaches from its centre, plus a millimetre that covers the
// rounding between this test and CollidePlane's: beyond it from the plane, no contact.
float GeomReach(GeomType type, const Vec3f& size) {
  float reach = 0.0f;
  switch (type) {
    case GeomType::Sphere: reach = size[0]; break;
    case GeomType::Capsule: reach = size[0] + size[1]; break;
    case GeomType::Box: reach = std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]); break;
    case GeomType::Cylinder: reach = std::sqrt(size[0] * size[0] + size[1] * size[1]); break;
    case GeomType::Plane: break;
  }
  return reach + 1.0e-3f;
}

}  // namespace

SoftContactConstraint::SoftContactConstraint(JPH::Body& body, JPH::Vec3Arg plane_point, JPH::Vec3Arg plane_normal,
                                             std::vector<SoftContactGeom> geoms)
    : OwnConstraint(JPH::Body::sFixedToWorld, body),
      plane_point_(plane_point),
      plane_normal_(plane_normal.Normalized()),
      geoms_(std::move(geoms)) {
  int slots = 0;
  for (const SoftContactGeom& g : geoms_) {
    first_slot_.push_back(slots);
    slots += PlaneContactFeatures(g.type);
    reach_.push_back(GeomReach(g.type, g.size));
  }
  slots_.resize(size_t(slots));
  for (size_t g = 0; g < geoms_.size(); ++g)
    for (int k = 0; k < PlaneContactFeatures(geoms_[g].type); ++k) slots_[size_t(first_slot_[g] + k)].geom = int(g);
}

void SoftContactConstraint::BeginStep(float h, BiasAccelerationSource& bias_source, int body) {
  const JPH::RMat44 body_transform = mBody2->GetWorldTransform();
  for (Slot& s : slots_) s.num_rows = 0;  // untouched slots end the step inactive
  PlaneContactPoint contacts[kMaxPlaneContacts];
  const BiasAcceleration* bias = nullptr;
  for (size_t g = 0; g < geoms_.size(); ++g) {
    const SoftContactGeom& geom = geoms_[g];
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
      SetupSlot(slots_[size_t(first_slot_[g] + contacts[i].feature)], geom, contacts[i], h, *bias);
    }
  }
  for (Slot& s : slots_) {
    const bool active = s.num_rows > 0;
    // A fresh contact starts cold: its rows' old impulses are another contact's. (An ended one
    // is cleared as it ends, and nothing touches an inactive slot's rows after that.)
    if (active != s.active)
      for (Row& r : s.rows) ClearImpulse(r);
    s.active = active;
  }
}

void SoftContactConstraint::SetupSlot(Slot& slot, const SoftContactGeom& geom, const PlaneContactPoint& contact,
                                      float h, const BiasAcceleration& bias) {
  const JPH::Vec3 n = plane_normal_;
  slot.pos = contact.pos;
  slot.r2 = JPH::Vec3(JPH::RVec3(contact.pos) - mBody2->GetCenterOfMassPosition());
  const JPH::Vec3 v = mBody2->GetPointVelocity(JPH::RVec3(contact.pos));
  const JPH::Vec3 bias_at_point = bias.At(slot.r2);
  const ContactPair& pair = geom.pair;
  JPH::Vec3 dirs[kMaxRows];  // MuJoCo's row Jacobians, J_n +- mu J_t (not unit)
  if (pair.frictional) {
    const JPH::Vec3 t1 = FirstTangent(n, contact.tangent);
    const JPH::Vec3 t2 = n.Cross(t1);
    const float mu = pair.friction;
    dirs[0] = n + mu * t1;
    dirs[1] = n - mu * t1;
    dirs[2] = n + mu * t2;
    dirs[3] = n - mu * t2;
    slot.num_rows = 4;
  } else {
    dirs[0] = n;
    slot.num_rows = 1;
  }
  for (int r = 0; r < slot.num_rows; ++r) {
    const float length = dirs[r].Length();
    float softness, target;
    pair.soft.Row(contact.dist, dirs[r].Dot(v), h, softness, target);
    target += h * dirs[r].Dot(bias_at_point);
    // The unit row J/|J| carries the impulse |J| lambda: softness over |J|^2, target over |J|.
    Row& row = slot.rows[r];
    row.axis = dirs[r] / length;
    row.bias = -target / length;
    row.damping = 1.0f / (h * softness / (length * length));
  }
}

void SoftContactConstraint::SolveInArticulation() { in_articulation_ = true; }

void SoftContactConstraint::ResetWarmStart() {
  for (Slot& s : slots_)
    for (Row& r : s.rows) ClearImpulse(r);
}

void SoftContactConstraint::SetupVelocityConstraint(float dt) {
  const JPH::Vec3 r1 = JPH::Vec3::sZero();  // body 1 is static: its lever arm never enters
  for (Slot& s : slots_) {
    if (!s.active) continue;
    for (int i = 0; i < s.num_rows; ++i) {
      Row& r = s.rows[i];
      r.part.CalculateConstraintPropertiesWithStiffnessAndDamping(dt, *mBody1, r1, *mBody2, s.r2, r.axis, r.bias, 0.0f,
                                                                  kNegligibleStiffness, r.damping);
    }
  }
}

void SoftContactConstraint::WarmStartVelocityConstraint(float ratio) {
  for (Slot& s : slots_) {
    if (!s.active) continue;
    for (int i = 0; i < s.num_rows; ++i) s.rows[i].part.WarmStart(*mBody1, *mBody2, s.rows[i].axis, ratio);
  }
}

bool SoftContactConstraint::SolveVelocityConstraint(float) {
  bool applied = false;
  for (Slot& s : slots_) {
    if (!s.active) continue;
    for (int i = 0; i < s.num_rows; ++i)
      applied |= s.rows[i].part.SolveVelocityConstraint(*mBody1, *mBody2, s.rows[i].axis, 0.0f, FLT_MAX);
  }
  return applied;
}

void SoftContactConstraint::AppendForces(float dt, int robot, int robot_body, std::vector<ContactForce>& out) const {
  if (dt <= 0.0f) return;
  for (const Slot& s : slots_) {
    if (!s.active) continue;
    JPH::Vec3 impulse = JPH::Vec3::sZero();
    for (int i = 0; i < s.num_rows; ++i) impulse += TotalImpulse(s.rows[i]) * s.rows[i].axis;
    const JPH::Vec3 force = impulse / dt;
    const JPH::uint64 tag = geoms_[size_t(s.geom)].tag;
    out.push_back({mBody2->GetID(), robot, robot_body, tag, JPH::RVec3(s.pos), force});
    out.push_back({JPH::BodyID(), -1, -1, 0, JPH::RVec3(s.pos), -force});
  }
}

void SoftContactConstraint::SaveState(JPH::StateRecorder& stream) const {
  JPH::TwoBodyConstraint::SaveState(stream);
  for (const Slot& s : slots_) {
    stream.Write(s.active);
    stream.Write(s.num_rows);
    stream.Write(s.pos);
    stream.Write(s.r2);
    for (const Row& r : s.rows) {
      r.part.SaveState(stream);
      stream.Write(r.axis);
      stream.Write(r.bias);
      stream.Write(r.damping);
      stream.Write(r.total);
    }
  }
}

void SoftContactConstraint::RestoreState(JPH::StateRecorder& stream) {
  JPH::TwoBodyConstraint::RestoreState(stream);
  for (Slot& s : slots_) {
    stream.Read(s.active);
    stream.Read(s.num_rows);
    stream.Read(s.pos);
    stream.Read(s.r2);
    for (Row& r : s.rows) {
      r.part.RestoreState(stream);
      stream.Read(r.axis);
      stream.Read(r.bias);
      stream.Read(r.damping);
      stream.Read(r.total);
    }
  }
}

}  // namespace joltgym
