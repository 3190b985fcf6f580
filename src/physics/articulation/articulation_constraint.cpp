#include "physics/articulation/articulation_constraint.h"

#include <Jolt/Physics/Body/MotionProperties.h>

#include "physics/joints/gimbal.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace joltgym {

ArticulationConstraint::ArticulationConstraint(std::vector<JPH::Body*> bodies, std::vector<ArticulatedHinge> hinges,
                                               JPH::uint32 priority, bool mujoco_euler)
    : TreeConstraint(bodies, priority),
      hinges_(std::move(hinges)),
      mujoco_euler_(mujoco_euler) {
  const bool world_hinged = std::any_of(hinges_.begin(), hinges_.end(), [](const ArticulatedHinge& h) { return h.parent < 0; });
  root_rates_ = world_hinged ? 0 : 6;
  if (int(bodies.size()) > kMaxBodies || root_rates_ + int(hinges_.size()) > kMaxRates)
    throw std::invalid_argument("articulation: at most " + std::to_string(kMaxBodies) + " bodies and " +
                                std::to_string(kMaxRates) + " rates per tree, got " + std::to_string(bodies.size()) +
                                " bodies");
  bodies_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    bodies_[i].body = bodies[i];
    bodies_[i].mass = 1.0f / bodies[i]->GetMotionProperties()->GetInverseMass();
  }
  parent_of_.assign(bodies_.size(), -1);
  hinge_of_.assign(bodies_.size(), -1);
  hinges_on_.assign(bodies_.size(), 0);
  for (size_t k = 0; k < hinges_.size(); ++k) {
    const size_t body = size_t(hinges_[k].body);
    parent_of_[body] = hinges_[k].parent;
    if (hinges_on_[body]++ == 0) hinge_of_[body] = int(k);
    else if (hinge_of_[body] + hinges_on_[body] - 1 != int(k) || hinges_[k].gimbal_slot != hinges_on_[body] - 1)
      throw std::invalid_argument("articulation: a multi-hinge body's hinges must come one after the other, in slot order");
  }
  rate_row_.resize(hinges_.size());
  for (const ArticulatedHinge& h : hinges_) {
    const JPH::Quat parent = h.parent >= 0 ? bodies_[size_t(h.parent)].body->GetRotation() : JPH::Quat::sIdentity();
    rest_.push_back(parent.Conjugated() * bodies_[size_t(h.body)].body->GetRotation());
  }
  // Scratch sized to the tree, not to the largest tree supported: it is most of an articulation's memory.
  const size_t n = bodies_.size(), rates = size_t(root_rates_) + hinges_.size();
  std::vector<size_t> room(n), first(n);
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) {  // a body's path: its parent's and its own hinges (the root: its rates)
    room[i] = (parent_of_[i] >= 0 ? room[size_t(parent_of_[i])] : size_t(root_rates_)) + size_t(hinges_on_[i]);
    first[i] = total;
    total += room[i];
  }
  motion_rates_.resize(total);
  motion_twists_.resize(2 * total);
  motion_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    motion_[i].rate = motion_rates_.data() + first[i];
    motion_[i].lin = motion_twists_.data() + first[i];
    motion_[i].ang = motion_twists_.data() + total + first[i];
  }
  rate_w_.resize(rates);
  rate_v_.resize(rates);
  composite_.resize(n);
  v_.resize(n);
  w_.resize(n);
  placed_.resize(n);
  placed_rotation_.resize(n);
  system_.SetTree(RateParents(root_rates_, hinges_));
  if (mujoco_euler_) damping_.SetTree(RateParents(root_rates_, hinges_));
  damping_linear_.assign(n, JPH::Vec3::sZero());
  damping_angular_.assign(n, JPH::Vec3::sZero());
}

void ArticulationConstraint::AddTendonEquality(TendonEqualityConstraint* equality, const std::vector<int>& joints,
                                               const std::vector<float>& coefs) {
  // The rows' rate is (w_child - w_parent) . rate row: the hinge's own rate, sign +1.
  equalities_.Attach(system_, equality,
                     JointSpaceEqualities::TermsOnHinges(hinges_, root_rates_, joints, coefs, [](int) { return 1.0; }));
}

