// MuJoCo's soft contacts between one robot body and one plane, as Jolt velocity rows.
//
// Jolt's own contacts are hard (speculative rows plus position correction); MuJoCo's give
// way by what the contact carries over its stiffness, and policies learn on that (a
// resting HalfCheetah sinks visibly into MuJoCo's floor). Before each physics update the
// constraint finds the body's contacts with the plane as MuJoCo does (plane_collision.h)
// and turns each into MuJoCo's rows (contact_pair.h): J v+ + R lambda = J v - h (B J v +
// K d (dist - margin)), lambda >= 0, with J v and dist taken at the update's start. No
// position correction: as in MuJoCo, the stiffness term alone pushes the body back out.
#pragma once

#include "physics/contacts/contact_forces.h"
#include "physics/contacts/contact_pair.h"
#include "physics/contacts/convex_pair_collision.h"
#include "physics/contacts/height_field.h"
#include "physics/contacts/plane_collision.h"
#include "physics/contacts/soft_contact_rows.h"
#include "physics/core/bias_acceleration.h"
#include "physics/core/own_constraint_settings.h"

#include <Jolt/Jolt.h>
#include <Jolt/Physics/Constraints/TwoBodyConstraint.h>

#include <algorithm>
#include <vector>

namespace joltgym {

// The bias accelerations (bias_acceleration.h) of a robot's bodies, computed when first asked
// for in an update: most updates of most bodies have no contact that needs one.
class BiasAccelerationSource {
 public:
  virtual const BiasAcceleration& BiasOf(int body) = 0;

 protected:
  ~BiasAccelerationSource() = default;
};

// A geom of the body that may touch the plane.
struct SoftContactGeom {
  GeomType type = GeomType::Sphere;
  Vec3f size{0, 0, 0};
  JPH::Mat44 local = JPH::Mat44::sIdentity();  // geom frame in the body frame
  ContactPair pair;
  JPH::uint64 tag = 0;                          // ContactForce::geom_tag: 1 + the owning MuJoCo body
  const GeomDesc* desc = nullptr;               // the geom's description (its model outlives the constraint)
  bool explicit_pair = false;                   // its parameters are an explicit <pair>'s, not the two geoms' mix
};

class SoftContactConstraint final : public OwnConstraint {
 public:
  static constexpr int kMaxRows = kMaxSoftContactRows;  // the pyramid of a frictional contact

  // Body 1 is the world (the plane is static), body 2 the robot's body.
  SoftContactConstraint(JPH::Body& body, JPH::Vec3Arg plane_point, JPH::Vec3Arg plane_normal,
                        std::vector<SoftContactGeom> geoms);
  // Against a height field of the scene (it outlives the constraint).
  SoftContactConstraint(JPH::Body& body, const HeightField& field, std::vector<SoftContactGeom> geoms);

  // Finds the contacts and sets up their rows for a physics update of length h; call
  // before the update, with the bodies' velocities still those of the update's start.
  // bias.BiasOf(body) is the body's (bias_acceleration.h), asked for only when a contact is
  // found: each row's target takes h J . bias(r) on top, so that the row solves MuJoCo's
  // J qacc rather than the point's acceleration.
  void BeginStep(float h, BiasAccelerationSource& bias, int body);

  // How many contacts MuJoCo would make with the plane were the body at body_transform (no height field).
  int ContactsAt(const JPH::RMat44& body_transform) const;

  // Appends the force of each contact of the last update of length dt (both sides; the
  // plane's side with an invalid body id). robot / robot_body name the body's owner.
  void AppendForces(float dt, int robot, int robot_body, std::vector<ContactForce>& out) const;

  // The rows are solved in joint space by the tree's articulation (joint_space_contacts.h),
  // which keeps this constraint out of Jolt's lists; each row's accumulated impulse then lives
  // in its `total`.
  void SolveInArticulation();

  // The rows of an active contact, for the articulation's own solve: a row's J v is
  // axis . (v + w x r2) at the contact point, r2 from the body's centre of mass; Jolt's soft row
  // for it is (K + softness) lambda = -(J v + softness total + bias), total >= 0.
  struct RowView {
    JPH::Vec3 axis;
    float bias, softness;
    float* total;
  };
  // f(r2, num_rows, rows) for every active contact; softness for updates of length dt.
  template <typename F>
  void ForEachActiveContact(float dt, F&& f) {
    RowView views[kMaxRows];
    for (Slot& s : slots_) {
      if (!s.active) continue;
      for (int i = 0; i < s.num_rows; ++i) {
        SoftContactRow& r = s.rows[i];
        views[i] = RowView{r.axis, r.bias, SoftContactSoftness(dt, r.damping), &r.total};
      }
      f(s.r2, s.num_rows, views);
    }
  }
  const std::vector<SoftContactGeom>& geoms() const { return geoms_; }
  // Another friction and softness for geom k's contacts (per-env randomisation); the rows it has
  // (its condim) stay.
  void SetPair(size_t k, const ContactPair& pair) { geoms_[k].pair.friction = pair.friction, geoms_[k].pair.soft = pair.soft; }
  // The contacts active in this update (ForEachActiveContact's), for the articulation's storage.
  int ActiveContacts() const { return num_active_; }

  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User2; }
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  // One possible contact point: a feature (end, corner, rim point) of one geom.
  struct Slot {
    bool active = false;
    int num_rows = 0;
    int geom = 0;
    JPH::Vec3 pos = JPH::Vec3::sZero();
    JPH::Vec3 r2 = JPH::Vec3::sZero();   // from body 2's centre of mass
    SoftContactRow rows[kMaxRows];
  };

  // Jolt's part of slot s's row i, when Jolt solves the rows.
  JPH::AxisConstraintPart& Part(size_t s, int i) { return parts_[s * kMaxRows + size_t(i)]; }
  float TotalImpulse(size_t s, int i) const {
    return in_articulation_ ? slots_[s].rows[i].total : parts_[s * kMaxRows + size_t(i)].GetTotalLambda();
  }
  // A slot's rows with no impulse: a fresh contact's, or an ended one's.
  void ClearSlot(size_t s);

  void SetupSlot(Slot& slot, const SoftContactGeom& geom, const PlaneContactPoint& contact, JPH::Vec3Arg normal,
                 float h, const BiasAcceleration& bias);
  void AllocateSlots();
  // The contacts of geom g with the height field this step, set up in its slots.
  void CollideHeightField(size_t g, const JPH::RMat44& body_transform, float h, BiasAccelerationSource& bias_source,
                          int body, const BiasAcceleration*& bias);

  JPH::Vec3 plane_point_;
  JPH::Vec3 plane_normal_;
  const HeightField* height_field_ = nullptr;  // instead of the plane
  std::vector<ConvexGeom> convex_;             // on a height field, per geom: Jolt's shape of a capsule, ellipsoid or cylinder
  std::vector<SoftContactGeom> geoms_;
  std::vector<int> first_slot_;  // per geom
  std::vector<float> reach_;     // per geom: how far its surface reaches from its centre, and a little
  std::vector<Slot> slots_;
  std::vector<JPH::AxisConstraintPart> parts_;  // kMaxRows per slot while Jolt solves the rows, else none
  int num_active_ = 0;  // slots active
  bool in_articulation_ = false;
};

}  // namespace joltgym
