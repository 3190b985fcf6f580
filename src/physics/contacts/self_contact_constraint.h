// MuJoCo's soft contacts between two bodies of one robot tree (a Humanoid's hand on its
// thigh), found by joltgym's own round-geom collision (pair_collision.h), or Jolt's convex one
// where a box or cylinder takes part (convex_pair_collision.h), and solved in the
// tree's joint space by its articulation (joint_space_contacts.h), as its plane contacts are;
// between bodies of two trees (ball_in_cup's ball and cup; manipulator's ball and its articulated
// hand), in Jolt's lists, row by row as SoftContactConstraint's plane contacts are, an articulated
// tree carrying each row's impulse over its joints at its next projection.
//
// Why not Jolt's contacts: they are hard (speculative rows and position correction), where
// MuJoCo's give way as soft_contact_constraint.h describes; and a robot whose bodies Jolt
// collides cannot share a PhysicsSystem with other envs' robots (WorldPool packing), so every
// Humanoid would pay Jolt's per-update bookkeeping and broad phase alone.
#pragma once

#include "physics/contacts/contact_forces.h"
#include "physics/contacts/self_contact_geom_pair.h"
#include "physics/contacts/soft_contact_constraint.h"

#include <Jolt/Jolt.h>

#include <Jolt/Physics/Constraints/ConstraintPart/AxisConstraintPart.h>

#include <array>
#include <vector>

namespace joltgym {

class SelfContactConstraint final : public OwnConstraint {
 public:
  static constexpr int kMaxRows = kMaxSoftContactRows;

  // Rows push body 2 along their axes and body 1 against them.
  // pairs, layout: the model's (CompiledSelfContact::pairs and ::layout), which outlive the constraint.
  // in_jolt: Jolt solves the rows (the constraint is in its lists), else the bodies' articulation.
  SelfContactConstraint(JPH::Body& body1, JPH::Body& body2, const std::vector<SelfContactGeomPair>& pairs,
                        const SelfContactLayout& layout, bool in_jolt = false);

  // Finds the contacts and sets up their rows for a physics update of length h; call before
  // the update (SoftContactConstraint::BeginStep). body1, body2: the bodies' robot indices, for
  // bias.BiasOf; frames: every robot body's world transform now (the owner computes them once
  // for all of its body pairs).
  // Inline up to the test of the two bodies' bounding spheres: most pairs are apart with no
  // contact to end, and for them a call would cost as much as the test itself.
  void BeginStep(float h, BiasAccelerationSource& bias, int body1, int body2, const JPH::RMat44* frames) {
    const JPH::RMat44& t1 = frames[body1];
    const JPH::RMat44& t2 = frames[body2];
    const bool near = (JPH::Vec3(t1 * layout_.centre1) - JPH::Vec3(t2 * layout_.centre2)).LengthSq() <=
                      layout_.reach_all * layout_.reach_all;
    if (near || num_active_ > 0) FindContacts(h, bias, body1, body2, t1, t2, near);
  }

  // Appends both sides' forces of each contact of the last update of length dt.
  void AppendForces(float dt, int robot, int body1, int body2, std::vector<ContactForce>& out) const;

  // f(r1, r2, num_rows, rows) for every active contact (r1, r2 from each body's centre of mass);
  // rows as SoftContactConstraint::ForEachActiveContact's, J v = axis . (v2(p) - v1(p)).
  template <typename F>
  void ForEachActiveContact(float dt, F&& f) {
    SoftContactConstraint::RowView views[kMaxRows];
    if (num_active_ == 0) return;
    for (size_t k = 0; k < live_of_.size(); ++k) {
      if (live_of_[k] < 0) continue;
      Slot& s = live_[size_t(live_of_[k])];
      for (int i = 0; i < s.num_rows; ++i) {
        SoftContactRow& r = s.rows[i];
        views[i] = SoftContactConstraint::RowView{r.axis, r.bias, SoftContactSoftness(dt, r.damping), &r.total};
      }
      f(s.r1, s.r2, s.num_rows, views);
    }
  }
  // The contacts active in this update (ForEachActiveContact's), for the articulation's storage.
  int ActiveContacts() const { return num_active_; }

  // Jolt calls these only for a constraint in its lists (in_jolt); an articulation solves the others.
  JPH::EConstraintSubType GetSubType() const override { return JPH::EConstraintSubType::User3; }
  void ResetWarmStart() override;
  void SetupVelocityConstraint(float dt) override;
  void WarmStartVelocityConstraint(float ratio) override;
  bool SolveVelocityConstraint(float dt) override;
  bool SolvePositionConstraint(float, float) override { return false; }
  void SaveState(JPH::StateRecorder& stream) const override;
  void RestoreState(JPH::StateRecorder& stream) override;

 private:
  // BeginStep's work once the bodies are near or a contact may end.
  void FindContacts(float h, BiasAccelerationSource& bias, int body1, int body2, const JPH::RMat44& t1,
                    const JPH::RMat44& t2, bool near);

  // An active contact point: a pair's point `feature`.
  struct Slot {
    int num_rows = 0;
    JPH::Vec3 pos = JPH::Vec3::sZero();
    JPH::Vec3 r1 = JPH::Vec3::sZero(), r2 = JPH::Vec3::sZero();
    SoftContactRow rows[kMaxRows];
  };

  const std::vector<SelfContactGeomPair>& pairs_;
  const SelfContactLayout& layout_;
  bool in_jolt_;
  // in_jolt: each live Slot's rows as Jolt solves them (indexed as live_), their totals copied back
  // into the rows after each iteration.
  std::vector<std::array<JPH::AxisConstraintPart, kMaxRows>> parts_;
  // Each pair's possible contacts, SelfContactGeomPair::max_contacts() of them, in order: a Humanoid's
  // 111 pairs have 222. Only the active ones hold a Slot (~200 bytes), from live_, which grows to the
  // most ever active at once: most updates none is, and a Slot for each possible contact would cost
  // every env 50 KB.
  std::vector<int> live_of_;   // per possible contact: its Slot in live_, or -1
  std::vector<Slot> live_;
  std::vector<int> free_;      // Slots of live_ not in use
  int num_active_ = 0;
  // A Slot for possible contact k, its rows cleared, or the one it holds.
  Slot& TakeSlot(size_t k);
  // Clears possible contact k's rows and returns its Slot to free_.
  void FreeSlot(size_t k);
  // f(slot, row, part) for each row of each live slot, with the part Jolt solves it in (in_jolt).
  template <typename F>
  void ForEachJoltRow(F&& f);
};

}  // namespace joltgym