void ArticulationConstraint::BuildMotions() {
  for (BodyInfo& b : bodies_) {
    b.inv_inertia = b.body->GetMotionProperties()->GetInverseInertiaForRotation(JPH::Mat44::sRotation(b.body->GetRotation()));
    b.inertia = b.inv_inertia.Inversed3x3();
  }
  // A body moves with its parent's rates (rigidly carried to its own COM) and its own hinge's,
  // which comes after them: each body's rates are in ascending order.
  const JPH::Vec3 root(bodies_[0].body->GetCenterOfMassPosition());
  for (size_t i = 0; i < bodies_.size(); ++i) {
    BodyMotion& m = motion_[i];
    const JPH::Vec3 p(bodies_[i].body->GetCenterOfMassPosition());
    m.count = 0;
    const auto add = [&m](int rate, JPH::Vec3Arg lin, JPH::Vec3Arg ang) {
      m.rate[m.count] = rate;
      m.lin[m.count] = lin;
      m.ang[m.count] = ang;
      ++m.count;
    };
    if (parent_of_[i] >= 0) {  // the parent's rates: v_parent + w_parent x (p - p_parent)
      const BodyMotion& pm = motion_[size_t(parent_of_[i])];
      const JPH::Vec3 d = p - JPH::Vec3(bodies_[size_t(parent_of_[i])].body->GetCenterOfMassPosition());
      for (int c = 0; c < pm.count; ++c) add(pm.rate[c], pm.lin[c] + pm.ang[c].Cross(d), pm.ang[c]);
    } else if (root_rates_ == 6) {  // the root's velocity and its turning about its COM
      const JPH::Vec3 axes[3] = {JPH::Vec3::sAxisX(), JPH::Vec3::sAxisY(), JPH::Vec3::sAxisZ()};
      for (int a = 0; a < 3; ++a) add(a, axes[a], JPH::Vec3::sZero());
      for (int a = 0; a < 3; ++a) add(3 + a, axes[a].Cross(p - root), axes[a]);
    }
    if (hinge_of_[i] >= 0) {
      const int first = hinge_of_[i];
      const ArticulatedHinge& h = hinges_[size_t(first)];
      const JPH::Body& child = *bodies_[i].body;
      const JPH::Quat parent = h.parent >= 0 ? bodies_[size_t(h.parent)].body->GetRotation() : JPH::Quat::sIdentity();
      const JPH::Vec3 anchor = JPH::Vec3(child.GetCenterOfMassPosition()) + child.GetRotation() * h.anchor_local2;
      if (h.gimbal_slot < 0) {
        const JPH::Vec3 axis = parent * h.axis_local1;
        rate_row_[size_t(first)] = axis;
        add(HingeRate(first), axis.Cross(p - anchor), axis);
      } else {  // each coordinate's axis as the ones before it leave it, its rate row their inverse
        const JPH::Quat rest = parent * h.gimbal_rest;
        const GimbalCoordinates g = h.gimbal_anchors_apart ? MeasureGimbal(rest, h.gimbal_basis, child.GetRotation(), h.gimbal_lock_third)
                                   : MeasureGimbalAxes(rest, h.gimbal_basis, child.GetRotation(), h.gimbal_lock_third);
        for (int k = first; k < first + hinges_on_[i]; ++k) {
          const ArticulatedHinge& c = hinges_[size_t(k)];
          const JPH::Vec3 axis = c.gimbal_sign * g.axes[c.gimbal_slot];
          rate_row_[size_t(k)] = c.gimbal_sign * g.rate_rows[c.gimbal_slot];
          const JPH::Vec3 turns_about =
              h.gimbal_anchors_apart
                  ? JPH::Vec3(child.GetCenterOfMassPosition()) + child.GetRotation() * AnchorOnChild(int(i), c.gimbal_slot, g.angles)
                  : anchor;
          add(HingeRate(k), axis.Cross(p - turns_about), axis);
        }
      }
    }
  }
}

void ArticulationConstraint::AddMassMatrix() {
  const JPH::Vec3 root(bodies_[0].body->GetCenterOfMassPosition());
  const JPH::Vec3 axes[3] = {JPH::Vec3::sAxisX(), JPH::Vec3::sAxisY(), JPH::Vec3::sAxisZ()};
  for (size_t i = 0; i < bodies_.size(); ++i) {  // each body alone, then added into its ancestors'
    const float m = bodies_[i].mass;
    const JPH::Vec3 d = JPH::Vec3(bodies_[i].body->GetCenterOfMassPosition()) - root;
    JPH::Mat44 inertia = bodies_[i].inertia;  // + m (|d|^2 1 - d d^T), column by column
    for (int a = 0; a < 3; ++a)
      inertia.SetColumn4(a, inertia.GetColumn4(a) + JPH::Vec4(m * (d.LengthSq() * axes[a] - d[a] * d), 0.0f));
    composite_[i] = {m, m * d, inertia};
  }
  for (size_t i = bodies_.size() - 1; i > 0; --i) {
    Composite& up = composite_[size_t(parent_of_[i])];
    const Composite& c = composite_[i];
    up.mass += c.mass;
    up.moment += c.moment;
    for (int a = 0; a < 3; ++a) up.inertia.SetColumn4(a, up.inertia.GetColumn4(a) + c.inertia.GetColumn4(a));
  }
  // Parents first, so a body's path has its twists when it comes: its own rates (the last of
  // its path) take theirs, then each entry (r, s), r its own and s on its path, is set, once.
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const BodyMotion& m = motion_[i];
    const Composite& c = composite_[i];
    const JPH::Vec3 d = JPH::Vec3(bodies_[i].body->GetCenterOfMassPosition()) - root;
    const int own = i == 0 ? root_rates_ + hinges_on_[0] : hinges_on_[i];
    for (int p = m.count - own; p < m.count; ++p) {
      const int r = m.rate[p];
      rate_w_[r] = m.ang[p];  // the body's (lin, ang) carried to the root's centre of mass
      rate_v_[r] = m.lin[p] - m.ang[p].Cross(d);
      // The momentum rate r gives body i's subtree: linear, and angular about the root's centre of mass.
      const JPH::Vec3 linear = c.mass * rate_v_[r] + rate_w_[r].Cross(c.moment);
      const JPH::Vec3 angular = c.moment.Cross(rate_v_[r]) + c.inertia.Multiply3x3(rate_w_[r]);
      for (int q = 0; q <= p; ++q) {  // lower triangle: a body's rates ascend
        const int s = m.rate[q];
        system_.a(r, s) = double(rate_v_[s].Dot(linear) + rate_w_[s].Dot(angular));
      }
    }
  }
}

void ArticulationConstraint::Factorise() {
  AddMassMatrix();  // sets every entry the factorisation reads (those of rates on one path)
  Refactorise();
}

void ArticulationConstraint::Refactorise() {
  system_.Factorise();
  contacts_.FactorChanged();
  equalities_.FactorChanged();
}

void ArticulationConstraint::SetupVelocityConstraint(float dt) {
  system_.Reset(scratch());
  BuildMotions();
  // The rows' rate is (w_child - w_parent) . axis: the hinge's own rate, sign +1.
  system_.AddHingeRows(hinges_, dt, root_rates_, [](int) { return 1.0; });
  contacts_.Build(
      scratch(), dt, system_,
      [](JPH::Vec3Arg axis, double* a) {
        for (int d = 0; d < 3; ++d) a[d] = axis[d];
      },
      [this](int body, JPH::Vec3Arg r, double sign, JointSpaceContacts<3>::Point& point) {  // lin + ang x r
        const BodyMotion& m = motion_[size_t(body)];
        for (int c = 0; c < m.count; ++c) {
          const JPH::Vec3 v = m.lin[c] + m.ang[c].Cross(r);
          for (int d = 0; d < 3; ++d) point.p[d][m.rate[c]] += sign * double(v[d]);
        }
        return m.count > 0 ? m.rate[m.count - 1] : -1;
      });
  equalities_.Build(dt, system_);
  Factorise();
  if (mujoco_euler_) damping_.Build(scratch(), system_);
}

bool ArticulationConstraint::SolvePositionConstraint(float, float baumgarte) {
  // Corrections below these are float rounding: the previous pass placed the tree.
  constexpr float kClosed = 1.0e-6f;       // m
  constexpr float kAligned = 1.0e-6f;      // rad
  double mass = 0.0, offset[3] = {};  // sum m, sum m (p - placed)
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const JPH::Body& body = *bodies_[i].body;
    const JPH::Vec3 p(body.GetCenterOfMassPosition());
    if (hinge_of_[i] < 0) {
      placed_[i] = p;
      placed_rotation_[i] = body.GetRotation();
    } else {
      const ArticulatedHinge& h = hinges_[size_t(hinge_of_[i])];
      const JPH::Quat parent = h.parent >= 0 ? placed_rotation_[size_t(h.parent)] : JPH::Quat::sIdentity();
      placed_rotation_[i] = PlacedRotation(int(i), parent);
      const JPH::Vec3 anchor = h.parent >= 0 ? placed_[size_t(h.parent)] + parent * h.anchor_local1 : h.anchor_local1;
      const JPH::Vec3 on_child =
          h.gimbal_anchors_apart
              ? AnchorOnChild(int(i), 0, MeasureGimbal(parent * h.gimbal_rest, h.gimbal_basis, placed_rotation_[i], h.gimbal_lock_third).angles)
              : h.anchor_local2;
      placed_[i] = anchor - placed_rotation_[i] * on_child;
    }
    const JPH::Vec3 d = p - placed_[i];
    mass += bodies_[i].mass;
    for (int c = 0; c < 3; ++c) offset[c] += double(bodies_[i].mass) * d[c];
  }
  // A tree hinged to the world stays on its anchor; a free one keeps its centre of mass.
  const JPH::Vec3 shift = root_rates_ > 0 ? JPH::Vec3(float(offset[0] / mass), float(offset[1] / mass), float(offset[2] / mass))
                                          : JPH::Vec3::sZero();
  bool moved = false;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    JPH::Body& body = *bodies_[i].body;
    JPH::Quat change = placed_rotation_[i] * body.GetRotation().Conjugated();
    if (change.GetW() < 0.0f) change = -change;
    const JPH::Vec3 xyz = change.GetXYZ();
    const float sine = xyz.Length();
    if (sine > 0.5f * kAligned) {
      // The turn's angle over its sine, 2 atan2(sine, w) / sine: for the small corrections of
      // most placements its series (2 / w)(1 - t^2 / 3), t = sine / w, whose next term t^4 / 5
      // is below float rounding for t < 1e-3, and cheaper than atan2 in a loop that runs at
      // every placement.
      const float w = change.GetW(), t = sine / w;
      const float angle_per_sine = sine < 1.0e-3f * w ? (2.0f / w) * (1.0f - t * t / 3.0f) : 2.0f * std::atan2(sine, w) / sine;
      body.AddRotationStep((baumgarte * angle_per_sine) * xyz);
      moved = true;
    }
    const JPH::Vec3 step = baumgarte * (placed_[i] + shift - JPH::Vec3(body.GetCenterOfMassPosition()));
    if (step.Abs().ReduceMax() > kClosed) {
      body.AddPositionStep(step);
      moved = true;
    }
  }
  RememberPlacement();
  return moved;
}

JPH::Vec3 ArticulationConstraint::AnchorOnChild(int i, int slot, JPH::Vec3Arg angles) const {
  const int first = hinge_of_[size_t(i)];
  JPH::Vec3 anchors[3];
  for (int s = 0; s < hinges_on_[size_t(i)]; ++s) anchors[s] = hinges_[size_t(first + s)].anchor_local2;
  return GimbalAnchorOnChild(anchors, hinges_on_[size_t(i)], slot, hinges_[size_t(first)].gimbal_basis, angles);
}

JPH::Quat ArticulationConstraint::PlacedRotation(int i, JPH::QuatArg parent) const {
  const int k = hinge_of_[size_t(i)];
  const ArticulatedHinge& h = hinges_[size_t(k)];
  const JPH::Quat rotation = bodies_[size_t(i)].body->GetRotation();
  if (h.gimbal_slot >= 0) {
    // Three hinges about one anchor reach every rotation: the body stays as it is. Two drop the third.
    return h.gimbal_lock_third ? TwoHingeRotation(parent * h.gimbal_rest, h.gimbal_basis, rotation) : rotation.Normalized();
  }
  // The child's rotation relative to its rest in the parent's frame, reduced to its twist about the axis.
  const JPH::Quat turn = parent.Conjugated() * rotation * rest_[size_t(k)].Conjugated();
  const JPH::Vec3 a = h.axis_local1;
  JPH::Quat twist(JPH::Vec4(a * turn.GetXYZ().Dot(a), turn.GetW()));
  const float length = twist.Length();
  twist = length > 1.0e-9f ? JPH::Quat(twist.GetXYZW() / length) : JPH::Quat::sIdentity();
  return (parent * twist * rest_[size_t(k)]).Normalized();
}

void ArticulationConstraint::ApplyRateImpulse(int hinge, float impulse) {
  if (impulse == 0.0f) return;
  const ArticulatedHinge& h = hinges_[size_t(hinge)];
  const JPH::Vec3 torque = impulse * rate_row_[size_t(hinge)];
  const BodyInfo& child = bodies_[size_t(h.body)];
  child.body->GetMotionProperties()->AddAngularVelocityStep(child.inv_inertia.Multiply3x3(torque));
  if (h.parent < 0) return;
  const BodyInfo& parent = bodies_[size_t(h.parent)];
  parent.body->GetMotionProperties()->AddAngularVelocityStep(-parent.inv_inertia.Multiply3x3(torque));
}

void ArticulationConstraint::WarmStartVelocityConstraint(float ratio) {
  system_.WarmStart(ratio, [this](int hinge, float impulse) { ApplyRateImpulse(hinge, impulse); });
  contacts_.WarmStart(ratio, [this](int body, JPH::Vec3Arg r, const double* impulse) {
    const BodyInfo& b = bodies_[size_t(body)];
    const JPH::Vec3 i{float(impulse[0]), float(impulse[1]), float(impulse[2])};
    JPH::MotionProperties* mp = b.body->GetMotionProperties();
    mp->AddLinearVelocityStep(i / b.mass);
    mp->AddAngularVelocityStep(b.inv_inertia.Multiply3x3(r.Cross(i)));
  });
  equalities_.WarmStart(ratio, [this](int hinge, float impulse) { ApplyRateImpulse(hinge, impulse); });
}

bool ArticulationConstraint::SolveOnce() {
  system_.ClearRhs();
  for (size_t i = 0; i < bodies_.size(); ++i) {  // T^T M v
    const JPH::Body& body = *bodies_[i].body;
    v_[i] = body.GetLinearVelocity();
    w_[i] = body.GetAngularVelocity();
    const JPH::Vec3 momentum = bodies_[i].mass * v_[i];
    const JPH::Vec3 angular = bodies_[i].inertia.Multiply3x3(w_[i]);
    const BodyMotion& m = motion_[i];
    for (int c = 0; c < m.count; ++c) system_.rhs(m.rate[c]) += double(m.lin[c].Dot(momentum)) + double(m.ang[c].Dot(angular));
  }
  if (!system_.Solve([this](int hinge, float impulse) { ApplyRateImpulse(hinge, impulse); })) return false;
  contacts_.Solve(system_);
  equalities_.Solve(system_);
  for (size_t i = 0; i < bodies_.size(); ++i) {  // v' = T x, applied as the change from v
    JPH::Vec3 lin, ang;
    VelocityOf(motion_[i], [this](int r) { return system_.x(r); }, lin, ang);
    JPH::MotionProperties* mp = bodies_[i].body->GetMotionProperties();
    mp->AddLinearVelocityStep(lin - v_[i]);
    mp->AddAngularVelocityStep(ang - w_[i]);
  }
  system_.AccumulateImpulses();
  return true;
}

bool ArticulationConstraint::SolveVelocityConstraint(float) {
  JointSpaceSystem::SolveReleasingLimits(int(hinges_.size()), [this] { return SolveOnce(); }, [this] { Refactorise(); });
  if (mujoco_euler_) DampAfterConstraints();
  return true;
}

void ArticulationConstraint::DampAfterConstraints() {
  damping_.Solve(system_);
  for (size_t i = 0; i < bodies_.size(); ++i) {  // v += T dx
    JPH::Vec3 lin, ang;
    VelocityOf(motion_[i], [this](int r) { return damping_.change(r); }, lin, ang);
    JPH::MotionProperties* mp = bodies_[i].body->GetMotionProperties();
    mp->AddLinearVelocityStep(lin);
    mp->AddAngularVelocityStep(ang);
    damping_linear_[i] = lin;
    damping_angular_[i] = ang;
  }
}

void ArticulationConstraint::RefreshMasses() {
  for (BodyInfo& b : bodies_) b.mass = 1.0f / b.body->GetMotionProperties()->GetInverseMass();
}

}  // namespace joltgym
